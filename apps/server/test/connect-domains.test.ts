import { stripStoredUrl } from '@keyport/shared/domain/website-domain';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../src/db/seed';
import { DEMO_ACCOUNTS, DEMO_CUSTOMER_KEYS, TEAM_KEYS } from '../src/db/seed-data';
import { auth, createTestApp, type TestApp } from './helpers/test-app';

/**
 * §5 on the server: PUT /keys/ re-validates the domains with the shared rules (ADR 008). Internationalised domains
 * are stored and whitelisted in their ASCII (punycode) form; hosts outside the real public suffixes are refused
 * with the spec's message; no input makes it answer 500 or change the key.
 */

let t: TestApp;
let demo: string;
let team: string;
/** A demo key that is not connected yet, to save domains on. */
const SPARE = DEMO_CUSTOMER_KEYS.find((key) => !key.mainUrl && !key.myshopify && !key.linkedAppStore)!.apiKey;

const login = async (email: string, password: string): Promise<string> =>
  (await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } })).json<{ token: string }>()
    .token;

const save = (token: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: '/keys/', headers: auth(token), payload });

type KeyRow = { api_key: string; main_url: string | null; myshopify: string | null; secondary_url: string | null };
const keyRow = async (token: string, apiKey: string): Promise<KeyRow> =>
  (await t.app.inject({ url: '/keys/', headers: auth(token) })).json<KeyRow[]>().find((k) => k.api_key === apiKey)!;
const currentToken = async (token: string, apiKey: string): Promise<string | null> =>
  (await t.app.inject({ method: 'POST', url: '/keys/token', headers: auth(token), payload: { key: apiKey } })).json<{
    tokentheme: string | null;
  }>().tokentheme;

async function whitelistOf(tokentheme: string): Promise<string[]> {
  const claims = await t.app.services.themeTokens.verify(tokentheme);
  expect(claims).not.toBeNull();
  return claims!.domains;
}

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
  await seedDemoData(t.app.services, t.app.log);
  demo = await login(DEMO_ACCOUNTS[0].email, DEMO_ACCOUNTS[0].password);
  team = await login(DEMO_ACCOUNTS[1].email, DEMO_ACCOUNTS[1].password);
});

describe('PUT /keys/ with internationalised domains', () => {
  it('stores and whitelists the punycode forms of Unicode domains', async () => {
    const response = await save(demo, {
      key: SPARE,
      main_url: 'https://www.München.de/shop?x=1',
      myshopify: 'ＭＹ－ＳＴＯＲＥ',
      secondary_url: 'пример.рф',
    });
    expect(response.statusCode).toBe(200);
    expect(await keyRow(demo, SPARE)).toMatchObject({
      main_url: 'https://xn--mnchen-3ya.de',
      myshopify: 'my-store.myshopify.com',
      secondary_url: 'https://xn--e1afmkfd.xn--p1ai',
    });
    const whitelist = await whitelistOf(response.json<{ tokentheme: string }>().tokentheme);
    expect(whitelist.sort()).toEqual(
      ['my-store.myshopify.com', 'www.xn--mnchen-3ya.de', 'xn--e1afmkfd.xn--p1ai', 'xn--mnchen-3ya.de'].sort(),
    );
  });

  it.each([
    ['shop.xn--p1ai', 'https://shop.xn--p1ai'],
    ['example.xn--55qx5d', 'https://example.xn--55qx5d'],
    ['例子.公司', 'https://xn--fsqu00a.xn--55qx5d'],
    ['https://Shop.com.:8443/collections/all?page=2#top', 'https://shop.com'],
  ])('accepts %j and stores %j', async (mainUrl, stored) => {
    const response = await save(demo, { key: SPARE, main_url: mainUrl });
    expect(response.statusCode).toBe(200);
    expect((await keyRow(demo, SPARE)).main_url).toBe(stored);
    expect(await whitelistOf(response.json<{ tokentheme: string }>().tokentheme)).toEqual([stored.slice(8)]);
  });

  it('keeps a pasted myshopify admin URL as the bare store domain', async () => {
    const response = await save(demo, { key: SPARE, myshopify: 'https://my-store.myshopify.com/admin/themes' });
    expect(response.statusCode).toBe(200);
    expect((await keyRow(demo, SPARE)).myshopify).toBe('my-store.myshopify.com');
  });
});

