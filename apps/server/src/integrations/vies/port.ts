/**
 * EU VAT number checks (VIES). Adapters: `vies` (the European Commission's VIES REST service) and `sandbox` (the
 * offline default, with documented test numbers). The format of a number is checked before any call (jsvat), so a
 * malformed number never leaves the server.
 */

export type VatCheck =
  | {
      status: 'valid';
      /** The two-letter country of the number as VIES uses it ('EL' for Greece is reported as 'GR'). */
      countryCode: string;
      /** The normalised number: country prefix and digits, no spaces ('DE123456789'). */
      vatNumber: string;
      companyName: string | null;
      companyAddress: string | null;
      /** VIES's request identifier, when a requester (the seller's VAT ID) was given: evidence for reverse charge. */
      consultationNumber: string | null;
      checkedAt: Date;
    }
  | { status: 'invalid'; vatNumber: string; reason: 'format' | 'not_registered' }
  /** VIES or the member state's service did not answer: neither valid nor invalid. */
  | { status: 'unavailable'; vatNumber: string };

export interface VatNumberChecker {
  readonly name: 'vies' | 'sandbox';
  check(vatNumber: string): Promise<VatCheck>;
}
