import type { webcrypto } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { LICENSE_SIGNATURE_HEADER } from '@keyport/shared/contracts/licenses';
import {
  LICENSE_CACHE_PREFIX,
  LICENSE_CHECK_TIMEOUT_MS,
  LICENSE_NOTICES,
  licenseCheckScript,
  licenseSnippet,
} from './demo-theme-license';

/**
 * The storefront script runs here in a context of its own with just what it uses of a browser: its script tag, the
 * body, localStorage, fetch and timers (fired by the test, so no test waits on a clock).
 */
const JWKS_URL = 'https://portal.example/.well-known/jwks.json';
const VALIDATE_URL = 'https://portal.example/api/licenses/validate';
const KID = 'k1';
/** The portal's answer key (the test's own), and a stranger's for forged answers. */
const [portalKey, strangerKey] = await Promise.all(
  [0, 1].map(
    () => crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']) as Promise<webcrypto.CryptoKeyPair>,
  ),
);
const jwksBody = JSON.stringify({
  keys: [{ ...(await crypto.subtle.exportKey('jwk', portalKey!.publicKey)), kid: KID }],
});

async function signatureOf(body: string, key: webcrypto.CryptoKey = portalKey!.privateKey): Promise<string> {
  const signature = await crypto.subtle.sign({ name: 'Ed25519' }, key, new TextEncoder().encode(body));
  return `kid=${KID},sig=${Buffer.from(signature).toString('base64url')}`;
}

function storefront(options: {
  admin: boolean;
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  /** false: a browser without WebCrypto. */
  webCrypto?: boolean;
}) {
  const attributes: Record<string, string> = {
    'data-portal': 'https://portal.example/',
    'data-token': 'header.payload.sig',
    'data-version': '4.2.0',
    'data-edition': 'PRO',
  };
  if (options.admin) attributes['data-admin'] = '';
  const tag = {
    getAttribute: (name: string) => attributes[name] ?? null,
    hasAttribute: (name: string) => name in attributes,
  };
  const body: { appended: Record<string, unknown>[] } = { appended: [] };
  const storage = new Map<string, string>();
  const timers: (() => void)[] = [];
  const fetchMock = vi.fn((url: string, init: RequestInit) =>
    url === JWKS_URL ? Promise.resolve(new Response(jwksBody, { status: 200 })) : options.fetch(url, init),
  );
  const errors: unknown[] = [];
  const element = () => {
    const attrs: Record<string, string> = {};
    return {
      attrs,
      style: {},
      textContent: '',
      className: '',
      setAttribute: (name: string, value: string) => (attrs[name] = value),
    };
  };
  const context = {
    document: {
      currentScript: tag,
      querySelector: (selector: string) =>
        selector === '[data-keyport-license-notice]' ? (body.appended[0] ?? null) : null,
      createElement: element,
      body: { appendChild: (node: Record<string, unknown>) => body.appended.push(node) },
    },
    location: { hostname: 'Harbor-Goods.myshopify.com' },
    localStorage: {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => storage.set(key, value),
      removeItem: (key: string) => storage.delete(key),
    },
    fetch: fetchMock,
    AbortController,
    setTimeout: (callback: () => void) => timers.push(callback),
    clearTimeout: () => undefined,
    JSON,
    Date,
    String,
    TextEncoder,
    atob,
    ...(options.webCrypto === false ? {} : { crypto }),
  };
  const run = () => {
    try {
      runInNewContext(licenseCheckScript(), context);
    } catch (error) {
      errors.push(error);
    }
  };
  /** The validation calls (the JWKS is fetched too, to verify answers). */
  const validations = () => fetchMock.mock.calls.filter(([url]) => url === VALIDATE_URL);
  return { run, fetchMock, validations, storage, notices: body.appended, timers, errors };
}

const CACHE_KEY = `${LICENSE_CACHE_PREFIX}header.payload.sig@harbor-goods.myshopify.com`;
const inOneDay = () => new Date(Date.now() + 86_400_000).toISOString();

