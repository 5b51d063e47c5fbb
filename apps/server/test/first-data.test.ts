import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FIRST_DATA_COOKIE,
  FIRST_DATA_ELEMENT_ID,
  jsonForScriptElement,
  readFirstDataCookie,
} from '../src/http/first-data';
import { createTestApp, signUp, auth, type TestApp } from './helpers/test-app';
import { ownedKey } from './helpers/keys';

// Issue 22 (ADR 045): the dashboard's HTML carries a signed-in person's first data; nobody else's page does.
const INDEX_HTML =
  `<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>Keyport</title>` +
  `<script type="module" crossorigin src="/assets/index-Ab12_cD-.js"></script></head>` +
  `<body><div id="root"></div></body></html>`;

let dist: string;
let t: TestApp;

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'keyport-first-data-'));
  await writeFile(path.join(dist, 'index.html'), INDEX_HTML);
  t = await createTestApp({ WEB_DIST_DIR: dist });
});
afterAll(() => rm(dist, { recursive: true, force: true }));

const dashboard = (headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: '/customer/my-keys', headers: { accept: 'text/html', ...headers } });

/** The JSON the page carries, read back as the browser does (the element's text through JSON.parse). */
function inlined(html: string): Record<string, unknown> | null {
  const match = new RegExp(`<script type="application/json" id="${FIRST_DATA_ELEMENT_ID}">([^<]*)</script>`).exec(html);
  return match ? (JSON.parse(match[1]!) as Record<string, unknown>) : null;
}

describe('the dashboard page with its first data', () => {
  it("carries a signed-in person's own answers, exactly as the API gives them, and is never stored by a cache", async () => {
    const { token, id } = await signUp(t, 'first-data@example.com');
    const apiKey = await ownedKey(t, id, 'PRO');
    const response = await dashboard({ cookie: `theme=dark; ${FIRST_DATA_COOKIE}=${token}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(String(response.headers.vary).toLowerCase()).toContain('cookie');
    const data = inlined(response.body);
    expect(data).not.toBeNull();
    const api = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: auth(token) })).json();
    expect(data!.me).toEqual(await api('/auth/me'));
    expect(data!.keys).toEqual(await api('/keys/'));
    expect((data!.keys as { api_key: string }[]).map((key) => key.api_key)).toEqual([apiKey]);
    expect(data!.keysHealth).toEqual(await api('/keys/health'));
    expect(data!.homepage).toEqual(await api('/staff/homepage-settings?preview=false'));
    expect(data!.config).toEqual(await api('/config'));
    // Placed in the head, ahead of the app's script; the rest of the shell unchanged.
    expect(response.body.indexOf(FIRST_DATA_ELEMENT_ID)).toBeLessThan(response.body.indexOf('</head>'));
    expect(response.body.endsWith('<body><div id="root"></div></body></html>')).toBe(true);
  });

  it('is compressed as the browser accepts', async () => {
    const { token } = await signUp(t, 'first-data-br@example.com');
    const response = await dashboard({ cookie: `${FIRST_DATA_COOKIE}=${token}`, 'accept-encoding': 'gzip, br' });
    expect(response.headers['content-encoding']).toBe('br');
    const html = zlib.brotliDecompressSync(response.rawPayload).toString('utf8');
    expect(inlined(html)?.me).toMatchObject({ email: 'first-data-br@example.com' });
  });

  it('carries nothing for a visitor without a session, with an unknown or a signed-out one', async () => {
    const { token } = await signUp(t, 'first-data-out@example.com');
    const logout = await t.app.inject({ method: 'POST', url: '/auth/logout', headers: auth(token) });
    expect(logout.statusCode).toBeLessThan(300);
    for (const cookie of [
      undefined,
      `${FIRST_DATA_COOKIE}=${'x'.repeat(40)}`,
      `${FIRST_DATA_COOKIE}=${token}`,
      `${FIRST_DATA_COOKIE}=<script>`,
    ]) {
      const response = await dashboard(cookie ? { cookie } : {});
      expect(response.statusCode, cookie).toBe(200);
      expect(response.body, cookie).toBe(INDEX_HTML);
      expect(response.body).not.toContain(FIRST_DATA_ELEMENT_ID);
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('is the plain shell when the data cannot be had (the session look-up fails)', async () => {
    const { token } = await signUp(t, 'first-data-down@example.com');
    const auth = t.app.services.auth;
    const resolveSession = auth.resolveSession;
    auth.resolveSession = () => Promise.reject(new Error('database unavailable'));
    try {
      const response = await dashboard({ cookie: `${FIRST_DATA_COOKIE}=${token}` });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(INDEX_HTML);
    } finally {
      auth.resolveSession = resolveSession;
    }
  });

  it("cannot be broken out of: a name holding '</script>' stays inside the JSON", async () => {
    const { token } = await signUp(t, 'first-data-xss@example.com');
    const name = '</script><script>alert(1)</script><!--';
    const update = await t.app.inject({
      method: 'PUT',
      url: '/auth/me',
      headers: auth(token),
      payload: { name },
    });
    expect(update.statusCode).toBe(200);
    const response = await dashboard({ cookie: `${FIRST_DATA_COOKIE}=${token}` });
    expect(response.body).not.toContain('<script>alert(1)');
    expect(response.body.match(/<\/script>/g)).toHaveLength(2); // the data's and the app's own
    expect(inlined(response.body)?.me).toMatchObject({ name });
  });
});

describe('the pieces', () => {
  it('escapes what could end or confuse a script element, and JSON.parse gives the value back', () => {
    const value = { a: '</script><!-- & > \u2028\u2029', b: [1, null, true] };
    const text = jsonForScriptElement(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('reads the session cookie among others and refuses a value that is no token', () => {
    const token = 'abcdefghijklmnop_QRST-1234';
    expect(readFirstDataCookie(`a=1; ${FIRST_DATA_COOKIE}=${token}; b=2`)).toBe(token);
    expect(readFirstDataCookie(`x${FIRST_DATA_COOKIE}=${token}`)).toBeNull();
    expect(readFirstDataCookie(`${FIRST_DATA_COOKIE}=short`)).toBeNull();
    expect(readFirstDataCookie(`${FIRST_DATA_COOKIE}="${token}"`)).toBeNull();
    expect(readFirstDataCookie(undefined)).toBeNull();
  });
});
