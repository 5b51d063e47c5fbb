import { eq } from 'drizzle-orm';
import type { Tier } from '@keyport/shared/domain/tiers';
import { licenseKeys } from '../../src/db/schema';
import type { TestApp } from './test-app';

/** A new key of `tier`, minted by the keys service and claimed by the user (as adding it on the dashboard does). */
export async function ownedKey(t: TestApp, userId: number, tier: Tier = 'LITE'): Promise<string> {
  const [apiKey] = await t.app.services.keys.mintKeys(tier, 1);
  await t.db.update(licenseKeys).set({ ownerId: userId, claimedAt: new Date() }).where(eq(licenseKeys.apiKey, apiKey!));
  return apiKey!;
}

/** The key's tier as stored now. */
export async function tierOf(t: TestApp, apiKey: string): Promise<Tier | undefined> {
  const [row] = await t.db.select({ tier: licenseKeys.tier }).from(licenseKeys).where(eq(licenseKeys.apiKey, apiKey));
  return row?.tier;
}

/** Billing details of a German consumer (19% VAT), as `POST /stripe/payment-intents` takes them. */
export const GERMAN_CONSUMER = {
  name: 'Greta Kunde',
  email: 'greta@example.de',
  address: { line1: 'Hauptstraße 1', line2: null, city: 'Berlin', state: null, postal_code: '10115', country: 'DE' },
  is_business: false,
  company_name: null,
  vat_id: null,
};

/** The §7 PayPal create-order body (flat), LITE→PRO for a German consumer. */
export const paypalOrderBody = (key: string, extra: Record<string, unknown> = {}) => ({
  price_id: 'price_sandbox_lite_to_pro',
  theme_type: 'PRO',
  key,
  country_code: 'DE',
  vat_id: null,
  customer_name: 'Greta Kunde',
  customer_email: 'greta@example.de',
  company_name: null,
  billing_address: {
    line1: 'Hauptstraße 1',
    line2: null,
    city: 'Berlin',
    state: null,
    postal_code: '10115',
    country: 'DE',
  },
  metadata: { source: 'dashboard' },
  ...extra,
});