describe('PUT /keys/ refuses hosts outside the real public suffixes, and changes nothing', () => {
  it.each<[Record<string, string>, string]>([
    [{ main_url: 'intranet.local' }, 'Please enter a valid domain (intranet.local)'],
    [{ main_url: 'https://intranet.local:8080/admin' }, 'Please enter a valid domain (intranet.local)'],
    [{ main_url: 'x.invalid' }, 'Please enter a valid domain (x.invalid)'],
    [{ main_url: 'test.test' }, 'Please enter a valid domain (test.test)'],
    [{ main_url: 'foo.localhost' }, 'Please enter a valid domain (foo.localhost)'],
    [{ main_url: 'пример.local' }, 'Please enter a valid domain (пример.local)'],
    [{ main_url: 'shop.com', secondary_url: 'shop.onion' }, 'Please enter a valid domain (shop.onion)'],
    [{ main_url: 'https://' }, 'Please enter a valid domain (https://)'],
    [{ myshopify: '-x-' }, 'Please enter a valid Shopify store domain (-x-.myshopify.com)'],
    [{ myshopify: '-x-.myshopify.com' }, 'Please enter a valid Shopify store domain (-x-.myshopify.com)'],
  ])('%o → 400 %j', async (domains, message) => {
    const before = { row: await keyRow(demo, SPARE), token: await currentToken(demo, SPARE) };
    const response = await save(demo, { key: SPARE, ...domains });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: message });
    expect({ row: await keyRow(demo, SPARE), token: await currentToken(demo, SPARE) }).toEqual(before);
  });
});

describe('PUT /keys/ never answers 500 to a domain', () => {
  const nasty = [
    'a\u0000b.com',
    '\u0000',
    '%00.com',
    'exa%6dple.com',
    '\ud800.com',
    'x\udfff',
    '😀'.repeat(120),
    `${'ü'.repeat(60)}.de`,
    `${'a.'.repeat(127)}com`,
    'xn--',
    'xn--.com',
    'xn--a.com',
    '[::1]',
    'http://[::1]:80/',
    '0x7f.1',
    '1e3.com',
    'javascript:alert(1)',
    'ftp://example.com',
    'https://user:pass@example.com',
    '\\\\example.com',
    'https:\\\\example.com',
    '.',
    '..',
    ':',
    '@',
    '?',
    '#',
    'None',
  ];

  it.each(nasty)('%j in every field', async (value) => {
    for (const field of ['main_url', 'myshopify', 'secondary_url']) {
      const response = await save(demo, { key: SPARE, [field]: value });
      expect([200, 400]).toContain(response.statusCode);
      expect(response.json()).toEqual(
        response.statusCode === 200 ? { error: null, tokentheme: expect.any(String) } : expect.any(Object),
      );
    }
  });

  it('random Unicode strings and URLs', async () => {
    const field = fc.option(fc.oneof(fc.string({ unit: 'binary', maxLength: 80 }), fc.webUrl()), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(field, field, field, async (main_url, myshopify, secondary_url) => {
        const response = await save(demo, { key: SPARE, main_url, myshopify, secondary_url });
        expect([200, 400]).toContain(response.statusCode);
        if (response.statusCode !== 200) return;
        const whitelist = await whitelistOf(response.json<{ tokentheme: string }>().tokentheme);
        for (const host of whitelist) expect(host).toMatch(/^[a-z0-9.-]+$/);
      }),
      { numRuns: 60 },
    );
  });
});

describe('the seeded demo domains still save unchanged', () => {
  const connected = [
    ...DEMO_CUSTOMER_KEYS.map((key) => ({ ...key, owner: 'demo' as const })),
    ...TEAM_KEYS.map((key) => ({ ...key, owner: 'team' as const })),
  ].filter((key) => key.mainUrl || key.myshopify || key.secondaryUrl);

  it('covers every seeded key with domains', () => {
    expect(connected.length).toBeGreaterThanOrEqual(6);
  });

  it.each(connected.map((key) => [key.apiKey, key] as const))(
    '%s: saving the domains the edit panel shows keeps them as they are',
    async (_apiKey, key) => {
      const token = key.owner === 'demo' ? demo : team;
      const before = await keyRow(token, key.apiKey);
      // The edit panel opens with the stored values stripped of 'https://' and 'None'.
      const response = await save(token, {
        key: key.apiKey,
        main_url: stripStoredUrl(before.main_url),
        myshopify: stripStoredUrl(before.myshopify),
        secondary_url: stripStoredUrl(before.secondary_url),
      });
      expect(response.statusCode).toBe(200);
      const after = await keyRow(token, key.apiKey);
      expect(after.main_url).toBe(before.main_url);
      expect(after.myshopify).toBe(before.myshopify);
      expect(after.secondary_url ?? 'None').toBe(before.secondary_url ?? 'None');
    },
  );
});