/** The portal's answer, signed with its key (or, `forged`, with another one). */
function answer(body: Record<string, unknown>, status = 200, { forged = false } = {}) {
  return async () => {
    const text = JSON.stringify(body);
    const signature = await signatureOf(text, forged ? strangerKey!.privateKey : portalKey!.privateKey);
    return new Response(text, {
      status,
      headers: { 'content-type': 'application/json', [LICENSE_SIGNATURE_HEADER]: signature },
    });
  };
}

/** Lets the script's promise chains run to their end (WebCrypto works on Node's thread pool: real time passes). */
async function settleAll() {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
}

const VALID = { valid: true, code: 'VALID', tier: 'PRO', domain: 'harbor-goods.myshopify.com' };
const SUPERSEDED = { valid: false, code: 'TOKEN_SUPERSEDED', tier: 'PRO', domain: 'harbor-goods.myshopify.com' };

describe('the license snippet', () => {
  it('renders a deferred script tag with the token, portal, version and edition; the admin flag only in the editor', () => {
    const liquid = licenseSnippet('PRO', '4.2.0');
    expect(liquid).toContain(`{{ 'license-check.js' | asset_url }}`);
    expect(liquid).toContain('data-token="{{ settings.license_token | escape }}"');
    expect(liquid).toContain('data-portal="{{ settings.license_portal_url | escape }}"');
    expect(liquid).toContain('data-version="4.2.0" data-edition="PRO"');
    expect(liquid).toContain('{% if request.design_mode %} data-admin{% endif %}');
  });
});

