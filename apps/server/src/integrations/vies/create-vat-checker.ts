import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { VatNumberChecker } from './port';
import { parseVatNumber } from './vat-number-format';
import { createViesChecker } from './vies-adapter';
import { createSandboxViesChecker } from './vies-sandbox';

/**
 * VIES_ADAPTER=vies: the EU's VIES REST service, with the seller's VAT ID as requester; else the offline sandbox and
 * its documented test numbers. A seller VAT ID that is not a member state's number (a GB number, an EU OSS number)
 * cannot be a VIES requester: checks then run without one, and without consultation numbers, and the log says so.
 */
export function createVatChecker(
  config: Pick<Config, 'vies' | 'sellerVatId'>,
  log: Pick<FastifyBaseLogger, 'warn'>,
): VatNumberChecker {
  if (config.vies.kind === 'sandbox') return createSandboxViesChecker();
  let requesterVatId = config.sellerVatId;
  if (requesterVatId && !parseVatNumber(requesterVatId).ok) {
    log.warn(
      { sellerVatId: requesterVatId },
      'SELLER_VAT_ID is not an EU member state VAT number: VIES checks run without a requester (no consultation numbers)',
    );
    requesterVatId = null;
  }
  return createViesChecker({ apiUrl: config.vies.baseUrl, timeoutMs: config.vies.timeoutMs, requesterVatId });
}
