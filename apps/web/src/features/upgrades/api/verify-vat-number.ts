import { verifyVatNumber as verifyVatNumberContract } from '@keyport/shared/contracts/billing';
import { callApi } from '../../../lib/api-client';

/** POST /stripe/vat/verify: VIES's answer for a VAT number (valid, company name and address). */
export const verifyVatNumber = (vatNumber: string, signal?: AbortSignal) =>
  callApi(verifyVatNumberContract, { body: { vat_number: vatNumber }, signal });
