import { randomBytes } from 'node:crypto';
import type { VatCheck, VatNumberChecker } from './port';
import { parseVatNumber } from './vat-number-format';

/**
 * The sandbox's test numbers (also in docs/decisions/013-payment-and-vies-adapters.md). The format check runs first,
 * exactly as in the real adapter, so a malformed number is `invalid` (reason `format`) here too.
 *
 * | Number          | Answer                                                                       |
 * | --------------- | ---------------------------------------------------------------------------- |
 * | DE123456789     | valid: Keyport Sandbox GmbH, Musterstraße 1, 10115 Berlin                    |
 * | ATU12345678     | valid: Sandbox Handels GmbH, Stephansplatz 1, 1010 Wien                      |
 * | BE0123456789    | valid, without name and address (like member states that do not share them) |
 * | ESB12345678     | valid: Sandbox Ibérica S.L., Calle Mayor 1, 28013 Madrid                     |
 * | FR40303265045   | valid: Sandbox France SARL, 1 Rue de Rivoli, 75001 Paris                     |
 * | IT12345678901   | valid: Sandbox Italia S.r.l., Via del Corso 1, 00186 Roma                    |
 * | NL123456789B01  | valid: Sandbox Nederland B.V., Damrak 1, 1012 LG Amsterdam                   |
 * | DE123456000     | invalid: not registered (so is any other well-formed number not listed)      |
 * | DE999999999     | unavailable: the member state's service does not answer                     |
 * | DE12345         | invalid: format (any malformed or non-EU number: GB…, CHE…, NO…)             |
 *
 * Valid answers carry a consultation number (`SANDBOX-…`), as VIES gives one when the seller's VAT ID is sent.
 */
const REGISTERED: Readonly<Record<string, { name: string | null; address: string | null }>> = {
  DE123456789: { name: 'Keyport Sandbox GmbH', address: 'Musterstraße 1, 10115 Berlin' },
  ATU12345678: { name: 'Sandbox Handels GmbH', address: 'Stephansplatz 1, 1010 Wien' },
  BE0123456789: { name: null, address: null },
  ESB12345678: { name: 'Sandbox Ibérica S.L.', address: 'Calle Mayor 1, 28013 Madrid' },
  FR40303265045: { name: 'Sandbox France SARL', address: '1 Rue de Rivoli, 75001 Paris' },
  IT12345678901: { name: 'Sandbox Italia S.r.l.', address: 'Via del Corso 1, 00186 Roma' },
  NL123456789B01: { name: 'Sandbox Nederland B.V.', address: 'Damrak 1, 1012 LG Amsterdam' },
};

export const SANDBOX_VAT_NUMBERS = {
  valid: Object.keys(REGISTERED),
  notRegistered: 'DE123456000',
  unavailable: 'DE999999999',
  malformed: 'DE12345',
} as const;

/** The offline default: answers from the table above, never from the network. */
export function createSandboxViesChecker(): VatNumberChecker {
  return {
    name: 'sandbox',
    async check(input): Promise<VatCheck> {
      const parsed = parseVatNumber(input);
      if (!parsed.ok) return { status: 'invalid', vatNumber: parsed.vatNumber, reason: 'format' };
      if (parsed.vatNumber === SANDBOX_VAT_NUMBERS.unavailable) {
        return { status: 'unavailable', vatNumber: parsed.vatNumber };
      }
      const company = REGISTERED[parsed.vatNumber];
      if (!company) return { status: 'invalid', vatNumber: parsed.vatNumber, reason: 'not_registered' };
      return {
        status: 'valid',
        countryCode: parsed.countryCode,
        vatNumber: parsed.vatNumber,
        companyName: company.name,
        companyAddress: company.address,
        consultationNumber: `SANDBOX-${randomBytes(6).toString('hex').toUpperCase()}`,
        checkedAt: new Date(),
      };
    },
  };
}
