import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/client';
import { createRateLimiter } from './http/rate-limit';
import { createLogEmailAdapter } from './integrations/email/log-adapter';
import { createOutbox } from './integrations/email/outbox';
import { createSharedState } from './integrations/shared-state/create-shared-state';
import type { EmailPort } from './integrations/email/port';
import { createSmtpEmailAdapter } from './integrations/email/smtp-adapter';
import { createLocalStorageAdapter } from './integrations/storage/local-adapter';
import type { StoragePort } from './integrations/storage/port';
import { createS3StorageAdapter } from './integrations/storage/s3-adapter';
import { createAuthService } from './modules/auth/auth.service';
import { createHomepageService } from './modules/homepage/homepage.service';
import { createConnectService } from './modules/connect/connect.service';
import type { ThemeTokenSigner } from './modules/connect/theme-token';
import { createKeysService } from './modules/keys/keys.service';
import { createBillingService } from './modules/billing/billing.service';
import { createPaymentsService } from './modules/payments/payments.service';
import { createAuditService } from './modules/audit/audit.service';
import { createInvoicesService, scheduleEurLineCompletion } from './modules/invoices/invoices.service';
import { createUpgradesService } from './modules/upgrades/upgrades.service';
import { createUpgradeTokenRedemption } from './modules/upgrades/upgrade-token-redemption.service';
import { createCreditsService } from './modules/credits/credits.service';
import { createCreditPacksService } from './modules/credits/credit-packs.service';
import { createCustomersAdminService } from './modules/customers-admin/customers-admin.service';
import { createPaymentProvider } from './integrations/payments/create-payment-provider';
import type { SandboxPaymentProvider } from './integrations/payments/sandbox-adapter';
import type { StripePaymentProvider } from './integrations/payments/stripe-adapter';
import { createPaypalProvider } from './integrations/paypal/create-paypal-provider';
import type { PaypalApiProvider } from './integrations/paypal/paypal-api-adapter';
import type { SandboxPaypalProvider } from './integrations/paypal/sandbox-adapter';
import { createPaypalCheckoutService } from './modules/payments/paypal-checkout.service';
import { createStaffOrdersService } from './modules/payments/staff-orders.service';
import { createOrderHistory } from './modules/payments/order-history.service';
import { createOrderDates } from './modules/payments/order-dates.service';
import { createOrderSweeper, scheduleOrderSweeps } from './modules/payments/order-sweeper';
import { createVatChecker } from './integrations/vies/create-vat-checker';
import { createExchangeRates } from './integrations/exchange-rates/create-exchange-rates';
import type { ExchangeRates } from './integrations/exchange-rates/port';
import type { VatNumberChecker } from './integrations/vies/port';
import { createDownloadLinks } from './modules/releases/download-link';
import { loadDownloadLinkSecret } from './modules/releases/download-link-secret';
import { createReleasesService } from './modules/releases/releases.service';
import { createServedReleases } from './modules/releases/served-releases.service';
import { createThemeFileUpdatesService } from './modules/theme-file-updates/theme-file-updates.service';
import { scheduleThemeFileUpdateJobs } from './modules/theme-file-updates/theme-file-update.job';
import { DEFAULT_THEME_ZIP_LIMITS } from './lib/theme-zip/scan';
import { createKlaviyoAdapter } from './integrations/analytics/klaviyo-adapter';
import type { AnalyticsPort } from './integrations/analytics/port';
import { createSandboxAnalyticsAdapter } from './integrations/analytics/sandbox-adapter';
import { createAnalyticsService, type DeliverySettings } from './modules/analytics/analytics.service';
import { createJobs } from './modules/jobs/jobs.service';
import { createStaffJobsService } from './modules/jobs/staff-jobs.service';
import { schedulePruneFinishedJobs } from './modules/jobs/prune-jobs.job';
import { createMemoryCheckinBuffer } from './integrations/shared-state/memory-checkins';
import type { CheckinBuffer, SessionRevocations } from './integrations/shared-state/port';
import { createCheckinFlusher } from './modules/licenses/checkin-flusher';
import { createKeyStateCache } from './modules/licenses/key-state-cache';
import { createLicensesService } from './modules/licenses/licenses.service';

