import { createPublicKey, verify as verifySignature, type JsonWebKey } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { decodeJwt, exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StaffStoreReport } from '@keyport/shared/contracts/credits';
import type { KeyHealth, LicenseSighting, LicenseValidation } from '@keyport/shared/contracts/licenses';
import { REPORT_ROW_REASONS } from '@keyport/shared/domain/store-report';
import { licenseCheckins } from '../src/db/schema';
import { createThemeTokenSigner } from '../src/modules/connect/theme-token';
import { claimNewKey, makeThemeZip, uploadRelease } from './helpers/releases';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

/** Issue 13: the validation API (ADR 031), token discipline (ADR 030), check-ins, key health and sightings. */
let t: TestApp;
let privateJwk: Awaited<ReturnType<typeof exportJWK>>;
let workDir = '';
let owner: { token: string; id: number };
let stranger: { token: string; id: number };
let staff: { token: string; id: number };
let key: { apiKey: string; id: number };
let token = '';
let people = 0;

const newUser = () => signUp(t, `licenses-${++people}@example.com`, { ip: `10.77.0.${people}` });

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'keyport-licenses-'));
  const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  privateJwk = await exportJWK(privateKey);
  // The flusher's timer never fires during the file: each test flushes when it means to.
  t = await createTestApp({
    TOKEN_SIGNING_KEY: JSON.stringify(privateJwk),
    CHECKIN_FLUSH_SECONDS: '3600',
    DATA_DIR: workDir,
  });
  owner = await newUser();
  stranger = await newUser();
  staff = await signUp(t, 'licenses-staff@example.com', { role: 'staff', ip: '10.77.1.1' });
  key = await claimNewKey(t, owner.token, 'REGULAR');
  token = await connect(owner.token, key.apiKey, { main_url: 'acme-outfitters.com', myshopify: 'acme-outfitters' });
});
afterAll(() => rm(workDir, { recursive: true, force: true }));

async function connect(userToken: string, apiKey: string, domains: Record<string, string>): Promise<string> {
  const response = await t.app.inject({
    method: 'PUT',
    url: '/keys/',
    headers: auth(userToken),
    payload: { key: apiKey, ...domains },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ tokentheme: string }>().tokentheme;
}

const validate = (body: Partial<Record<'token' | 'domain' | 'theme_version' | 'theme_edition', string>>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/licenses/validate',
    headers: { origin: 'https://acme-outfitters.com' },
    payload: { token, domain: 'acme-outfitters.com', theme_version: '4.2.0', theme_edition: 'REGULAR', ...body },
  });

