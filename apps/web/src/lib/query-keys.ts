/**
 * Every TanStack Query key of the web app, in one place: features read and invalidate through these, never through
 * string literals, so a key cannot drift between the query that fills it and the mutation that refreshes it.
 */
export const queryKeys = {
  me: ['me'] as const,
  keys: ['keys'] as const,
  /** GET /keys/health (issue 13: license health on each key card). */
  keysHealth: ['keys-health'] as const,
  keyToken: (licenseKey: string) => ['key-token', licenseKey] as const,
  userStores: ['user-stores'] as const,
  homepageFeed: ['homepage-feed'] as const,
  publicConfig: ['public-config'] as const,
  purchasedUpgrades: ['purchased-upgrades'] as const,
  /** GET /orders: Settings → Invoices (issue 21). */
  myOrders: ['my-orders'] as const,
  countries: ['countries'] as const,
  stripeConfig: ['stripe-config'] as const,
  paypalConfig: ['paypal-config'] as const,
  /** Every key's options (to invalidate them all); `upgradeOptions(key)` for one. */
  upgradeOptionsAll: ['upgrade-options'] as const,
  upgradeOptions: (licenseKey: string) => ['upgrade-options', licenseKey] as const,
  vatQuote: (body: object) => ['vat-quote', body] as const,
  vatRates: ['vat-rates'] as const,
  /** GET /keys/list_keys_upgrade (§5 upgrade file options). */
  upgradableKeys: ['upgradable-keys'] as const,
  themeFileUpdatePreview: (sourceKey: string, targetKey: string) =>
    ['theme-file-update-preview', sourceKey, targetKey] as const,
  /** Every key's runs (to invalidate them all); `themeFileUpdateRuns(key)` for one. */
  themeFileUpdateRunsAll: ['theme-file-update-runs'] as const,
  themeFileUpdateRuns: (licenseKey: string) => ['theme-file-update-runs', licenseKey] as const,
  themeFileUpdateRun: (id: string) => ['theme-file-update-run', id] as const,
  /** GET /credits/balance (user menu, credits dialogs). */
  creditsBalance: ['credits-balance'] as const,
  creditHistory: ['credit-history'] as const,
  /** GET /credits/redeem-products (dialog 9). */
  redeemProducts: ['redeem-products'] as const,
  /** GET /credits/packs (team members' credits checkout). */
  creditPacks: ['credit-packs'] as const,
  /**
   * The staff console (issue 12): `staff(resource)` covers every query of one resource (to invalidate them all),
   * `staff(resource, input)` is one query (e.g. a page of a table with its filters and cursor).
   */
  staff: (resource: string, ...input: unknown[]) => ['staff', resource, ...input] as const,
};