/** The sandbox's stand-ins for Stripe price ids (a sandbox payment names its path's). */
const SANDBOX_PRICE_IDS = {
  LITE_TO_REGULAR: 'price_sandbox_lite_to_regular',
  REGULAR_TO_PRO: 'price_sandbox_regular_to_pro',
  LITE_TO_PRO: 'price_sandbox_lite_to_pro',
} as const;

const TOO_MANY_PAYMENTS = 'Too many payment attempts. Please wait a few minutes and try again.';

/** Adapters a caller may swap (tests use the same config-driven choice; this only lets them observe). */
export interface Adapters {
  email?: EmailPort;
  storage?: StoragePort;
  payments?: StripePaymentProvider | SandboxPaymentProvider;
  paypal?: PaypalApiProvider | SandboxPaypalProvider;
  vies?: VatNumberChecker;
  /** The euro reference rates (tests give the ECB adapter a clock of their own). */
  exchangeRates?: ExchangeRates;
  analytics?: AnalyticsPort;
  /** The analytics outbox's clock and retry timings (tests simulate a provider outage of minutes). */
  analyticsDelivery?: { now?: () => Date; settings?: Partial<DeliverySettings> };
  /** The job engine's clock and poll (tests play hours of retries in a moment, or poll only when they ask). */
  jobs?: { now?: () => Date; pollMs?: number };
  /** Where validation check-ins are counted before the flusher writes them (memory by default). */
  checkins?: CheckinBuffer;
  /** How ended sessions are announced to every process (shared state's by default; tests simulate Redis trouble). */
  revocations?: SessionRevocations;
}

/** Wires every service from config, the database and the adapters config selects. */
export interface Runtime {
  /** Signs theme auth tokens (created asynchronously before the services, see app.ts). */
  signer: ThemeTokenSigner;
  /** The port the server listens on, once it does (PORT=0 picks one): used for absolute links without PUBLIC_URL. */
  listeningPort: () => number | null;
  /**
   * Hands a signed provider event to the portal's own webhook route (the sandbox payment provider's delivery: the
   * same route and code that Stripe's events take).
   */
  deliverWebhook: (rawBody: string, signatureHeader: string) => Promise<{ statusCode: number }>;
  /** The same for the sandbox wallet: its signed PayPal-shaped events to the PayPal webhook route. */
  deliverPaypalWebhook: (rawBody: string, headers: Record<string, string>) => Promise<{ statusCode: number }>;
}

