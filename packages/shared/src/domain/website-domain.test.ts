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
    // Internationalised domains: Unicode becomes punycode (WHATWG domainToASCII); punycode labels are accepted.
    ['münchen.de', { ok: true, host: 'xn--mnchen-3ya.de', original: 'xn--mnchen-3ya.de' }],
    ['MÜNCHEN.DE', { ok: true, host: 'xn--mnchen-3ya.de', original: 'xn--mnchen-3ya.de' }],
    ['https://пример.рф/каталог', { ok: true, host: 'xn--e1afmkfd.xn--p1ai', original: 'xn--e1afmkfd.xn--p1ai' }],
    ['xn--e1afmkfd.xn--p1ai', { ok: true, host: 'xn--e1afmkfd.xn--p1ai', original: 'xn--e1afmkfd.xn--p1ai' }],
    ['example.xn--p1ai', { ok: true, host: 'example.xn--p1ai', original: 'example.xn--p1ai' }],
    ['shop.xn--55qx5d', { ok: true, host: 'shop.xn--55qx5d', original: 'shop.xn--55qx5d' }],
    ['例子.公司', { ok: true, host: 'xn--fsqu00a.xn--55qx5d', original: 'xn--fsqu00a.xn--55qx5d' }],
    ['faß.de', { ok: true, host: 'xn--fa-hia.de', original: 'xn--fa-hia.de' }],
    ['ＥＸＡＭＰＬＥ．ＣＯＭ', { ok: true, host: 'example.com', original: 'example.com' }],
    [
      'www.пример.рф',
      {
        ok: true,
        host: 'xn--e1afmkfd.xn--p1ai',
        original: 'www.xn--e1afmkfd.xn--p1ai',
        notice: converted('www.xn--e1afmkfd.xn--p1ai', 'xn--e1afmkfd.xn--p1ai'),
      },
    ],
    // What a person pastes: a trailing dot, a port, a path, a query or a fragment.
    ['example.com.', { ok: true, host: 'example.com', original: 'example.com' }],
    ['example.com:8080', { ok: true, host: 'example.com', original: 'example.com' }],
    ['https://Example.com:443/a/b?c=d#e', { ok: true, host: 'example.com', original: 'example.com' }],
    ['example.com?ref=x', { ok: true, host: 'example.com', original: 'example.com' }],
    ['https://https://example.com/', { ok: true, host: 'example.com', original: 'example.com' }],
    ['https://example.com/new arrivals?q=red shoes', { ok: true, host: 'example.com', original: 'example.com' }],
    ['HTTP:\\\\example.com\\shop', { ok: true, host: 'example.com', original: 'example.com' }],
    [
      'https://www.example.com.:8443/',
      {
        ok: true,
        host: 'example.com',
        original: 'www.example.com',
        notice: converted('www.example.com', 'example.com'),
      },
    ],
    // Nothing in the field: the edit panel's message for "no domain".
    ['', { ok: false, error: 'Please enter at least one domain' }],
    ['   ', { ok: false, error: 'Please enter at least one domain' }],
    // Text with no host in it: the message shows what was typed rather than an empty '()'.
    ['https://', { ok: false, error: invalid('https://') }],
    ['///', { ok: false, error: invalid('///') }],
    // A suffix that is not a real public suffix (special-use, reserved or unknown names).
    ['intranet.local', { ok: false, error: invalid('intranet.local') }],
    ['x.invalid', { ok: false, error: invalid('x.invalid') }],
    ['test.test', { ok: false, error: invalid('test.test') }],
    ['foo.localhost', { ok: false, error: invalid('foo.localhost') }],
    ['https://intranet.local:8080/admin', { ok: false, error: invalid('intranet.local') }],
    ['shop.example', { ok: false, error: invalid('shop.example') }],
    ['nas.internal', { ok: false, error: invalid('nas.internal') }],
    ['router.lan', { ok: false, error: invalid('router.lan') }],
    ['printer.home.arpa', { ok: false, error: invalid('printer.home.arpa') }],
    ['1.0.0.127.in-addr.arpa', { ok: false, error: invalid('1.0.0.127.in-addr.arpa') }],
    ['shop.onion', { ok: false, error: invalid('shop.onion') }],
    ['例え.テスト', { ok: false, error: invalid('例え.テスト') }],
    ['пример.local', { ok: false, error: invalid('пример.local') }],
    // Broken hosts.
    ['localhost', { ok: false, error: invalid('localhost') }],
    ['example', { ok: false, error: invalid('example') }],
    ['example.c', { ok: false, error: invalid('example.c') }],
    ['example.c0m', { ok: false, error: invalid('example.c0m') }],
    ['example.123', { ok: false, error: invalid('example.123') }],
    ['192.168.1.10', { ok: false, error: invalid('192.168.1.10') }],
    ['0x7f.1', { ok: false, error: invalid('0x7f.1') }],
    ['http://[::1]/', { ok: false, error: invalid('[::1]') }],
    ['foo..com', { ok: false, error: invalid('foo..com') }],
    ['.example.com', { ok: false, error: invalid('.example.com') }],
    ['example.com..', { ok: false, error: invalid('example.com.') }],
    ['-foo.com', { ok: false, error: invalid('-foo.com') }],
    ['foo-.com', { ok: false, error: invalid('foo-.com') }],
    ['shop_1.example.com', { ok: false, error: invalid('shop_1.example.com') }],
    ['my shop.com', { ok: false, error: invalid('my shop.com') }],
    ['exam\tple.com', { ok: false, error: invalid('exam\tple.com') }],
    ['user@example.com', { ok: false, error: invalid('user@example.com') }],
    ['https://example.com@evil.com/', { ok: false, error: invalid('example.com@evil.com') }],
    ['example.com:99999', { ok: false, error: invalid('example.com:99999') }],
    ['ftp://example.com/x', { ok: false, error: invalid('ftp://example.com') }],
    ['xn--a.com', { ok: false, error: invalid('xn--a.com') }],
    ['a\u200db.com', { ok: false, error: invalid('a\u200db.com') }],
    [`${'a'.repeat(64)}.com`, { ok: false, error: invalid(`${'a'.repeat(64)}.com`) }],
    // 254 characters: one more than DNS allows (253 is accepted, below).
    [`${'a.'.repeat(124)}ab.com`, { ok: false, error: invalid(`${'a.'.repeat(124)}ab.com`) }],
    [
      `${'a.'.repeat(124)}a.com`,
      {
        ok: true,
        host: 'a.com',
        original: `${'a.'.repeat(124)}a.com`,
        notice: converted(`${'a.'.repeat(124)}a.com`, 'a.com'),
      },
    ],
    ['co.uk', { ok: false, error: invalid('co.uk') }],
    ['github.io', { ok: false, error: invalid('github.io') }],
    ['xn--p1ai', { ok: false, error: invalid('xn--p1ai') }],
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
      'internationalised domains are stored and whitelisted in their ASCII (punycode) form',
      { main_url: 'https://www.münchen.de/', myshopify: 'my-store', secondary_url: 'пример.рф' },
      {
        ok: true,
        main_url: 'https://xn--mnchen-3ya.de',
        myshopify: 'my-store.myshopify.com',
        secondary_url: 'https://xn--e1afmkfd.xn--p1ai',
        notices: [converted('www.xn--mnchen-3ya.de', 'xn--mnchen-3ya.de')],
        whitelist: ['xn--mnchen-3ya.de', 'www.xn--mnchen-3ya.de', 'my-store.myshopify.com', 'xn--e1afmkfd.xn--p1ai'],
      },
    ],
    [
      'pasted URLs with a port, a path and a trailing dot',
      { main_url: 'https://shop.com.:8443/collections?x=1', myshopify: 'https://shop.myshopify.com/admin' },
      {
        ok: true,
        main_url: 'https://shop.com',
        myshopify: 'shop.myshopify.com',
        secondary_url: null,
        notices: [],
        whitelist: ['shop.com', 'shop.myshopify.com'],
      },
    ],
    [
      'a website whose suffix is not a public suffix',
      { main_url: 'intranet.local', myshopify: 'ok-store' },
      { ok: false, error: 'Please enter a valid domain (intranet.local)' },
    ],
    [
      'a website field with no host in it',
      { main_url: 'https://', myshopify: 'ok-store' },
      { ok: false, error: 'Please enter a valid domain (https://)' },
    ],
    [
      'a platform field with no host in it',
      { main_url: 'shop.com', myshopify: 'https://' },
      { ok: false, error: 'Please enter a valid Shopify store domain (https://)' },
    ],
    [
      'a store name with a hyphen at either end',
      { myshopify: '-x-.myshopify.com' },
      { ok: false, error: 'Please enter a valid Shopify store domain (-x-.myshopify.com)' },
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

// fast-check builds its URL and domain generators on first use (seconds on a busy 2-core machine): room, not a limit.
describe('robustness: the server calls these with any string', { timeout: 30_000 }, () => {
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
  it('accepts only ASCII DNS names under a real public suffix, for any Unicode input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.webUrl({ withQueryParameters: true })), (input) => {
        const result = normaliseWebsiteDomain(input);
        if (!result.ok) return;
        for (const host of [result.host, result.original]) {
          expect(host).toMatch(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/);
          expect(host.length).toBeLessThanOrEqual(253);
          expect(normaliseWebsiteDomain(host)).toMatchObject({ ok: true, host: result.host });
        }
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
