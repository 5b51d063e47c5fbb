import { describe, expect, it } from 'vitest';
import type { ThemeTokenClaims } from '@keyport/shared/contracts/connect';
import type { KeyState } from '../keys/keys.service';
import { ANSWER_REUSE_MS, createLicensesService, type LicensesServiceDeps } from './licenses.service';

const CLAIMS: ThemeTokenClaims = {
  iss: 'keyport',
  sub: 'key:1',
  kid: 1,
  tier: 'PRO',
  domains: ['acme.com'],
  ver: 1,
  iat: 1,
};

/** The licenses service with counting fakes around `validate`: token checks, signatures, key state, check-ins. */
function harness() {
  let clock = Date.parse('2026-11-23T12:00:00.000Z');
  let key: KeyState = { id: 1, ownerId: 7, tier: 'PRO', tokenVersion: 1 };
  const verified: string[] = [];
  const signed: string[] = [];
  let checkins = 0;
  const tokens: LicensesServiceDeps['tokens'] = {
    verifySignature: async (token) => {
      verified.push(token);
      return token.startsWith('good') ? { ...CLAIMS } : null;
    },
    isCurrent: (claims, state) => state.tokenVersion === claims.ver,
    signBytes: (bytes) => {
      signed.push(bytes.toString());
      return Buffer.from(`sig-${signed.length}`);
    },
    signingKid: 'kid-1',
  };
  const service = createLicensesService({
    db: null as never,
    keys: null as never,
    releases: null as never,
    auth: null as never,
    tokens,
    keyStates: { get: () => key },
    checkins: {
      add: async () => {
        checkins += 1;
      },
    } as unknown as LicensesServiceDeps['checkins'],
    validateLimit: { hit: async () => {} } as unknown as LicensesServiceDeps['validateLimit'],
    now: () => new Date(clock),
  });
  const validate = (token = 'good-token', domain = 'acme.com') =>
    service.validate({ token, domain, theme_version: '1.0.0', theme_edition: 'PRO' }, '203.0.113.1');
  return {
    validate,
    verified,
    signed,
    checkins: () => checkins,
    advance: (ms: number) => (clock += ms),
    setKey: (next: Partial<KeyState>) => (key = { ...key, ...next }),
  };
}

describe('validation caches (ADR 031, Performance)', () => {
  it('verifies a token once per process; a token that fails is verified again each time', async () => {
    const h = harness();
    for (let i = 0; i < 3; i += 1) expect((await h.validate()).answer.code).toBe('VALID');
    expect(h.verified).toEqual(['good-token']);
    for (let i = 0; i < 2; i += 1) expect((await h.validate('bad-token')).answer.code).toBe('MALFORMED');
    expect(h.verified).toEqual(['good-token', 'bad-token', 'bad-token']);
  });

  it('reuses the signed bytes within a window, counts every check-in, and signs anew in the next window', async () => {
    const h = harness();
    const first = await h.validate();
    h.advance(1);
    const second = await h.validate();
    expect(second.body).toBe(first.body);
    expect(second.signature).toBe(first.signature);
    expect(h.signed).toHaveLength(1);
    expect(h.checkins()).toBe(2);
    // expires_at counts from the window's start: identical bytes, never more than the answer's TTL ahead.
    expect(Date.parse(first.answer.expires_at) % ANSWER_REUSE_MS).toBe(0);

    h.advance(ANSWER_REUSE_MS);
    const third = await h.validate();
    expect(third.body).not.toBe(first.body);
    expect(h.signed).toHaveLength(2);
  });

  it('answers from the current key state at once: a regenerated token is superseded, a released key released', async () => {
    const h = harness();
    expect((await h.validate()).answer.code).toBe('VALID');
    h.setKey({ tokenVersion: 2 });
    const superseded = await h.validate();
    expect(superseded.answer.code).toBe('TOKEN_SUPERSEDED');
    expect(JSON.parse(superseded.body)).toMatchObject({ valid: false, code: 'TOKEN_SUPERSEDED' });
    h.setKey({ ownerId: null });
    expect((await h.validate()).answer.code).toBe('KEY_RELEASED');
    expect(h.signed).toHaveLength(3);
    expect(h.verified).toHaveLength(1);
  });

  it('keeps answers per domain: one domain never gets another domain’s signed bytes', async () => {
    const h = harness();
    const a = await h.validate('good-token', 'acme.com');
    const b = await h.validate('good-token', 'pirate.com');
    expect(a.answer).toMatchObject({ code: 'VALID', domain: 'acme.com' });
    expect(b.answer).toMatchObject({ code: 'DOMAIN_MISMATCH', domain: 'pirate.com' });
    expect(h.signed).toHaveLength(2);
  });
});