export function createServices(
  config: Config,
  db: Db,
  log: FastifyBaseLogger,
  runtime: Runtime,
  adapters: Adapters = {},
) {
  const email =
    adapters.email ??
    (config.email.smtpUrl
      ? createSmtpEmailAdapter(config.email.smtpUrl, config.email.from)
      : createLogEmailAdapter(log, { mask: config.email.maskLoggedEmails }));
  // One job engine for every after-commit effect (ADR 038): emails, analytics, the sandboxes' webhook deliveries.
  const jobs = createJobs({ db, log, now: adapters.jobs?.now, pollMs: adapters.jobs?.pollMs });
  schedulePruneFinishedJobs(jobs, db);
  const outbox = createOutbox({ db, jobs, port: email, log });
  // Rate-limit windows, session revocations and check-in counts: in Redis when REDIS_URL is set (ADR 032).
  const sharedState = createSharedState(config.sharedState, log);
  const limiter = (name: string, options: { max: number; windowMs: number; message?: string }) =>
    createRateLimiter(sharedState.windows, { name, ...options });
  const { max, windowMs } = config.authRateLimit;
  const addKey = config.addKeyRateLimit;
  const limits = {
    authByIp: limiter('authByIp', { max: max * 3, windowMs }),
    authByEmail: limiter('authByEmail', { max, windowMs }),
    signupByIp: limiter('signupByIp', { max: max * 3, windowMs }),
    addKeyByUser: limiter('addKeyByUser', { max: addKey.maxPerUser, windowMs: addKey.windowMs }),
    addKeyByIp: limiter('addKeyByIp', { max: addKey.maxPerIp, windowMs: addKey.windowMs }),
    paymentStarts: limiter('paymentStarts', { max: 20, windowMs: 10 * 60_000, message: TOO_MANY_PAYMENTS }),
    vatChecks: limiter('vatChecks', { max: 30, windowMs: 10 * 60_000 }),
    tokenRedeemByUser: limiter('tokenRedeemByUser', {
      max: config.upgradeTokenRateLimit.maxPerUser,
      windowMs: config.upgradeTokenRateLimit.windowMs,
    }),
    tokenRedeemByIp: limiter('tokenRedeemByIp', {
      max: config.upgradeTokenRateLimit.maxPerIp,
      windowMs: config.upgradeTokenRateLimit.windowMs,
    }),
    analyticsByUser: limiter('analyticsByUser', { max: 120, windowMs: 10 * 60_000 }),
    storeReportsByUser: limiter('storeReportsByUser', {
      max: 10,
      windowMs: 24 * 60 * 60_000,
      message: 'You have sent the most store reports allowed for today. Please try again tomorrow.',
    }),
    // Storefronts call it on page views: counted without a Redis round trip per request (ADR 031 "Performance").
    licenseValidateByIp: createRateLimiter(sharedState.batchedWindows, {
      name: 'licenseValidateByIp',
      max: config.licenses.validateRateLimitPerMinute,
      windowMs: 60_000,
    }),
    downloads: limiter('downloads', {
      ...config.downloads.rateLimit,
      message: 'Too many downloads. Please wait a few minutes and try again.',
    }),
  };
  const publicUrl = () =>
    config.publicUrl ??
    `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${runtime.listeningPort() ?? config.port}`;
  // `/auth/me`'s legacy order dates, read from the payments module's orders table (built first: auth is needed by most).
  const orderDates = createOrderDates({ db });
  const auth = createAuthService({
    orderDates,
    db,
    outbox,
    publicUrl,
    limits: { byIp: limits.authByIp, byEmail: limits.authByEmail },
    revocations: adapters.revocations ?? sharedState.revocations,
    log,
  });
  const keys = createKeysService({ db, addKeyLimits: { byUser: limits.addKeyByUser, byIp: limits.addKeyByIp } });
  const connect = createConnectService({ db, keys, signer: runtime.signer });
  const storage =
    adapters.storage ??
    (config.storage.kind === 's3'
      ? createS3StorageAdapter(config.storage)
      : createLocalStorageAdapter(config.storage.dir));
  const audit = createAuditService({ db, users: auth });
  // Which release each edition's customers get: read by the licenses service (key health) and the releases service.
  const servedReleases = createServedReleases({ db });
  // Issue 13 (ADR 031): validation reads key state from this process's cache, which the keys service's changes here
  // invalidate at once; check-ins are counted in the buffer and written by the flusher in batches.
  const keyStates = createKeyStateCache({
    load: (ids) => keys.findKeyStates(ids),
    ttlMs: config.licenses.keyStateTtlMs,
  });
  // A change in any process reaches every process's cache (at once in memory; through Redis with REDIS_URL, ADR 032).
  keys.onKeyStateChanged((keyId) => {
    keyStates.invalidate(keyId);
    void sharedState.keyStateChanges.announce(keyId).catch((error: unknown) => {
      log.warn({ err: error }, 'key state change not announced to the other processes');
    });
  });
  sharedState.keyStateChanges.onChanged((keyId) => keyStates.invalidate(keyId));
  const checkinBuffer = adapters.checkins ?? sharedState.checkins ?? createMemoryCheckinBuffer();
  const licenses = createLicensesService({
    db,
    keys,
    releases: servedReleases,
    auth,
    tokens: connect,
    keyStates,
    checkins: checkinBuffer,
    validateLimit: limits.licenseValidateByIp,
  });
  const releases = createReleasesService({
    db,
    storage,
    keys,
    audit,
    links: createDownloadLinks({
      secret: loadDownloadLinkSecret({ configured: config.downloads.linkSecret, dataDir: config.dataDir }),
      publicUrl,
    }),
    themeTokens: {
      verifySignature: (token) => connect.verifySignature(token),
      tokenForTier: (token, claims, tier) => connect.tokenForTier(token, claims, tier),
    },
    downloadLimit: limits.downloads,
    maxZipBytes: config.releases.maxBytes,
    // Covered check-ins as evidence of which store runs which release (the licenses module owns them).
    checkinEvidence: licenses.checkinEvidence,
    served: servedReleases,
  });
  const checkinFlusher = createCheckinFlusher({
    buffer: checkinBuffer,
    write: (batch) => licenses.writeCheckins(batch),
    intervalMs: config.licenses.checkinFlushMs,
    log,
  });
  const themeFileUpdates = createThemeFileUpdatesService({
    db,
    storage,
    keys,
    connect,
    releases,
    limits: { ...DEFAULT_THEME_ZIP_LIMITS, maxBytes: config.releases.maxBytes },
    jobs,
    workDir: path.join(config.dataDir, 'tmp'),
  });
  scheduleThemeFileUpdateJobs(jobs, themeFileUpdates);
  const paymentProvider =
    adapters.payments ?? createPaymentProvider(config.payments, { db, jobs, deliver: runtime.deliverWebhook });
  const vies = adapters.vies ?? createVatChecker(config, log);
  const analyticsSandbox = config.analytics.provider.kind === 'sandbox' ? createSandboxAnalyticsAdapter(db) : null;
  const analytics = createAnalyticsService({
    db,
    jobs,
    // null: analytics are off (production without KLAVIYO_PRIVATE_KEY): nothing is recorded.
    port:
      adapters.analytics ??
      (config.analytics.provider.kind === 'klaviyo'
        ? createKlaviyoAdapter(config.analytics.provider)
        : analyticsSandbox),
    resolveEmail: async (userId) => (await auth.loadUser(userId)).email,
    trackLimit: limits.analyticsByUser,
    delivery: adapters.analyticsDelivery?.settings,
    now: adapters.analyticsDelivery?.now,
  });
  const upgrades = createUpgradesService({ db, keys, audit, auth });
  const billing = createBillingService({
    db,
    vies,
    verifyLimit: limits.vatChecks,
    audit,
    users: auth,
    sellerCountry: config.sellerCountry,
  });
  const credits = createCreditsService({
    db,
    keys,
    connect,
    auth,
    audit,
    outbox,
    licenses,
    reportLimit: limits.storeReportsByUser,
  });
  const creditPacks = createCreditPacksService({ db, audit });
  const invoices = createInvoicesService({
    db,
    audit,
    seller: {
      name: config.sellerName,
      address: config.sellerAddress,
      vatId: config.sellerVatId,
      email: config.sellerEmail,
      country: config.sellerCountry,
    },
    // EU invoices show their VAT in EUR at the ECB reference rate (issue 19, ADR 036).
    exchangeRates: adapters.exchangeRates ?? createExchangeRates(config),
    log,
  });
  const payments = createPaymentsService({
    db,
    provider: paymentProvider,
    keys,
    upgrades,
    creditPacks,
    credits,
    billing,
    outbox,
    invoices,
    audit,
    publicUrl,
    analytics,
    startLimit: limits.paymentStarts,
    log,
  });
  // Built after payments, which it asks about the key's orders inside the redemption's transaction (ADR 035).
  const upgradeTokenRedemption = createUpgradeTokenRedemption({
    db,
    keys,
    tierGuard: payments,
    analytics,
    redeemLimits: { byUser: limits.tokenRedeemByUser, byIp: limits.tokenRedeemByIp },
  });
  const paypalProvider =
    adapters.paypal ?? createPaypalProvider(config.wallet, { db, jobs, deliver: runtime.deliverPaypalWebhook });
  const paypalCheckout = createPaypalCheckoutService({
    db,
    wallet: paypalProvider,
    core: payments.core,
    startLimit: limits.paymentStarts,
    publicUrl,
    log,
  });
  const orderHistory = createOrderHistory({ db, invoices });
  const staffOrders = createStaffOrdersService({ db, card: paymentProvider, wallet: paypalProvider, audit, auth, log });
  const orderSweeper = createOrderSweeper({
    db,
    card: payments,
    wallet: paypalCheckout,
    paypalProviders: ['paypal', 'paypal_sandbox'],
    log,
  });
  // Recurring jobs, once per period across all processes (ADR 038): abandoned orders expire and interrupted captures
  // resume (issue 19); invoices issued while the ECB did not answer get their VAT in EUR (ADR 036).
  scheduleOrderSweeps(jobs, orderSweeper);
  scheduleEurLineCompletion(jobs, invoices);
  // The §9 prices on first start; the sandbox has its own price ids, Stripe's are set by staff (PUT
  // /staff/upgrade-prices) — until then the dialog says 'No Price ID configured …'.
  const customersAdmin = createCustomersAdminService({
    db,
    auth,
    keys,
    connect,
    payments,
    orderHistory,
    themeFileUpdates,
    credits,
    audit,
    outbox,
  });
  const ensureCatalogue = async () => {
    await upgrades.ensureCatalogue(paymentProvider.name === 'sandbox' ? SANDBOX_PRICE_IDS : {});
    await creditPacks.ensureCatalogue(paymentProvider.name === 'sandbox');
  };
  return {
    db,
    /** The job engine: started when the app is ready, stopped (before the database closes) when it closes. */
    jobs,
    /** Staff's Jobs page: failed and dead jobs, and their retry. */
    staffJobs: createStaffJobsService({ db, jobs, audit }),
    outbox,
    /** Shared state (memory or Redis): closed with the app. */
    sharedState,
    limits,
    auth,
    keys,
    homepage: createHomepageService({ db, audit }),
    publicUrl,
    storage,
    releases,
    connect,
    themeFileUpdates,
    upgrades,
    /** Redeeming upgrade tokens (§7 /keys/upgrade/…). */
    upgradeTokenRedemption,
    billing,
    payments,
    creditPacks,
    analytics,
    /** The sandbox analytics adapter's deliveries (staff read them), present only while analytics run in the sandbox. */
    analyticsSandbox,
    /** Puts the upgrade price catalogue and the credit packs in place if missing (before the server answers, see app.ts). */
    ensureCatalogue,
    paymentProvider,
    /** The sandbox's confirmation step, present only while payments run in the sandbox. */
    sandboxPayments: paymentProvider.name === 'sandbox' ? paymentProvider : null,
    /** PayPal (Orders v2) into the card path's orders and fulfilment. */
    paypalCheckout,
    paypalProvider,
    /** Staff's orders: the list and refunds asked of the provider (issue 12). */
    staffOrders,
    /** The sandbox wallet's approval page and refunds, present only while the wallet runs in the sandbox. */
    sandboxPaypal: paypalProvider.name === 'paypal_sandbox' ? paypalProvider : null,
    audit,
    /** The credit ledger (grant, debit, clawback inside a caller's transaction), redeeming and store reports. */
    credits,
    invoices,
    /** Settings → Invoices: a customer's orders with their invoices and credit notes (issue 21). */
    orderHistory,
    /** Staff "Keys and customers" (issue 12): search, a customer's page, actions on their keys. */
    customersAdmin,
    /** Issue 13: the validation API, key health and sightings (ADR 031). */
    licenses,
    /** Writes buffered check-ins every few seconds (started and stopped with the app, app.ts). */
    checkinFlusher,
    /** Expires abandoned orders and resumes interrupted captures every few minutes (started and stopped with the app). */
    orderSweeper,
    /** Verifies a theme auth token: signed by us and still the key's current token. */
    themeTokens: { verify: connect.verify },
  };
}
export type Services = ReturnType<typeof createServices>;

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
