import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  WEBSITE_DOMAIN_MESSAGES,
  normaliseMyshopifyField,
  normaliseWebsiteDomain,
  stripStoredUrl,
  toStoredUrl,
  validateConnectionDomains,
  type ConnectionDomainsInput,
  type ConnectionDomainsResult,
  type MyshopifyFieldResult,
  type WebsiteDomainResult,
} from './website-domain';

const converted = (original: string, main: string): string =>
  `Converted "${original}" to "${main}". Both domains will be whitelisted.`;
const invalid = (host: string): string => `Please enter a valid domain (${host})`;

describe('§5 WEBSITE_DOMAIN_MESSAGES are the exact spec text', () => {
  it.each<[string, string]>([
    [WEBSITE_DOMAIN_MESSAGES.required, 'Please enter at least one domain'],
    [WEBSITE_DOMAIN_MESSAGES.invalid('x'), 'Please enter a valid domain (x)'],
    [
      WEBSITE_DOMAIN_MESSAGES.converted('a.b.com', 'b.com'),
      'Converted "a.b.com" to "b.com". Both domains will be whitelisted.',
    ],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('§5 normaliseWebsiteDomain', () => {
  it.each<[string, WebsiteDomainResult]>([
    ['example.com', { ok: true, host: 'example.com', original: 'example.com' }],
    ['  Example.COM  ', { ok: true, host: 'example.com', original: 'example.com' }],
    ['https://example.com/', { ok: true, host: 'example.com', original: 'example.com' }],
    ['http://example.com//', { ok: true, host: 'example.com', original: 'example.com' }],
    ['HTTPS://Example.com/collections/all?x=1', { ok: true, host: 'example.com', original: 'example.com' }],
    ['example.com#top', { ok: true, host: 'example.com', original: 'example.com' }],
    ['example.co.uk', { ok: true, host: 'example.co.uk', original: 'example.co.uk' }],
    ['my-shop2.store', { ok: true, host: 'my-shop2.store', original: 'my-shop2.store' }],
    [
      'www.foo.com',
      {
        ok: true,
        host: 'foo.com',
        original: 'www.foo.com',
        notice: converted('www.foo.com', 'foo.com'),
      },
    ],
    [
      'https://shop.example.co.uk/',
      {
        ok: true,
        host: 'example.co.uk',
        original: 'shop.example.co.uk',
        notice: converted('shop.example.co.uk', 'example.co.uk'),
      },
    ],
    [
      'a.b.shop.com.au',
      {
        ok: true,
        host: 'shop.com.au',
        original: 'a.b.shop.com.au',
        notice: converted('a.b.shop.com.au', 'shop.com.au'),
      },
    ],
    [
      'store.example.com.br',
      {
        ok: true,
        host: 'example.com.br',
        original: 'store.example.com.br',
        notice: converted('store.example.com.br', 'example.com.br'),
      },
    ],
    ['shop.myshopify.com', { ok: true, host: 'shop.myshopify.com', original: 'shop.myshopify.com' }],
    [
      'blog.me.github.io',
      {
        ok: true,
        host: 'me.github.io',
        original: 'blog.me.github.io',
        notice: converted('blog.me.github.io', 'me.github.io'),
      },
    ],
    ['', { ok: false, error: invalid('') }],
    ['https://', { ok: false, error: invalid('') }],
    ['localhost', { ok: false, error: invalid('localhost') }],
    ['example', { ok: false, error: invalid('example') }],
    ['example.c', { ok: false, error: invalid('example.c') }],
    ['example.c0m', { ok: false, error: invalid('example.c0m') }],
    ['192.168.1.10', { ok: false, error: invalid('192.168.1.10') }],
    ['http://[::1]/', { ok: false, error: invalid('[::1]') }],
    ['foo..com', { ok: false, error: invalid('foo..com') }],
    ['-foo.com', { ok: false, error: invalid('-foo.com') }],
    ['foo-.com', { ok: false, error: invalid('foo-.com') }],
    ['shop_1.example.com', { ok: false, error: invalid('shop_1.example.com') }],
    ['my shop.com', { ok: false, error: invalid('my shop.com') }],
    ['user@example.com', { ok: false, error: invalid('user@example.com') }],
    ['example.com:8080', { ok: false, error: invalid('example.com:8080') }],
    ['ftp://example.com', { ok: false, error: invalid('ftp:') }],
    ['co.uk', { ok: false, error: invalid('co.uk') }],
    ['github.io', { ok: false, error: invalid('github.io') }],
    ['münchen.de', { ok: false, error: invalid('münchen.de') }],
  ])('%j → %j', (input, expected) => {
    expect(normaliseWebsiteDomain(input)).toEqual(expected);
  });
});

describe('§5 normaliseMyshopifyField', () => {
  it.each<[string, MyshopifyFieldResult]>([
    ['my-store', { ok: true, host: 'my-store.myshopify.com' }],
    ['https://My-Store.myshopify.com/', { ok: true, host: 'my-store.myshopify.com' }],
    ['shop.com', { ok: false, error: 'Please enter a valid Shopify store domain (shop.com.myshopify.com)' }],
    ['a.b.myshopify.com', { ok: false, error: 'Please enter a valid Shopify store domain (a.b.myshopify.com)' }],
    ['', { ok: false, error: 'Please enter your Shopify store domain' }],
  ])('%j → %j', (input, expected) => {
    expect(normaliseMyshopifyField(input)).toEqual(expected);
  });
});

describe('stripStoredUrl / toStoredUrl', () => {
  it.each<[string | null | undefined, string]>([
    ['https://example.com', 'example.com'],
    ['http://example.com/', 'example.com'],
    ['HTTPS://Example.com', 'example.com'],
    ['example.com', 'example.com'],
    ['None', ''],
    ['', ''],
    [null, ''],
    [undefined, ''],
  ])('stripStoredUrl(%j) → %j', (url, expected) => {
    expect(stripStoredUrl(url)).toBe(expected);
  });
  it.each<[string, string]>([
    ['example.com', 'https://example.com'],
    ['https://example.com', 'https://example.com'],
    ['', ''],
  ])('toStoredUrl(%j) → %j', (host, expected) => {
    expect(toStoredUrl(host)).toBe(expected);
  });
});

describe('§5 validateConnectionDomains', () => {
  it.each<[string, ConnectionDomainsInput, ConnectionDomainsResult]>([
    [
      'all empty',
      { main_url: '', myshopify: '', secondary_url: '' },
      { ok: false, error: 'Please enter at least one domain' },
    ],
    [
      'all None/null/whitespace',
      { main_url: 'None', myshopify: null, secondary_url: '  ' },
      { ok: false, error: 'Please enter at least one domain' },
    ],
    ['nothing given', {}, { ok: false, error: 'Please enter at least one domain' }],
    [
      'website only',
      { main_url: 'Example.com/' },
      {
        ok: true,
        main_url: 'https://example.com',
        myshopify: null,
        secondary_url: null,
        notices: [],
        whitelist: ['example.com'],
      },
    ],
    [
      'myshopify only',
      { myshopify: 'my-store' },
      {
        ok: true,
        main_url: null,
        myshopify: 'my-store.myshopify.com',
        secondary_url: null,
        notices: [],
        whitelist: ['my-store.myshopify.com'],
      },
    ],
    [
      'secondary only',
      { secondary_url: 'second.net' },
      {
        ok: true,
        main_url: null,
        myshopify: null,
        secondary_url: 'https://second.net',
        notices: [],
        whitelist: ['second.net'],
      },
    ],
    [
      'all three with conversions',
      {
        main_url: 'https://www.shop.com/',
        myshopify: 'shop.myshopify.com',
        secondary_url: 'eu.shop.co.uk',
      },
      {
        ok: true,
        main_url: 'https://shop.com',
        myshopify: 'shop.myshopify.com',
        secondary_url: 'https://shop.co.uk',
        notices: [converted('www.shop.com', 'shop.com'), converted('eu.shop.co.uk', 'shop.co.uk')],
        whitelist: ['shop.com', 'www.shop.com', 'shop.myshopify.com', 'shop.co.uk', 'eu.shop.co.uk'],
      },
    ],
    [
      'stored forms round-trip; duplicates collapse',
      {
        main_url: 'https://shop.com',
        myshopify: 'shop.myshopify.com',
        secondary_url: 'https://shop.com',
      },
      {
        ok: true,
        main_url: 'https://shop.com',
        myshopify: 'shop.myshopify.com',
        secondary_url: 'https://shop.com',
        notices: [],
        whitelist: ['shop.com', 'shop.myshopify.com'],
      },
    ],
    [
      'invalid website',
      { main_url: 'not a domain', myshopify: 'ok-store' },
      { ok: false, error: 'Please enter a valid domain (not a domain)' },
    ],
    [
      'invalid myshopify',
      { main_url: 'shop.com', myshopify: 'shop.com' },
      { ok: false, error: 'Please enter a valid Shopify store domain (shop.com.myshopify.com)' },
    ],
    [
      'invalid secondary',
      { main_url: 'shop.com', secondary_url: '10.0.0.1' },
      { ok: false, error: 'Please enter a valid domain (10.0.0.1)' },
    ],
    [
      'website checked before myshopify',
      { main_url: 'bad', myshopify: 'bad_store' },
      { ok: false, error: 'Please enter a valid domain (bad)' },
    ],
  ])('%s', (_label, input, expected) => {
    expect(validateConnectionDomains(input)).toEqual(expected);
  });
});

describe('robustness: the server calls these with any string', () => {
  it('normaliseWebsiteDomain never throws and returns hosts it accepts', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), fc.domain()), (input) => {
        const result = normaliseWebsiteDomain(input);
        if (result.ok)
          expect(normaliseWebsiteDomain(result.host)).toEqual({
            ok: true,
            host: result.host,
            original: result.host,
          });
      }),
    );
  });
  it('validateConnectionDomains never throws', () => {
    const field = fc.option(fc.oneof(fc.string(), fc.domain(), fc.webUrl()), { nil: undefined });
    fc.assert(
      fc.property(field, field, field, (main_url, myshopify, secondary_url) => {
        const result = validateConnectionDomains({ main_url, myshopify, secondary_url });
        if (result.ok) expect(result.whitelist.length).toBeGreaterThan(0);
      }),
    );
  });
  it('handles very long input quickly', () => {
    const long = `${'a'.repeat(100_000)}.com`;
    expect(normaliseWebsiteDomain(long)).toEqual({ ok: false, error: invalid(long) });
  });
});
