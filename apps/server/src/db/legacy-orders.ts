import type { orders } from './schema';

/**
 * An order of the legacy store as a row of the one orders table (issue 21, ADR 044): its description and date, kind
 * 'legacy', amounts 0, no key, pack, payment or billing details. The migration that moved auth's former `orders` table
 * into this one writes the same values; the demo seed and tests use this.
 */
export function legacyOrderValues(order: {
  userId: number;
  description: string;
  createdAt: Date;
}): typeof orders.$inferInsert {
  return {
    kind: 'legacy',
    userId: order.userId,
    description: order.description,
    priceId: 'legacy',
    currency: 'usd',
    baseAmountCents: 0,
    vatAmountCents: 0,
    totalAmountCents: 0,
    vatRateBp: 0,
    reverseCharge: false,
    billing: LEGACY_BILLING,
    provider: 'legacy',
    status: 'completed',
    createdAt: order.createdAt,
    updatedAt: order.createdAt,
    paymentCompletedAt: order.createdAt,
  };
}

/** Legacy orders kept no billing details: an empty snapshot (never printed: they have no invoice). */
const LEGACY_BILLING = {
  name: '',
  email: '',
  address: { line1: '', line2: null, city: '', state: null, postal_code: '', country: '' },
  is_business: false,
  company_name: null,
};
