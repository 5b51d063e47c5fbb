import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createThemeTokenSigner } from '../src/modules/connect/theme-token';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

let t: TestApp;
let owner: { token: string; id: number };
let stranger: { token: string; id: number };
let apiKey: string;

async function mintAndClaim(userToken: string) {
  const staff = await signUp(t, `staff-${Math.random()}@example.com`, { role: 'staff' });
  const minted = await t.app.inject({
    method: 'POST',
    url: '/staff/keys',
    headers: auth(staff.token),
    payload: { tier: 'REGULAR', count: 1, reason: 'test key' },
  });
  const key = minted.json<{ keys: string[] }>().keys[0]!;
  const claimed = await t.app.inject({ method: 'POST', url: '/keys/', headers: auth(userToken), payload: { key } });
  expect(claimed.statusCode).toBe(201);
  return key;
}

const save = (token: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: '/keys/', headers: auth(token), payload });

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUp(t, 'owner@example.com');
  stranger = await signUp(t, 'stranger@example.com');
  apiKey = await mintAndClaim(owner.token);
});

describe('PUT /keys/: save domains and generate the token', () => {
  it('saves normalised domains and returns an EdDSA token that verifies against the JWKS', async () => {
    const response = await save(owner.token, {
      key: apiKey,
      main_url: 'HTTPS://Shop.Example.co.uk/',
      myshopify: 'My-Store',
      secondary_url: 'second-brand.com',
    });
    expect(response.statusCode).toBe(200);
    const { error, tokentheme } = response.json<{ error: null; tokentheme: string }>();
    expect(error).toBeNull();

    const jwks = (await t.app.inject({ url: '/.well-known/jwks.json' })).json();
    expect(jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
    const { payload } = await jwtVerify(tokentheme, createLocalJWKSet(jwks), { issuer: 'keyport' });
    expect(decodeProtectedHeader(tokentheme)).toMatchObject({ alg: 'EdDSA', kid: jwks.keys[0].kid });
    expect(payload).toMatchObject({ tier: 'REGULAR', ver: 1 });
    // ADR 030: the subject is the key's opaque public id, never the license key; `nbf` is when it was issued.
    expect(payload.sub).not.toBe(apiKey);
    expect(payload.sub).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(payload.nbf).toBe(payload.iat);
    expect(payload).not.toHaveProperty('exp');
    expect(payload.kid).toBeTypeOf('number');
    expect(payload.domains).toEqual(
      expect.arrayContaining(['example.co.uk', 'shop.example.co.uk', 'my-store.myshopify.com', 'second-brand.com']),
    );
    expect(Math.abs(Number(payload.iat) - Date.now() / 1000)).toBeLessThan(60);

    const keys = (await t.app.inject({ url: '/keys/', headers: auth(owner.token) })).json();
    expect(keys[0]).toMatchObject({
      main_url: 'https://example.co.uk',
      myshopify: 'my-store.myshopify.com',
      secondary_url: 'https://second-brand.com',
    });
    const stores = (await t.app.inject({ url: '/auth/user-stores', headers: auth(owner.token) })).json();
    expect(stores.stores.map((s: { myshopify_domain: string }) => s.myshopify_domain)).toContain(
      'my-store.myshopify.com',
    );
  });

  it('bumps the version on every new token; only the newest verifies as current', async () => {
    const first = (await save(owner.token, { key: apiKey, myshopify: 'my-store.myshopify.com' })).json().tokentheme;
    const second = (await save(owner.token, { key: apiKey, myshopify: 'my-store.myshopify.com' })).json().tokentheme;
    expect(first).not.toBe(second);
    const verify = t.app.services.themeTokens.verify;
    expect(await verify(first)).toBeNull();
    const claims = await verify(second);
    expect(claims?.ver).toBeGreaterThan(1);
    // Flip a character inside the signature (the last base64url character carries padding bits: changing it may
    // decode to the very same signature).
    const [head, payload, signature] = second.split('.') as [string, string, string];
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    expect(await verify(`${head}.${payload}.${flipped}`)).toBeNull();
    expect(await verify('not.a.token')).toBeNull();
  });

  it('shows the current token again to its owner only', async () => {
    const current = (await save(owner.token, { key: apiKey, myshopify: 'my-store.myshopify.com' })).json().tokentheme;
    const mine = await t.app.inject({
      method: 'POST',
      url: '/keys/token',
      headers: auth(owner.token),
      payload: { key: apiKey },
    });
    expect(mine.json()).toEqual({ tokentheme: current });
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/keys/token',
      headers: auth(stranger.token),
      payload: { key: apiKey },
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).not.toContain(current);
  });

  it("refuses someone else's key and leaves it unchanged", async () => {
    const before = (await t.app.inject({ url: '/keys/', headers: auth(owner.token) })).json()[0];
    const response = await save(stranger.token, { key: apiKey, main_url: 'evil.com' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'License key not found.' });
    expect((await t.app.inject({ url: '/keys/', headers: auth(owner.token) })).json()[0]).toEqual(before);
  });

  it.each([
    [{ main_url: '', myshopify: '', secondary_url: '' }, 'Please enter at least one domain'],
    [{ main_url: 'not a domain' }, 'Please enter a valid domain (not a domain)'],
    [{ main_url: '127.0.0.1' }, 'Please enter a valid domain (127.0.0.1)'],
    [{ myshopify: 'bad_name' }, 'Please enter a valid Shopify store domain (bad_name.myshopify.com)'],
    [{ main_url: 'ok.com', secondary_url: 'nope' }, 'Please enter a valid domain (nope)'],
  ])('validates on the server with the shared rules: %o', async (domains, message) => {
    const response = await save(owner.token, { key: apiKey, ...domains });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: message });
  });

  it('disconnecting the key kills its token', async () => {
    const key = await mintAndClaim(owner.token);
    const token = (await save(owner.token, { key, main_url: 'gone.com' })).json().tokentheme;
    expect(await t.app.services.themeTokens.verify(token)).not.toBeNull();
    await t.app.inject({ method: 'POST', url: '/keys/delete', headers: auth(owner.token), payload: { apiKey: key } });
    expect(await t.app.services.themeTokens.verify(token)).toBeNull();
  });
});

describe('the signing key', () => {
  it('is generated once in the data directory and reused', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyport-signer-'));
    try {
      const a = await createThemeTokenSigner({ privateJwk: null, dataDir: dir });
      const b = await createThemeTokenSigner({ privateJwk: null, dataDir: dir });
      expect(a.jwks().keys[0]!.kid).toBe(b.jwks().keys[0]!.kid);
      expect(fs.statSync(path.join(dir, 'token-signing-key.json')).mode & 0o777).toBe(0o600);
      const token = await a.sign({ sub: 'K', kid: 1, tier: 'PRO', domains: ['x.com'], ver: 1 }, new Date());
      expect(await b.verifySignature(token)).toMatchObject({ sub: 'K', tier: 'PRO' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects a TOKEN_SIGNING_KEY that is not an Ed25519 private JWK', async () => {
    await expect(createThemeTokenSigner({ privateJwk: '{"kty":"RSA"}', dataDir: os.tmpdir() })).rejects.toThrow(
      /Ed25519/,
    );
  });
});
