import { describe, expect, it } from 'vitest';
import { normaliseStorefrontDomain, tokenCoversDomain } from './license-domain';

describe('normaliseStorefrontDomain', () => {
  it.each([
    ['www.acme.com', { host: 'www.acme.com', site: 'acme.com' }],
    ['HTTPS://Shop.Acme.co.uk:443/collections?x=1', { host: 'shop.acme.co.uk', site: 'acme.co.uk' }],
    ['acme.myshopify.com', { host: 'acme.myshopify.com', site: 'acme.myshopify.com' }],
    ['münchen.de', { host: 'xn--mnchen-3ya.de', site: 'xn--mnchen-3ya.de' }],
  ])('%s → %o', (input, expected) => {
    expect(normaliseStorefrontDomain(input)).toEqual(expected);
  });

  it.each(['', 'localhost', '127.0.0.1', 'not a domain', 'myshopify.com', 'ftp://acme.com'])('refuses %j', (input) => {
    expect(normaliseStorefrontDomain(input)).toBeNull();
  });
});

describe('tokenCoversDomain', () => {
  const whitelist = ['acme.com', 'shop.acme.com', 'acme.myshopify.com'];
  const covers = (domain: string) => tokenCoversDomain(whitelist, normaliseStorefrontDomain(domain)!);

  it('covers the whitelisted hosts and subdomains of a whitelisted registrable domain', () => {
    expect(covers('acme.com')).toBe(true);
    expect(covers('www.acme.com')).toBe(true);
    expect(covers('shop.acme.com')).toBe(true);
    expect(covers('acme.myshopify.com')).toBe(true);
  });

  it('never covers another shop or another domain', () => {
    expect(covers('other.myshopify.com')).toBe(false);
    expect(covers('acme.co.uk')).toBe(false);
    expect(covers('acme.com.evil.io')).toBe(false);
    expect(covers('notacme.com')).toBe(false);
  });

  it('a whitelisted subdomain alone does not cover its siblings', () => {
    expect(tokenCoversDomain(['shop.acme.com'], normaliseStorefrontDomain('blog.acme.com')!)).toBe(false);
    expect(tokenCoversDomain(['shop.acme.com'], normaliseStorefrontDomain('shop.acme.com')!)).toBe(true);
  });
});