describe('the license check script', () => {
  it('validates the token for this domain and caches the signed answer with its signature until expires_at', async () => {
    const expires = inOneDay();
    const page = storefront({ admin: true, fetch: answer({ ...VALID, expires_at: expires }) });
    page.run();
    await settleAll();
    expect(page.validations()).toHaveLength(1);
    const [url, init] = page.validations()[0]!;
    expect(url).toBe(VALIDATE_URL);
    expect(init).toMatchObject({ method: 'POST', credentials: 'omit', mode: 'cors' });
    expect(JSON.parse(init.body as string)).toEqual({
      token: 'header.payload.sig',
      domain: 'harbor-goods.myshopify.com',
      theme_version: '4.2.0',
      theme_edition: 'PRO',
    });
    const cached = JSON.parse(page.storage.get(CACHE_KEY)!) as { body: string; signature: string };
    expect(JSON.parse(cached.body)).toEqual({ ...VALID, expires_at: expires });
    expect(cached.signature).toBe(await signatureOf(cached.body));
    expect(page.notices).toEqual([]);

    // The next page view trusts the cached answer and does not call the portal.
    page.run();
    await settleAll();
    expect(page.validations()).toHaveLength(1);
    expect(page.errors).toEqual([]);
  });

  it('asks again once the cached answer has expired', async () => {
    const page = storefront({ admin: true, fetch: answer({ ...VALID, expires_at: inOneDay() }) });
    page.storage.set(
      CACHE_KEY,
      JSON.stringify({ body: JSON.stringify({ ...VALID, expires_at: '2020-01-01T00:00:00Z' }), signature: 'x' }),
    );
    page.run();
    await settleAll();
    expect(page.validations()).toHaveLength(1);
  });

  it('shows the admin a notice naming what is wrong when the answer is not valid', async () => {
    const page = storefront({ admin: true, fetch: answer({ ...SUPERSEDED, expires_at: inOneDay() }) });
    page.run();
    await settleAll();
    expect(page.notices).toHaveLength(1);
    expect(page.notices[0]).toMatchObject({
      textContent: `Theme license: ${LICENSE_NOTICES.TOKEN_SUPERSEDED}`,
      attrs: { role: 'status', 'data-keyport-license-notice': 'TOKEN_SUPERSEDED' },
    });
    // From the cache too, once only per page.
    page.run();
    await settleAll();
    expect(page.notices).toHaveLength(1);
  });

  it('never shows a shopper anything', async () => {
    const page = storefront({ admin: false, fetch: answer({ ...SUPERSEDED, expires_at: inOneDay() }) });
    page.run();
    await settleAll();
    expect(page.validations()).toHaveLength(1);
    expect(page.notices).toEqual([]);
  });

  it.each([
    ['the portal is unreachable', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['the portal answers an error', answer({ error: 'Too many requests', code: 'rate_limited' }, 429)],
    ['the portal answers something else', async () => new Response('<html>proxy</html>', { status: 200 })],
  ])('degrades silently when %s: no error, no notice, nothing cached', async (_case, fetch) => {
    const page = storefront({ admin: true, fetch });
    page.run();
    await settleAll();
    expect(page.errors).toEqual([]);
    expect(page.notices).toEqual([]);
    expect(page.storage.size).toBe(0);
  });

  it('gives up on a slow portal after its timeout', async () => {
    let aborted = false;
    const page = storefront({
      admin: true,
      fetch: (_url, init) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => {
            aborted = true;
            reject(new DOMException('aborted', 'AbortError'));
          });
        }),
    });
    page.run();
    expect(page.timers).toHaveLength(1);
    expect(LICENSE_CHECK_TIMEOUT_MS).toBeLessThanOrEqual(5000);
    page.timers[0]!();
    await settleAll();
    expect(aborted).toBe(true);
    expect(page.errors).toEqual([]);
    expect(page.notices).toEqual([]);
  });

  it('trusts a cached answer only while its signature verifies: one altered in storage is dropped and asked again', async () => {
    const page = storefront({ admin: true, fetch: answer({ ...SUPERSEDED, expires_at: inOneDay() }) });
    page.run();
    await settleAll();
    expect(page.notices).toHaveLength(1);
    // Someone edits the stored answer to hide the notice: it no longer verifies.
    const entry = JSON.parse(page.storage.get(CACHE_KEY)!) as { body: string; signature: string };
    page.storage.set(
      CACHE_KEY,
      JSON.stringify({ ...entry, body: entry.body.replace('"valid":false', '"valid":true') }),
    );
    page.notices.length = 0;
    page.run();
    await settleAll();
    expect(page.validations()).toHaveLength(2);
    expect(page.notices).toHaveLength(1);
    expect(JSON.parse(page.storage.get(CACHE_KEY)!)).toEqual(entry);
    expect(page.errors).toEqual([]);
  });

  it('ignores an answer whose signature is not the portal’s: no notice, nothing kept', async () => {
    const page = storefront({
      admin: true,
      fetch: answer({ ...SUPERSEDED, expires_at: inOneDay() }, 200, { forged: true }),
    });
    page.run();
    await settleAll();
    expect(page.validations()).toHaveLength(1);
    expect(page.notices).toEqual([]);
    expect(page.storage.size).toBe(0);
    expect(page.errors).toEqual([]);
  });

  it('in a browser that cannot verify (no WebCrypto): shows the answer, keeps nothing, asks again next time', async () => {
    const page = storefront({
      admin: true,
      webCrypto: false,
      fetch: answer({ ...SUPERSEDED, expires_at: inOneDay() }),
    });
    page.run();
    await settleAll();
    expect(page.notices).toHaveLength(1);
    expect(page.storage.size).toBe(0);
    page.run();
    await settleAll();
    expect(page.validations()).toHaveLength(2);
    expect(page.errors).toEqual([]);
  });

  it('asks again when the cached entry cannot be read', async () => {
    const page = storefront({ admin: true, fetch: answer({ ...VALID, expires_at: inOneDay() }) });
    page.storage.set(CACHE_KEY, '{not json');
    page.run();
    await settleAll();
    expect(page.errors).toEqual([]);
    expect(page.validations()).toHaveLength(1); // an unreadable cache entry is asked again
  });
});
