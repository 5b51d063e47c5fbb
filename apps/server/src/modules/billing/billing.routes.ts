import type { FastifyInstance } from 'fastify';
import * as contracts from '@keyport/shared/contracts/billing';
import * as vatRateContracts from '@keyport/shared/contracts/vat-rates';
import { badRequest } from '../../http/errors';
import { registerRoute } from '../../http/route';

export const UNKNOWN_COUNTRY = 'Choose your country';

/** §5 country list, §7 /stripe/vat/verify and /stripe/vat/calculate; the dated VAT rates (ADR 036). */
export async function billingRoutes(app: FastifyInstance) {
  const billing = app.services.billing;
  registerRoute(app, contracts.getCountries, async (_input, _request, reply) => {
    reply.header('cache-control', 'public, max-age=86400');
    return { countries: billing.countries() };
  });
  registerRoute(app, contracts.verifyVatNumber, ({ user, body }) => billing.verify(user.id, body.vat_number));
  registerRoute(app, contracts.calculateVat, async ({ body }) => {
    if (!billing.isCountry(body.country_code)) throw badRequest(UNKNOWN_COUNTRY, 'invalid_country');
    return billing.calculate(body);
  });
  registerRoute(app, vatRateContracts.getVatRates, async (_input, _request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return billing.vatRates.publicTable();
  });
  registerRoute(app, vatRateContracts.staffListVatRates, () => billing.vatRates.staffList());
  registerRoute(app, vatRateContracts.staffAddVatRate, async ({ user, body }) => ({
    rate: await billing.vatRates.add(user.id, body),
  }));
}
