import type { FastifyInstance } from 'fastify';
import * as contracts from '@keyport/shared/contracts/staff-customers';
import { mintKeys } from '@keyport/shared/contracts/staff';
import { registerRoute } from '../../http/route';

/**
 * Issue 12 "Keys and customers" (staff only): search, a customer's page, and the actions on their keys; and minting
 * unclaimed keys (`POST /staff/keys`, once a one-route module of its own, issue 21).
 */
export async function customersAdminRoutes(app: FastifyInstance) {
  const customers = app.services.customersAdmin;
  registerRoute(app, mintKeys, async ({ user, body }) => ({ keys: await customers.mintUnclaimed(user.id, body) }));
  registerRoute(app, contracts.listStaffCustomers, ({ query }) => customers.search(query));
  registerRoute(app, contracts.getStaffCustomer, ({ params }) => customers.get(Number(params.id)));
  registerRoute(app, contracts.mintCustomerKeys, async ({ user, params, body }) => ({
    keys: await customers.mintForCustomer(user.id, Number(params.id), body),
  }));
  registerRoute(app, contracts.releaseCustomerKey, async ({ user, params, body }) => {
    await customers.releaseKey(user.id, Number(params.id), Number(params.keyId), body.reason);
    return { released: true as const };
  });
  registerRoute(app, contracts.resendCustomerKeyEmail, ({ user, params, body }) =>
    customers.resendKeyEmail(user.id, Number(params.id), Number(params.keyId), body.reason),
  );
}
