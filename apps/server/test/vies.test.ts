/**
 * VAT number checks: the jsvat format gate, the VIES REST adapter against a local fake of the service (random port),
 * and the sandbox's documented test numbers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { VatNumberChecker } from '../src/integrations/vies/port';
import { parseVatNumber } from '../src/integrations/vies/vat-number-format';
import { createViesChecker } from '../src/integrations/vies/vies-adapter';
import { createSandboxViesChecker, SANDBOX_VAT_NUMBERS } from '../src/integrations/vies/vies-sandbox';
import { startFakeViesApi, type FakeViesApi } from './fakes/vies-api';

const MALFORMED = [
  '',
  'hello',
  'DE12345', // too short for Germany
  'DE1234567890', // too long
  'DEABCDEFGHI',
  '123456789', // no country prefix
  'XX123456789',
  'GB123456789', // not an EU member state any more
  'XI123456789',
  'NO123456789MVA',
  'CHE123456789',
  'ATU1234567',
  'DE123456789'.repeat(3),
];

describe('VAT number format (jsvat)', () => {
  it.each([
    ['DE123456789', 'DE123456789', 'DE', '123456789', 'DE'],
    [' de 123.456.789 ', 'DE123456789', 'DE', '123456789', 'DE'],
    ['ATU12345678', 'ATU12345678', 'AT', 'U12345678', 'AT'],
    ['EL123456789', 'EL123456789', 'EL', '123456789', 'GR'],
    ['GR123456789', 'EL123456789', 'EL', '123456789', 'GR'],
    ['NL123456789B01', 'NL123456789B01', 'NL', '123456789B01', 'NL'],
    ['fr-40-303265045', 'FR40303265045', 'FR', '40303265045', 'FR'],
  ])('%j is a well-formed %s', (input, vatNumber, memberState, nationalNumber, countryCode) => {
    expect(parseVatNumber(input)).toEqual({ ok: true, vatNumber, memberState, nationalNumber, countryCode });
  });

  it.each(MALFORMED)('%j is malformed', (input) => {
    expect(parseVatNumber(input).ok).toBe(false);
  });

  it('checks the format, not the check digit (VIES has the last word on those)', () => {
    // DE123456789's check digit is wrong by the German algorithm; its format is right.
    expect(parseVatNumber('DE123456789').ok).toBe(true);
  });
});

describe('VIES adapter', () => {
  let vies: FakeViesApi;
  let checker: VatNumberChecker;
  beforeAll(async () => {
    vies = await startFakeViesApi();
    checker = createViesChecker({ apiUrl: vies.url, timeoutMs: 1000, requesterVatId: 'IE6388047V' });
  });
  afterAll(() => vies.close());
  beforeEach(() => {
    vies.requests.length = 0;
    vies.numbers.clear();
  });

  it('asks VIES with the number and the seller as requester, and reads a valid answer', async () => {
    vies.numbers.set('DE811569869', {
      kind: 'registered',
      name: 'Muster Software GmbH',
      address: 'Hauptstr. 5\n80331 München',
    });
    const before = Date.now();
    const result = await checker.check('de 811 569 869');

    expect(vies.requests).toEqual([
      {
        path: '/taxation_customs/vies/rest-api/check-vat-number',
        body: {
          countryCode: 'DE',
          vatNumber: '811569869',
          requesterMemberStateCode: 'IE',
          requesterNumber: '6388047V',
        },
      },
    ]);
    expect(result).toEqual({
      status: 'valid',
      countryCode: 'DE',
      vatNumber: 'DE811569869',
      companyName: 'Muster Software GmbH',
      companyAddress: 'Hauptstr. 5\n80331 München',
      consultationNumber: expect.stringMatching(/^WAPIAAAAZ\d{7}$/),
      checkedAt: expect.any(Date),
    });
    expect(result.status === 'valid' && result.checkedAt.getTime()).toBeGreaterThanOrEqual(before);
  });

  it("sends Greece as EL and reports it as GR; '---' name and address are null", async () => {
    vies.numbers.set('EL094259216', { kind: 'registered', name: '---', address: '---' });
    expect(await checker.check('GR094259216')).toMatchObject({
      status: 'valid',
      countryCode: 'GR',
      vatNumber: 'EL094259216',
      companyName: null,
      companyAddress: null,
    });
    expect(vies.requests[0]!.body).toMatchObject({ countryCode: 'EL', vatNumber: '094259216' });
  });

  it('without a requester: no requester fields, no consultation number', async () => {
    const anonymous = createViesChecker({ apiUrl: `${vies.url}/`, timeoutMs: 1000, requesterVatId: null });
    vies.numbers.set('FR40303265045', { kind: 'registered', name: 'SARL Exemple', address: 'Paris' });
    expect(await anonymous.check('FR40303265045')).toMatchObject({ status: 'valid', consultationNumber: null });
    expect(vies.requests[0]!.body).toEqual({ countryCode: 'FR', vatNumber: '40303265045' });
  });

  it('answers not_registered when VIES says the number is not valid', async () => {
    expect(await checker.check('DE123456789')).toEqual({
      status: 'invalid',
      vatNumber: 'DE123456789',
      reason: 'not_registered',
    });
  });

  it('answers format, without any call, for a malformed number', async () => {
    for (const input of MALFORMED) {
      expect(await checker.check(input)).toMatchObject({ status: 'invalid', reason: 'format' });
    }
    expect(vies.requests).toEqual([]);
  });

  it('answers format when VIES itself says INVALID_INPUT', async () => {
    vies.numbers.set('DE123456789', { kind: 'error', error: 'INVALID_INPUT', httpStatus: 400 });
    expect(await checker.check('DE123456789')).toMatchObject({ status: 'invalid', reason: 'format' });
  });

  it.each([
    ['MS_UNAVAILABLE in a 200', { kind: 'error', error: 'MS_UNAVAILABLE', httpStatus: 200 }],
    ['SERVICE_UNAVAILABLE in a 500', { kind: 'error', error: 'SERVICE_UNAVAILABLE', httpStatus: 500 }],
    ['MS_MAX_CONCURRENT_REQ as userError', { kind: 'user_error', userError: 'MS_MAX_CONCURRENT_REQ' }],
    ['TIMEOUT as userError', { kind: 'user_error', userError: 'TIMEOUT' }],
    ['INVALID_REQUESTER_INFO', { kind: 'error', error: 'INVALID_REQUESTER_INFO', httpStatus: 400 }],
    ['a 503 HTML page', { kind: 'broken', httpStatus: 503 }],
    ['a 200 that is not JSON', { kind: 'broken', httpStatus: 200 }],
    ['no answer before the timeout', { kind: 'slow', delayMs: 5000 }],
  ] as const)('answers unavailable for %s', async (_label, behaviour) => {
    vies.numbers.set('DE123456789', behaviour);
    const fast = createViesChecker({ apiUrl: vies.url, timeoutMs: 300, requesterVatId: 'IE6388047V' });
    expect(await fast.check('DE123456789')).toEqual({ status: 'unavailable', vatNumber: 'DE123456789' });
  });

  it('answers unavailable when VIES cannot be reached at all', async () => {
    const closed = await startFakeViesApi();
    await closed.close();
    const unreachable = createViesChecker({ apiUrl: closed.url, timeoutMs: 1000, requesterVatId: null });
    expect(await unreachable.check('DE123456789')).toMatchObject({ status: 'unavailable' });
  });

  it('refuses a requester that is not an EU VAT number', () => {
    expect(() => createViesChecker({ apiUrl: vies.url, timeoutMs: 1000, requesterVatId: 'GB123456789' })).toThrow(
      /not an EU VAT number/,
    );
  });
});

describe('VIES sandbox', () => {
  const sandbox = createSandboxViesChecker();

  it.each([
    ['DE123456789', 'DE', 'Keyport Sandbox GmbH', 'Musterstraße 1, 10115 Berlin'],
    ['ATU12345678', 'AT', 'Sandbox Handels GmbH', 'Stephansplatz 1, 1010 Wien'],
    ['ESB12345678', 'ES', 'Sandbox Ibérica S.L.', 'Calle Mayor 1, 28013 Madrid'],
    ['FR40303265045', 'FR', 'Sandbox France SARL', '1 Rue de Rivoli, 75001 Paris'],
    ['IT12345678901', 'IT', 'Sandbox Italia S.r.l.', 'Via del Corso 1, 00186 Roma'],
    ['NL123456789B01', 'NL', 'Sandbox Nederland B.V.', 'Damrak 1, 1012 LG Amsterdam'],
    ['BE0123456789', 'BE', null, null],
  ])('%s is valid (%s)', async (vatNumber, countryCode, companyName, companyAddress) => {
    expect(await sandbox.check(vatNumber.toLowerCase())).toEqual({
      status: 'valid',
      countryCode,
      vatNumber,
      companyName,
      companyAddress,
      consultationNumber: expect.stringMatching(/^SANDBOX-[0-9A-F]{12}$/),
      checkedAt: expect.any(Date),
    });
  });

  it('lists exactly those valid numbers', () => {
    expect([...SANDBOX_VAT_NUMBERS.valid].sort()).toEqual(
      [
        'ATU12345678',
        'BE0123456789',
        'DE123456789',
        'ESB12345678',
        'FR40303265045',
        'IT12345678901',
        'NL123456789B01',
      ].sort(),
    );
  });

  it('DE123456000, and any other well-formed number, is not registered', async () => {
    expect(await sandbox.check(SANDBOX_VAT_NUMBERS.notRegistered)).toEqual({
      status: 'invalid',
      vatNumber: 'DE123456000',
      reason: 'not_registered',
    });
    expect(await sandbox.check('DE811569869')).toMatchObject({ status: 'invalid', reason: 'not_registered' });
  });

  it('DE999999999 is unavailable', async () => {
    expect(await sandbox.check(SANDBOX_VAT_NUMBERS.unavailable)).toEqual({
      status: 'unavailable',
      vatNumber: 'DE999999999',
    });
  });

  it('checks the format first, like the real adapter', async () => {
    expect(await sandbox.check(SANDBOX_VAT_NUMBERS.malformed)).toEqual({
      status: 'invalid',
      vatNumber: 'DE12345',
      reason: 'format',
    });
    for (const input of MALFORMED) {
      expect(await sandbox.check(input)).toMatchObject({ status: 'invalid', reason: 'format' });
    }
  });
});