async function codeOf(body: Parameters<typeof validate>[0]): Promise<LicenseValidation> {
  const response = await validate(body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<LicenseValidation>();
}

async function jwk(): Promise<{ kid: string } & JsonWebKey> {
  const response = await t.app.inject({ url: '/.well-known/jwks.json' });
  return response.json<{ keys: ({ kid: string } & JsonWebKey)[] }>().keys[0]!;
}

/** A token signed with the portal's key in any shape (what an old portal issued, or a test's variation). */
async function signWithPortalKey(claims: Record<string, unknown>, header: Record<string, unknown> = {}) {
  const signingKey = await importJWK(privateJwk, 'EdDSA');
  return new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', typ: 'JWT', ...header }).sign(signingKey);
}

describe('POST /api/licenses/validate: codes', () => {
  it('VALID for the whitelisted domains and their subdomains, with the key tier and a 6-hour answer', async () => {
    const response = await validate({});
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<LicenseValidation>();
    expect(answer).toMatchObject({ valid: true, code: 'VALID', tier: 'REGULAR', domain: 'acme-outfitters.com' });
    const ttl = (Date.parse(answer.expires_at) - Date.now()) / 1000;
    expect(ttl).toBeGreaterThan(6 * 3600 - 600);
    expect(ttl).toBeLessThanOrEqual(6 * 3600);
    expect(response.headers['cache-control']).toBe('private, max-age=21600');
    expect(await codeOf({ domain: 'https://WWW.Acme-Outfitters.com/collections' })).toMatchObject({
      code: 'VALID',
      domain: 'www.acme-outfitters.com',
    });
    expect((await codeOf({ domain: 'acme-outfitters.myshopify.com' })).code).toBe('VALID');
    // A lower edition than the key's tier is fine (an upgraded key's store keeps running until it updates).
    expect((await codeOf({ theme_edition: 'lite' })).code).toBe('VALID');
  });

  it('DOMAIN_MISMATCH on a domain the token does not whitelist, or on no domain at all', async () => {
    for (const domain of ['pirate-copy.com', 'other.myshopify.com', 'acme-outfitters.com.evil.io', 'localhost']) {
      const answer = await codeOf({ domain });
      expect(answer, domain).toMatchObject({ valid: false, code: 'DOMAIN_MISMATCH', tier: 'REGULAR' });
    }
    const response = await validate({ domain: 'pirate-copy.com' });
    expect(response.headers['cache-control']).toBe('private, max-age=900');
  });

  it('EDITION_MISMATCH when the theme is of a higher edition than the key, or of none', async () => {
    expect(await codeOf({ theme_edition: 'PRO' })).toMatchObject({ valid: false, code: 'EDITION_MISMATCH' });
    expect((await codeOf({ theme_edition: 'GOLD' })).code).toBe('EDITION_MISMATCH');
  });

  it('MALFORMED for anything unreadable, forged or altered: never valid, no tier', async () => {
    const forger = await createThemeTokenSigner({ privateJwk: null, dataDir: path.join(workDir, 'forger') });
    const claims = decodeJwt(token);
    const forged = await forger.sign(
      { sub: String(claims.sub), kid: Number(claims.kid), tier: 'PRO', domains: ['pirate-copy.com'], ver: 1 },
      new Date(),
    );
    const [header, payload, signature] = token.split('.');
    const altered = `${header}.${Buffer.from(
      JSON.stringify({ ...claims, domains: ['pirate-copy.com'], tier: 'PRO' }),
    ).toString('base64url')}.${signature}`;
    const unsigned = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256' }).sign(new Uint8Array(32));
    const noneAlg = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
    for (const bad of ['', 'not-a-token', 'a.b.c', forged, altered, unsigned, noneAlg, `${token}x`]) {
      const answer = await codeOf({ token: bad, domain: 'pirate-copy.com', theme_edition: 'PRO' });
      expect(answer, bad).toEqual({
        valid: false,
        code: 'MALFORMED',
        tier: null,
        expires_at: answer.expires_at,
        domain: 'pirate-copy.com',
      });
    }
  });

  it('MALFORMED for a token whose nbf is in the future beyond the clock tolerance', async () => {
    const claims = decodeJwt(token);
    const later = Math.floor(Date.now() / 1000) + 3600;
    const early = await signWithPortalKey({ ...claims, iat: later, nbf: later });
    expect((await codeOf({ token: early })).code).toBe('MALFORMED');
    const slightlyAhead = Math.floor(Date.now() / 1000) + 20;
    expect(
      (await codeOf({ token: await signWithPortalKey({ ...claims, iat: slightlyAhead, nbf: slightlyAhead }) })).code,
    ).toBe('VALID');
  });

  it('a 400 only for a body that is not the contract shape', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/licenses/validate',
      payload: { domain: 'acme-outfitters.com' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toHaveProperty('code');
  });
});

describe('tokens: superseded, released, and the old format (ADR 030)', () => {
  it('TOKEN_SUPERSEDED the moment the key gets a new token; the new one is VALID', async () => {
    const user = await newUser();
    const own = await claimNewKey(t, user.token, 'PRO');
    const first = await connect(user.token, own.apiKey, { main_url: 'brightside-goods.com' });
    const body = { token: first, domain: 'brightside-goods.com', theme_edition: 'PRO' };
    expect((await codeOf(body)).code).toBe('VALID');
    // Within one 60 s window the same answer is the same signed bytes (ADR 031, Performance): signed once, reused.
    const [a, b] = [await validate(body), await validate(body)];
    const sameWindow = a.json<LicenseValidation>().expires_at === b.json<LicenseValidation>().expires_at;
    expect(a.body === b.body).toBe(sameWindow);
    expect(a.headers['x-keyport-signature'] === b.headers['x-keyport-signature']).toBe(sameWindow);
    // The token was verified and its answer cached: a new token still supersedes it on the very next call.
    const second = await connect(user.token, own.apiKey, { main_url: 'brightside-goods.com' });
    expect(await codeOf(body)).toMatchObject({ valid: false, code: 'TOKEN_SUPERSEDED', tier: 'PRO' });
    expect((await codeOf({ ...body, token: second })).code).toBe('VALID');
  });

  it('KEY_RELEASED once the key is disconnected from its account', async () => {
    const user = await newUser();
    const own = await claimNewKey(t, user.token, 'LITE');
    const live = await connect(user.token, own.apiKey, { main_url: 'quiet-harbor.com' });
    const body = { token: live, domain: 'quiet-harbor.com', theme_edition: 'LITE' };
    expect((await codeOf(body)).code).toBe('VALID');
    const released = await t.app.inject({
      method: 'POST',
      url: '/keys/delete',
      headers: auth(user.token),
      payload: { apiKey: own.apiKey },
    });
    expect(released.statusCode, released.body).toBe(200);
    expect(await codeOf(body)).toMatchObject({ valid: false, code: 'KEY_RELEASED' });
  });

  it('a token of the old format (the license key as subject, no nbf) validates until the key gets a new token', async () => {
    const user = await newUser();
    const own = await claimNewKey(t, user.token, 'REGULAR');
    const current = decodeJwt(await connect(user.token, own.apiKey, { main_url: 'old-timer-shop.com' }));
    const old = await signWithPortalKey(
      {
        kid: own.id,
        tier: 'REGULAR',
        domains: ['old-timer-shop.com'],
        ver: current.ver,
        iss: 'keyport',
        sub: own.apiKey,
        iat: 1_700_000_000,
      },
      { kid: (await jwk()).kid },
    );
    expect(decodeJwt(old)).not.toHaveProperty('nbf');
    const body = { token: old, domain: 'old-timer-shop.com' };
    expect((await codeOf(body)).code).toBe('VALID');
    expect(await t.app.services.themeTokens.verify(old)).not.toBeNull();
    await connect(user.token, own.apiKey, { main_url: 'old-timer-shop.com' });
    expect((await codeOf(body)).code).toBe('TOKEN_SUPERSEDED');
  });
});

describe('signed answers and CORS', () => {
  it('signs the exact body bytes with the JWKS key (verified with node:crypto, not jose)', async () => {
    const key = await jwk();
    for (const body of [{}, { domain: 'pirate-copy.com' }, { token: 'garbage' }]) {
      const response = await validate(body);
      const header = String(response.headers['x-keyport-signature']);
      const match = /^kid=([^,]+),sig=([A-Za-z0-9_-]+)$/.exec(header);
      expect(match, header).not.toBeNull();
      expect(match![1]).toBe(key.kid);
      const publicKey = createPublicKey({ key, format: 'jwk' });
      const signature = Buffer.from(match![2]!, 'base64url');
      expect(verifySignature(null, response.rawPayload, publicKey, signature)).toBe(true);
      // One changed byte and the signature no longer holds.
      const altered = Buffer.from(
        response.body.replace(/"valid":(true|false)/, (_m, v) => `"valid":${v === 'true' ? 'false' : 'true'}`),
      );
      expect(verifySignature(null, altered, publicKey, signature)).toBe(false);
    }
  });

  it('issue 22: a token already verified and cached still refuses its tampered copies; a reused answer still verifies', async () => {
    const key = await jwk();
    const publicKey = createPublicKey({ key, format: 'jwk' });
    const body = { token, domain: 'acme-outfitters.com', theme_edition: 'REGULAR' };
    const first = await validate(body);
    const second = await validate(body); // the verification and, within the window, the signed answer are reused
    for (const response of [first, second]) {
      expect(response.json<LicenseValidation>().code).toBe('VALID');
      const signature = Buffer.from(
        /sig=([A-Za-z0-9_-]+)$/.exec(String(response.headers['x-keyport-signature']))![1]!,
        'base64url',
      );
      expect(verifySignature(null, response.rawPayload, publicKey, signature)).toBe(true);
    }
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flip = (text: string, at: number) =>
      `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
    for (const tampered of [
      `${header}.${payload}.${flip(signature, 5)}`,
      `${header}.${flip(payload, 10)}.${signature}`,
      `${header}.${payload}.${signature.slice(0, -2)}`,
    ]) {
      expect((await codeOf({ ...body, token: tampered })).code, tampered).toBe('MALFORMED');
    }
    expect((await codeOf(body)).code).toBe('VALID');
  });

  it('is open to any origin without credentials, and answers the preflight', async () => {
    const response = await validate({});
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(response.headers['access-control-expose-headers'])).toContain('x-keyport-signature');
    for (const [url, method] of [
      ['/api/licenses/validate', 'POST'],
      ['/.well-known/jwks.json', 'GET'],
    ] as const) {
      const preflight = await t.app.inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin: 'https://acme-outfitters.com',
          'access-control-request-method': method,
          'access-control-request-headers': 'content-type',
        },
      });
      expect(preflight.statusCode, url).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('*');
      expect(String(preflight.headers['access-control-allow-methods'])).toContain(method);
      expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('content-type');
      expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    }
    const jwks = await t.app.inject({ url: '/.well-known/jwks.json', headers: { origin: 'https://x.com' } });
    expect(jwks.headers['access-control-allow-origin']).toBe('*');
    expect(jwks.headers['cache-control']).toBe('public, max-age=3600');
    // The JWKS gets a JSON answer's security headers (ADR 048), its resource policy opened to every origin.
    expect(jwks.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(jwks.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it('leaves every other route same-origin: no CORS headers, and no preflight answered', async () => {
    const other = await t.app.inject({
      url: '/keys/health',
      headers: { ...auth(owner.token), origin: 'https://acme-outfitters.com' },
    });
    expect(other.statusCode).toBe(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(other.headers['access-control-expose-headers']).toBeUndefined();
    for (const url of ['/keys/health', '/auth/login', '/no-such-route']) {
      const preflight = await t.app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: 'https://acme-outfitters.com', 'access-control-request-method': 'POST' },
      });
      expect(preflight.statusCode, url).toBe(404);
      expect(preflight.headers['access-control-allow-origin'], url).toBeUndefined();
      expect(preflight.headers['access-control-allow-methods'], url).toBeUndefined();
    }
  });

  it("answers with an API's security headers, not a document's, on success and on refusal alike", async () => {
    const answered = await validate({});
    const refused = await validate({ theme_edition: 7 as unknown as string });
    expect([answered.statusCode, refused.statusCode]).toEqual([200, 400]);
    for (const response of [answered, refused]) {
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      expect(response.headers['content-security-policy']).toBeUndefined();
      expect(response.headers['x-frame-options']).toBeUndefined();
      // No resource policy at all: readable from any origin.
      expect(response.headers['cross-origin-resource-policy']).toBeUndefined();
      expect(response.headers['access-control-allow-origin']).toBe('*');
    }
    // The portal's own JSON answers keep their resource policy and are never framed (ADR 048).
    const other = await t.app.inject({ url: '/keys/health', headers: auth(owner.token) });
    expect(other.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(other.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(other.headers['x-frame-options']).toBe('DENY');
  });

  it('never reads cookies: a session cookie changes nothing', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/licenses/validate',
      headers: { cookie: `session=${owner.token}` },
      payload: { token, domain: 'acme-outfitters.com', theme_version: '4.2.0', theme_edition: 'REGULAR' },
    });
    expect(response.json()).toMatchObject({ code: 'VALID' });
    expect(response.headers['set-cookie']).toBeUndefined();
    // Nor a session header: a malformed one is not even looked at (a signed-in route would refuse it).
    const withHeader = await t.app.inject({
      method: 'POST',
      url: '/api/licenses/validate',
      headers: { authorization: 'Token not-a-session-token-at-all' },
      payload: { token, domain: 'acme-outfitters.com', theme_version: '4.2.0', theme_edition: 'REGULAR' },
    });
    expect(withHeader.statusCode).toBe(200);
    expect(withHeader.json()).toMatchObject({ code: 'VALID' });
  });
});

describe('no database query per validation', () => {
  it('repeated validations of a key issue no query; a change of the key in this process is seen at once', async () => {
    const client = (t.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
    await codeOf({});
    const queries = vi.spyOn(client, 'query');
    // The app's job worker runs beside the requests (a poll every 2 s, and a pass after each commit that enqueued):
    // its queries on the jobs tables are not the validation's, so they are left out of the count.
    const validationQueries = () =>
      queries.mock.calls
        .map(([statement]) => (typeof statement === 'string' ? statement : (statement as { text: string }).text))
        .filter((statement) => !/"(jobs|job_schedules)"/.test(statement));
    try {
      for (let i = 0; i < 25; i += 1) expect((await codeOf({ theme_version: '4.2.0' })).code).toBe('VALID');
      expect((await codeOf({ domain: 'pirate-copy.com' })).code).toBe('DOMAIN_MISMATCH');
      expect(validationQueries()).toEqual([]);
      // The spy does see queries: after the keys service changes the key, the next validation loads it once.
      await connect(owner.token, key.apiKey, { main_url: 'acme-outfitters.com', myshopify: 'acme-outfitters' }).then(
        (next) => (token = next),
      );
      queries.mockClear();
      expect((await codeOf({})).code).toBe('VALID');
      expect(validationQueries()).toEqual([expect.stringContaining('"license_keys"')]);
    } finally {
      queries.mockRestore();
    }
  });
});

describe('check-ins', () => {
  const countsOf = (domain: string) =>
    t.db
      .select()
      .from(licenseCheckins)
      .where(and(eq(licenseCheckins.domain, domain), eq(licenseCheckins.keyId, key.id)));

  it('N validations become one aggregated row with count N after a flush; the next flush adds to it', async () => {
    await t.app.services.checkinFlusher.flush();
    for (let i = 0; i < 7; i += 1) await codeOf({ domain: 'www.acme-outfitters.com', theme_version: '4.1.7' });
    expect(await countsOf('acme-outfitters.com').then((rows) => rows.filter((r) => r.version === '4.1.7'))).toEqual([]);
    await t.app.services.checkinFlusher.flush();
    let rows = (await countsOf('acme-outfitters.com')).filter((row) => row.version === '4.1.7');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ count: 7, covered: true, edition: 'REGULAR' });
    const first = rows[0]!;
    for (let i = 0; i < 3; i += 1) await codeOf({ domain: 'acme-outfitters.com', theme_version: '4.1.7' });
    await t.app.services.checkinFlusher.flush();
    rows = (await countsOf('acme-outfitters.com')).filter((row) => row.version === '4.1.7');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.count).toBe(10);
    expect(rows[0]!.firstSeenAt.getTime()).toBe(first.firstSeenAt.getTime());
    expect(rows[0]!.lastSeenAt.getTime()).toBeGreaterThanOrEqual(first.lastSeenAt.getTime());
  });

  it('no check-in without a readable token', async () => {
    await codeOf({ token: 'garbage', domain: 'never-recorded.com' });
    await t.app.services.checkinFlusher.flush();
    expect(await t.db.select().from(licenseCheckins).where(eq(licenseCheckins.domain, 'never-recorded.com'))).toEqual(
      [],
    );
  });
});

describe('GET /keys/health', () => {
  it("shows each of the owner's keys: last covered check-in, the current release, update available, a mismatch", async () => {
    const zip = await makeThemeZip(workDir, { edition: 'REGULAR', version: '4.3.0' });
    const uploaded = await uploadRelease(
      t,
      staff.token,
      { edition: 'REGULAR', version: '4.3.0' },
      { content: zip.bytes },
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    await codeOf({ domain: 'acme-outfitters.com', theme_version: '4.2.0' });
    await codeOf({ domain: 'pirate-copy.com', theme_version: '4.2.0' });
    await t.app.services.checkinFlusher.flush();

    const response = await t.app.inject({ url: '/keys/health', headers: auth(owner.token) });
    expect(response.statusCode, response.body).toBe(200);
    const health = response.json<KeyHealth[]>();
    expect(health).toHaveLength(1);
    expect(health[0]).toMatchObject({
      key_id: key.id,
      domain: 'acme-outfitters.com',
      theme_version: '4.2.0',
      theme_edition: 'REGULAR',
      latest_version: '4.3.0',
      update_available: true,
      mismatch: { domain: 'pirate-copy.com' },
    });
    expect(health[0]!.mismatch!.checkins).toBeGreaterThanOrEqual(2);
    expect(Date.parse(health[0]!.last_checkin_at!)).not.toBeNaN();
  });

  it("is owner-scoped: another user's keys never appear", async () => {
    const empty = await t.app.inject({ url: '/keys/health', headers: auth(stranger.token) });
    expect(empty.json()).toEqual([]);
    const own = await claimNewKey(t, stranger.token, 'PRO');
    const mine = (await t.app.inject({ url: '/keys/health', headers: auth(stranger.token) })).json<KeyHealth[]>();
    expect(mine).toEqual([
      {
        key_id: own.id,
        last_checkin_at: null,
        domain: null,
        theme_version: null,
        theme_edition: null,
        latest_version: null,
        update_available: false,
        mismatch: null,
      },
    ]);
    expect((await t.app.inject({ url: '/keys/health' })).statusCode).toBe(401);
  });
});

describe('sightings: evidence of pirated copies', () => {
  const listSightings = async (query = '') => {
    const response = await t.app.inject({ url: `/staff/license-sightings${query}`, headers: auth(staff.token) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ sightings: LicenseSighting[]; next_cursor: string | null }>();
  };

  it('lists domains seen with a token no key of ours covers, with counts, versions and keys; staff only', async () => {
    // A store another customer connected a key to is licensed: a token of ours seen there is not a sighting.
    await codeOf({ domain: 'licensed-elsewhere.com' });
    const licensee = await newUser();
    const theirs = await claimNewKey(t, licensee.token, 'LITE');
    await connect(licensee.token, theirs.apiKey, { main_url: 'licensed-elsewhere.com' });
    await t.app.services.checkinFlusher.flush();

    const { sightings } = await listSightings('?limit=100');
    const domains = sightings.map((row) => row.domain);
    expect(domains).toContain('pirate-copy.com');
    expect(domains).toContain('evil.io');
    expect(domains).not.toContain('licensed-elsewhere.com');
    expect(domains).not.toContain('acme-outfitters.com');
    const pirate = sightings.find((row) => row.domain === 'pirate-copy.com')!;
    expect(pirate.checkins).toBeGreaterThanOrEqual(3);
    expect(pirate.versions).toContain('4.2.0 REGULAR');
    expect(pirate.keys).toEqual([{ id: key.id, owner_email: 'licenses-1@example.com' }]);
    expect(pirate.reports).toEqual({ pending: 0, approved: 0, rejected: 0 });
    const times = sightings.map((row) => Date.parse(row.last_seen_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    for (const headers of [{}, auth(owner.token)]) {
      const refused = await t.app.inject({ url: '/staff/license-sightings', headers });
      expect([401, 403]).toContain(refused.statusCode);
    }
  });

  it('pages with a cursor, most recent first, without repeating a domain', async () => {
    const all = (await listSightings('?limit=100')).sightings.map((row) => row.domain);
    expect(all.length).toBeGreaterThanOrEqual(3);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { sightings: LicenseSighting[]; next_cursor: string | null } = await listSightings(
        `?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      paged.push(...page.sightings.map((row) => row.domain));
      cursor = page.next_cursor;
    } while (cursor && paged.length <= all.length);
    expect(paged).toEqual(all);
    expect((await listSightings('?q=pirate')).sightings.map((row) => row.domain)).toEqual(['pirate-copy.com']);
    const bad = await t.app.inject({ url: '/staff/license-sightings?cursor=nope', headers: auth(staff.token) });
    expect(bad.statusCode).toBe(400);
  });

  it("validates a customer's report of a sighted domain with its evidence, and staff see it in the queue", async () => {
    const reporter = await newUser();
    const stores = ['pirate-copy.com', 'fresh-one.com', 'fresh-two.com', 'fresh-three.com', 'fresh-four.com'];
    const response = await t.app.inject({
      method: 'POST',
      url: '/credits/report-store',
      headers: auth(reporter.token),
      payload: { storeDomains: stores },
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ ok: boolean; validations: { domain: string; isValid: boolean; reason: string }[] }>();
    expect(body.ok).toBe(true);
    expect(body.validations[0]).toEqual({
      domain: 'pirate-copy.com',
      isValid: true,
      reason: REPORT_ROW_REASONS.seenUnlicensed,
    });
    expect(body.validations[1]).toMatchObject({ isValid: true, reason: REPORT_ROW_REASONS.valid });

    const queue = await t.app.inject({ url: '/staff/reports?status=pending', headers: auth(staff.token) });
    const report = queue
      .json<{ reports: StaffStoreReport[] }>()
      .reports.find((row) => row.reporter.id === reporter.id)!;
    const pirate = report.domains.find((row) => row.domain === 'pirate-copy.com')!;
    expect(pirate.known.sightings).toMatchObject({ checkins: expect.any(Number) as number });
    expect(pirate.validation.reason).toBe(REPORT_ROW_REASONS.seenUnlicensed);
    expect(report.domains.find((row) => row.domain === 'fresh-one.com')!.known.sightings).toBeNull();

    const sighting = (await listSightings('?q=pirate-copy')).sightings[0]!;
    expect(sighting.reports).toEqual({ pending: 1, approved: 0, rejected: 0 });
  });
});

describe('app close', () => {
  it('flushes what is buffered when the app closes', async () => {
    // A second app empties the shared database: this app's buffer is written first, and this test runs last.
    await t.app.services.checkinFlusher.flush();
    const other = await createTestApp({ TOKEN_SIGNING_KEY: JSON.stringify(privateJwk), CHECKIN_FLUSH_SECONDS: '3600' });
    const user = await signUp(other, 'closing@example.com');
    const own = await claimNewKey(other, user.token, 'LITE');
    const response = await other.app.inject({
      method: 'PUT',
      url: '/keys/',
      headers: auth(user.token),
      payload: { key: own.apiKey, main_url: 'closing-time.com' },
    });
    const live = response.json<{ tokentheme: string }>().tokentheme;
    for (let i = 0; i < 4; i += 1) {
      await other.app.inject({
        method: 'POST',
        url: '/api/licenses/validate',
        payload: { token: live, domain: 'closing-time.com', theme_version: '1.0.0', theme_edition: 'LITE' },
      });
    }
    await other.app.close();
    const rows = await other.db.select().from(licenseCheckins).where(eq(licenseCheckins.domain, 'closing-time.com'));
    expect(rows.map((row) => row.count)).toEqual([4]);
  });
});
