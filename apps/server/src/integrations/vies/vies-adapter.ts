import type { VatCheck, VatNumberChecker } from './port';
import { parseVatNumber } from './vat-number-format';

export interface ViesCheckerOptions {
  /** The VIES REST API root, e.g. https://ec.europa.eu/taxation_customs/vies/rest-api */
  apiUrl: string | URL;
  /** The whole call, answer included; past it the check is `unavailable`. */
  timeoutMs: number;
  /**
   * The seller's own VAT ID (a valid EU number, e.g. 'IE6388047V'): sent as the requester, so VIES answers with a
   * consultation number, the evidence a reverse-charge sale keeps. Null: no requester, no consultation number.
   */
  requesterVatId: string | null;
}

/** VIES's answer to `POST /check-vat-number`, as far as Keyport reads it. */
interface ViesAnswer {
  valid?: unknown;
  name?: unknown;
  address?: unknown;
  requestIdentifier?: unknown;
  userError?: unknown;
  actionSucceed?: unknown;
  errorWrappers?: unknown;
}

/**
 * The real checker: the European Commission's VIES REST service. A number whose format is wrong for its member state
 * is answered `invalid` without a call. VIES's own trouble (a member state offline, too many requests, a timeout,
 * a 5xx) is `unavailable`, never `invalid`: nobody loses reverse charge because a national service was down.
 */
export function createViesChecker(options: ViesCheckerOptions): VatNumberChecker {
  const endpoint = new URL('check-vat-number', `${String(options.apiUrl).replace(/\/+$/, '')}/`);
  const requester = options.requesterVatId ? parseVatNumber(options.requesterVatId) : null;
  if (requester && !requester.ok) {
    throw new Error(`The requester VAT ID ${requester.vatNumber} is not an EU VAT number VIES accepts`);
  }

  return {
    name: 'vies',
    async check(input) {
      const parsed = parseVatNumber(input);
      if (!parsed.ok) return { status: 'invalid', vatNumber: parsed.vatNumber, reason: 'format' };
      const unavailable: VatCheck = { status: 'unavailable', vatNumber: parsed.vatNumber };

      let status: number;
      let answer: ViesAnswer | null;
      try {
        const response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            countryCode: parsed.memberState,
            vatNumber: parsed.nationalNumber,
            ...(requester?.ok
              ? { requesterMemberStateCode: requester.memberState, requesterNumber: requester.nationalNumber }
              : {}),
          }),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        status = response.status;
        answer = await readJson(response);
      } catch {
        return unavailable; // network failure or timeout
      }

      const error = errorCodeOf(answer);
      if (error === 'INVALID_INPUT') return { status: 'invalid', vatNumber: parsed.vatNumber, reason: 'format' };
      if (error || status !== 200 || !answer || typeof answer.valid !== 'boolean') return unavailable;
      if (!answer.valid) return { status: 'invalid', vatNumber: parsed.vatNumber, reason: 'not_registered' };
      return {
        status: 'valid',
        countryCode: parsed.countryCode,
        vatNumber: parsed.vatNumber,
        companyName: detail(answer.name),
        companyAddress: detail(answer.address),
        consultationNumber: detail(answer.requestIdentifier),
        checkedAt: new Date(),
      };
    },
  };
}

async function readJson(response: Response): Promise<ViesAnswer | null> {
  const text = await response.text();
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as ViesAnswer) : null;
  } catch {
    return null;
  }
}

/**
 * VIES reports trouble two ways: `{actionSucceed: false, errorWrappers: [{error: 'MS_UNAVAILABLE'}]}` (with a 200 or
 * an error status), or `userError` beside `valid` ('VALID' and 'INVALID' are answers, anything else is trouble).
 */
function errorCodeOf(answer: ViesAnswer | null): string | null {
  if (!answer) return null;
  if (Array.isArray(answer.errorWrappers) && answer.errorWrappers.length > 0) {
    const first: unknown = answer.errorWrappers[0];
    const code = typeof first === 'object' && first !== null ? (first as { error?: unknown }).error : null;
    return typeof code === 'string' ? code : 'UNKNOWN';
  }
  if (answer.actionSucceed === false) return 'UNKNOWN';
  if (typeof answer.userError === 'string' && answer.userError !== 'VALID' && answer.userError !== 'INVALID') {
    return answer.userError;
  }
  return null;
}

/** A name, address or request identifier; VIES writes '---' (or nothing) when a member state does not share it. */
function detail(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' || trimmed === '---' ? null : trimmed;
}
