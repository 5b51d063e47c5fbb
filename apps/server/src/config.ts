import path from 'node:path';
import { z } from 'zod';

const booleanFlag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

/** Every environment variable Keyport reads. Documented in the README's configuration table. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /**
   * Issue 19: in production every integration that has a sandbox (card payments, PayPal, VIES, email) must be the real
   * one, or the start fails; `true` lets a demo deployment run on the sandboxes (every page then says so).
   */
  SANDBOX_INTEGRATIONS: booleanFlag.default(false),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url().optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  SEED: booleanFlag.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  EMAIL_FROM: z.string().min(3).default('Keyport <no-reply@keyport.local>'),
  WEB_DIST_DIR: z.string().optional(),
  TRUST_PROXY: booleanFlag.default(false),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(1000),
  AUTH_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(10),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
  ADD_KEY_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(10),
  ADD_KEY_RATE_LIMIT_MAX_PER_IP: z.coerce.number().int().positive().default(30),
  ADD_KEY_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
  UPGRADE_TOKEN_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(10),
  UPGRADE_TOKEN_RATE_LIMIT_MAX_PER_IP: z.coerce.number().int().positive().default(30),
  UPGRADE_TOKEN_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
  TOKEN_SIGNING_KEY: z.string().min(1).optional(),
  /** Issue 13 (ADR 031): validations per minute per IP on POST /api/licenses/validate. */
  LICENSE_VALIDATE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(1200),
  /** How long a process trusts its cached key state (token version, owner, tier) when validating. */
  LICENSE_KEY_STATE_TTL_SECONDS: z.coerce.number().int().min(1).max(300).default(30),
  /** How often buffered validation check-ins are written to the database. */
  CHECKIN_FLUSH_SECONDS: z.coerce.number().int().min(1).max(3600).default(5),
  /** 512 MiB by default; below 4 GiB (no zip64). */
  RELEASE_MAX_BYTES: z.coerce.number().int().positive().max(4_000_000_000).default(536_870_912),
  DOWNLOAD_LINK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  DOWNLOAD_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(30),
  DOWNLOAD_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: z.url().optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/, 'must be a Stripe secret or restricted key (sk_test_…, sk_live_…)')
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_[A-Za-z0-9_]+$/, 'must be a Stripe publishable key (pk_test_…, pk_live_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9_]+$/, 'must be a Stripe webhook signing secret (whsec_…)')
    .optional(),
  /** Another Stripe API address (stripe-mock, a local fake): http(s)://host:port. */
  STRIPE_API_BASE: z.url().optional(),
  /** PayPal (Orders v2): with a client id, PayPal itself; unset: the offline sandbox wallet (the portal's own page). */
  PAYPAL_CLIENT_ID: z.string().trim().min(1).optional(),
  PAYPAL_CLIENT_SECRET: z.string().trim().min(1).optional(),
  PAYPAL_WEBHOOK_ID: z.string().trim().min(1).optional(),
  /** PayPal's own two environments (api-m.sandbox.paypal.com or api-m.paypal.com). */
  PAYPAL_ENV: z.enum(['sandbox', 'live']).default('sandbox'),
  /** Another PayPal API address (a local fake): http(s)://host:port. */
  PAYPAL_API_BASE: z.url().optional(),
  VIES_ADAPTER: z.enum(['sandbox', 'vies']).default('sandbox'),
  VIES_API_URL: z.url().default('https://ec.europa.eu/taxation_customs/vies/rest-api'),
  VIES_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(8000),
  /** The seller's legal name on invoices and credit notes (required in production; elsewhere the demo seller's). */
  SELLER_NAME: z.string().trim().min(1).max(120).optional(),
  /** The seller's own VAT ID: sent to VIES as the requester, so VIES answers with a consultation number. */
  SELLER_VAT_ID: z
    .string()
    .regex(/^[A-Za-z]{2}[A-Za-z0-9+*]{2,13}$/, 'must be a VAT ID with its country prefix, e.g. IE6388047V')
    .optional(),
  /** The seller's postal address on invoices: lines separated by '|', e.g. '1 Main St|Dublin D02 XY45|Ireland'. */
  SELLER_ADDRESS: z.string().trim().max(400).optional(),
  /** The seller's contact email on invoices. */
  SELLER_EMAIL: z.email().optional(),
  /**
   * The seller's own country (ISO 3166-1 alpha-2), printed by name on invoices; a business there is never reverse
   * charged (a domestic supply). Unset: the country of SELLER_VAT_ID's prefix (EL → GR), if any.
   */
  SELLER_COUNTRY: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'must be a two-letter ISO country code, e.g. IE')
    .optional(),
  /** Exchange rates for the EUR amounts of EU invoices: `ecb` reads the ECB's daily reference rates; `sandbox`: fixed rates. */
  EXCHANGE_RATES_ADAPTER: z.enum(['sandbox', 'ecb']).default('sandbox'),
  /** Where the ECB publishes the euro reference rates (eurofxref-daily.xml and eurofxref-hist-90d.xml under it). */
  ECB_RATES_URL: z.url().default('https://www.ecb.europa.eu/stats/eurofxref'),
  ECB_TIMEOUT_MS: z.coerce.number().int().min(200).max(60_000).default(5000),
  SHOP_URL: z.url().default('https://example.com/shop'),
  PRODUCT_URL: z.url().default('https://example.com/products/theme'),
  APP_STORE_URL: z.url().default('https://apps.shopify.com/'),
  SELL_STORE_FORM_URL: z.url().default('https://example.com/sell-your-store'),
  /** Klaviyo's private API key (pk_…): analytics go to Klaviyo; unset: the sandbox analytics adapter. */
  KLAVIYO_PRIVATE_KEY: z
    .string()
    .regex(/^pk_[A-Za-z0-9_]+$/, 'must be a Klaviyo private API key (pk_…)')
    .optional(),
  /** Another Klaviyo API address (a local fake in tests). */
  KLAVIYO_API_BASE: z.url().default('https://a.klaviyo.com'),
  KLAVIYO_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** An embeddable video URL; unset (or empty): the connection panel shows no setup-guide player at all. */
  SETUP_GUIDE_VIDEO_URL: z.union([z.literal(''), z.url()]).optional(),
  /** Shared state for several processes (rate limits, sign-outs, check-in counts); unset: in process memory. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  /** Put before every Redis key and channel Keyport uses, so deployments can share one Redis. */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]{1,64}$/, 'must be 1 to 64 letters, digits, ":", "_" or "-"')
    .default('keyport:'),
  /** Processes serving the port (Node's cluster); above 1 needs DATABASE_URL and REDIS_URL. */
  WORKERS: z.coerce.number().int().min(1).max(64).default(1),
});

export type Config = ReturnType<typeof loadConfig>;

/**
 * Parses the environment once. A bad value stops the start with a message naming the variable.
 * Everything else in the server receives the typed result.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const payments = paymentsConfig(e);
  const wallet = paypalConfig(e);
  const production = e.NODE_ENV === 'production';
  const problems = production ? productionProblems(e, payments, wallet) : [];
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  }
  const seller = sellerConfig(e);
  if (e.WORKERS > 1 && !e.DATABASE_URL) {
    throw new ConfigError(
      `Invalid configuration:\n  WORKERS: ${e.WORKERS} workers need DATABASE_URL (PostgreSQL): the embedded database is one process's, and two processes on it would lose data`,
    );
  }
  if (e.WORKERS > 1 && !e.REDIS_URL) {
    throw new ConfigError(
      `Invalid configuration:\n  WORKERS: ${e.WORKERS} workers need REDIS_URL: rate limits and sign-outs must be shared by every process`,
    );
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL ?? null,
    database: e.DATABASE_URL
      ? ({ kind: 'postgres', url: e.DATABASE_URL } as const)
      : ({ kind: 'pglite', dataDir } as const),
    dataDir,
    seed: e.SEED,
    sharedState: e.REDIS_URL
      ? ({ kind: 'redis', url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX } as const)
      : ({ kind: 'memory' } as const),
    workers: e.WORKERS,
    logLevel: e.LOG_LEVEL,
    email: {
      smtpUrl: e.SMTP_URL ?? null,
      from: e.EMAIL_FROM,
      // Production without SMTP (only with SANDBOX_INTEGRATIONS): the log shows no key, token or link in full.
      maskLoggedEmails: production,
    },
    sandbox: sandboxSummary(e, payments, wallet),
    webDistDir: e.WEB_DIST_DIR ?? null,
    trustProxy: e.TRUST_PROXY,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    authRateLimit: { max: e.AUTH_RATE_LIMIT_MAX, windowMs: e.AUTH_RATE_LIMIT_WINDOW_SECONDS * 1000 },
    addKeyRateLimit: {
      maxPerUser: e.ADD_KEY_RATE_LIMIT_MAX,
      maxPerIp: e.ADD_KEY_RATE_LIMIT_MAX_PER_IP,
      windowMs: e.ADD_KEY_RATE_LIMIT_WINDOW_SECONDS * 1000,
    },
    upgradeTokenRateLimit: {
      maxPerUser: e.UPGRADE_TOKEN_RATE_LIMIT_MAX,
      maxPerIp: e.UPGRADE_TOKEN_RATE_LIMIT_MAX_PER_IP,
      windowMs: e.UPGRADE_TOKEN_RATE_LIMIT_WINDOW_SECONDS * 1000,
    },
    tokenSigningKey: e.TOKEN_SIGNING_KEY ?? null,
    licenses: {
      validateRateLimitPerMinute: e.LICENSE_VALIDATE_RATE_LIMIT_PER_MINUTE,
      keyStateTtlMs: e.LICENSE_KEY_STATE_TTL_SECONDS * 1000,
      checkinFlushMs: e.CHECKIN_FLUSH_SECONDS * 1000,
    },
    releases: { maxBytes: e.RELEASE_MAX_BYTES },
    downloads: {
      linkSecret: e.DOWNLOAD_LINK_SECRET ?? null,
      rateLimit: { max: e.DOWNLOAD_RATE_LIMIT_MAX, windowMs: e.DOWNLOAD_RATE_LIMIT_WINDOW_SECONDS * 1000 },
    },
    storage: storageConfig(e, dataDir),
    payments,
    wallet,
    vies:
      e.VIES_ADAPTER === 'vies'
        ? ({ kind: 'vies', baseUrl: e.VIES_API_URL, timeoutMs: e.VIES_TIMEOUT_MS } as const)
        : ({ kind: 'sandbox' } as const),
    analytics: {
      provider: e.KLAVIYO_PRIVATE_KEY
        ? ({
            kind: 'klaviyo',
            privateKey: e.KLAVIYO_PRIVATE_KEY,
            baseUrl: e.KLAVIYO_API_BASE,
            timeoutMs: e.KLAVIYO_TIMEOUT_MS,
          } as const)
        : // Production without a key (and without the sandbox opt-in): no analytics at all, and the start log says so.
          production && !e.SANDBOX_INTEGRATIONS
          ? ({ kind: 'off' } as const)
          : ({ kind: 'sandbox' } as const),
    },
    sellerVatId: seller.vatId,
    sellerName: seller.name,
    sellerAddress: seller.address,
    sellerEmail: e.SELLER_EMAIL ?? null,
    sellerCountry: sellerCountryOf(e, seller.vatId),
    exchangeRates:
      e.EXCHANGE_RATES_ADAPTER === 'ecb'
        ? ({ kind: 'ecb', baseUrl: e.ECB_RATES_URL, timeoutMs: e.ECB_TIMEOUT_MS } as const)
        : ({ kind: 'sandbox' } as const),
    links: {
      shopUrl: e.SHOP_URL,
      productUrl: e.PRODUCT_URL,
      appStoreUrl: e.APP_STORE_URL,
      sellStoreFormUrl: e.SELL_STORE_FORM_URL,
      setupGuideVideoUrl: e.SETUP_GUIDE_VIDEO_URL || null,
    },
  };
}

/** SELLER_COUNTRY, else the country of the seller's VAT ID prefix (Greece's EL is GR; an OSS 'EU…' number is none). */
function sellerCountryOf(e: Env, vatId: string | null): string | null {
  if (e.SELLER_COUNTRY) return e.SELLER_COUNTRY.toUpperCase();
  const prefix = vatId?.slice(0, 2).toUpperCase();
  if (!prefix || prefix === 'EU') return null;
  return prefix === 'EL' ? 'GR' : prefix;
}

type Env = z.infer<typeof EnvSchema>;
type PaymentsConfig = ReturnType<typeof paymentsConfig>;
type PaypalConfig = ReturnType<typeof paypalConfig>;

const OR_SANDBOX =
  'SANDBOX_INTEGRATIONS: or set SANDBOX_INTEGRATIONS=true to run a demo on the sandboxes (no real money; every page says so)';

/**
 * Issue 19: what production refuses to start without, one line per variable to set. An integration that would run on
 * a sandbox (the portal's own, or the provider's test mode) lets anyone upgrade for free, so each is a problem unless
 * the operator opted in with SANDBOX_INTEGRATIONS=true. Invoices need the seller's identity in every case.
 */
function productionProblems(e: Env, payments: PaymentsConfig, wallet: PaypalConfig): string[] {
  const problems: string[] = [];
  if (!e.SANDBOX_INTEGRATIONS) {
    if (payments.kind === 'sandbox') {
      problems.push(
        'STRIPE_SECRET_KEY: production takes card payments with Stripe: set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET',
      );
    } else if (!payments.secretKey.includes('_live_')) {
      problems.push(
        "STRIPE_SECRET_KEY: test-mode keys take no real money (Stripe's test cards pay): set live keys (sk_live_…, pk_live_…)",
      );
    }
    if (wallet.kind === 'sandbox') {
      problems.push(
        'PAYPAL_CLIENT_ID: production takes PayPal payments with PayPal: set PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, PAYPAL_WEBHOOK_ID and PAYPAL_ENV=live',
      );
    } else if (wallet.environment !== 'live') {
      problems.push("PAYPAL_ENV: PayPal's sandbox takes no real money: set PAYPAL_ENV=live (with live credentials)");
    }
    if (e.VIES_ADAPTER !== 'vies') {
      problems.push('VIES_ADAPTER: production checks EU VAT numbers with the EU VIES service: set VIES_ADAPTER=vies');
    }
    if (!e.SMTP_URL) problems.push('SMTP_URL: production sends its emails: set SMTP_URL (smtp:// or smtps://)');
    if (e.EXCHANGE_RATES_ADAPTER !== 'ecb') {
      problems.push(
        "EXCHANGE_RATES_ADAPTER: EU invoices show their VAT in EUR at the ECB's reference rate: set EXCHANGE_RATES_ADAPTER=ecb",
      );
    }
    if (problems.length > 0) problems.push(OR_SANDBOX);
  }
  if (!e.SELLER_NAME) problems.push("SELLER_NAME: invoices need the seller's legal name: set SELLER_NAME");
  if (sellerAddressLines(e).length === 0) {
    problems.push("SELLER_ADDRESS: invoices need the seller's address: set SELLER_ADDRESS (lines separated by '|')");
  }
  if (!e.SELLER_VAT_ID) problems.push("SELLER_VAT_ID: invoices need the seller's VAT ID: set SELLER_VAT_ID");
  else if (!sellerCountryOf(e, e.SELLER_VAT_ID.toUpperCase())) {
    problems.push(
      "SELLER_COUNTRY: the seller's country decides domestic VAT and is printed on invoices: set SELLER_COUNTRY (e.g. IE)",
    );
  }
  return problems;
}

/**
 * The seller invoices name. Outside production an unset value is the demo seller's (a realistic, invented UK company:
 * its GB number is never sent to VIES as the requester); production requires all three (productionProblems).
 */
export const DEMO_SELLER = {
  name: 'Keyport Themes Ltd',
  address: ['1 Sandbox Street', 'London EC1A 1BB'],
  vatId: 'GB123456789',
} as const;

function sellerAddressLines(e: Env): string[] {
  return (e.SELLER_ADDRESS ?? '')
    .split('|')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

function sellerConfig(e: Env): { name: string; address: string[]; vatId: string | null } {
  const address = sellerAddressLines(e);
  return {
    name: e.SELLER_NAME ?? DEMO_SELLER.name,
    address: address.length > 0 ? address : [...DEMO_SELLER.address],
    vatId: e.SELLER_VAT_ID ? e.SELLER_VAT_ID.toUpperCase() : DEMO_SELLER.vatId,
  };
}

/**
 * What runs on a sandbox. `noRealMoney`: card payments or PayPal cannot take real money (the portal's sandboxes, or
 * the providers' test modes); the web app then shows its "Sandbox — no real money" banner on every page.
 */
function sandboxSummary(e: Env, payments: PaymentsConfig, wallet: PaypalConfig) {
  const integrations = [
    ...(payments.kind === 'sandbox' ? ['card payments'] : []),
    ...(wallet.kind === 'sandbox' ? ['PayPal'] : []),
    ...(e.VIES_ADAPTER === 'vies' ? [] : ['VIES']),
    ...(e.SMTP_URL ? [] : ['email']),
    ...(e.EXCHANGE_RATES_ADAPTER === 'ecb' ? [] : ['exchange rates']),
  ];
  const liveCards = payments.kind === 'stripe' && payments.secretKey.includes('_live_');
  const livePaypal = wallet.kind === 'paypal' && wallet.environment === 'live';
  return { optedIn: e.SANDBOX_INTEGRATIONS, integrations, noRealMoney: !liveCards || !livePaypal };
}

/**
 * What the start log says about the integrations, beyond errors (server.ts logs each line as a warning): production
 * running on sandboxes by the operator's choice, and analytics that are off.
 */
export function startNotices(config: Config): string[] {
  const notices: string[] = [];
  if (config.env === 'production' && config.sandbox.integrations.length > 0) {
    notices.push(
      `SANDBOX_INTEGRATIONS=true: ${config.sandbox.integrations.join(', ')} run on their sandboxes; no real money is taken, and every page says so`,
    );
  }
  if (config.analytics.provider.kind === 'off') {
    notices.push('Analytics are off: KLAVIYO_PRIVATE_KEY is not set');
  }
  return notices;
}

/** Where release zips live: an S3-compatible bucket when S3_BUCKET is set, else DATA_DIR/releases. */
function storageConfig(e: Env, dataDir: string) {
  if (!e.S3_BUCKET) return { kind: 'local', dir: path.join(dataDir, 'releases') } as const;
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      'Invalid configuration:\n  S3_ACCESS_KEY_ID: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither',
    );
  }
  return {
    kind: 's3',
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT ?? null,
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : null,
    /** Files downloaded from the bucket for the zip rewrite (it needs random access). */
    cacheDir: path.join(dataDir, 'cache', 's3'),
  } as const;
}

/**
 * Card payments: Stripe when STRIPE_SECRET_KEY is set (then the publishable key and the webhook secret are required:
 * without the secret no payment could ever be confirmed by a webhook), else the offline sandbox.
 */
function paymentsConfig(e: Env) {
  if (!e.STRIPE_SECRET_KEY) {
    if (e.STRIPE_PUBLISHABLE_KEY || e.STRIPE_WEBHOOK_SECRET) {
      throw new ConfigError(
        'Invalid configuration:\n  STRIPE_SECRET_KEY: set it together with STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET, or none of them (sandbox payments)',
      );
    }
    return { kind: 'sandbox' } as const;
  }
  const missing = [
    ['STRIPE_PUBLISHABLE_KEY', e.STRIPE_PUBLISHABLE_KEY],
    ['STRIPE_WEBHOOK_SECRET', e.STRIPE_WEBHOOK_SECRET],
  ].filter(([, value]) => !value);
  if (missing.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n${missing.map(([name]) => `  ${name}: required when STRIPE_SECRET_KEY is set`).join('\n')}`,
    );
  }
  const live = e.STRIPE_SECRET_KEY.includes('_live_');
  if (live !== e.STRIPE_PUBLISHABLE_KEY!.startsWith('pk_live_')) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_PUBLISHABLE_KEY: test and live keys are mixed (use both test or both live keys)',
    );
  }
  return {
    kind: 'stripe',
    secretKey: e.STRIPE_SECRET_KEY,
    publishableKey: e.STRIPE_PUBLISHABLE_KEY!,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
    apiBase: e.STRIPE_API_BASE ?? null,
  } as const;
}

/**
 * The wallet: PayPal when PAYPAL_CLIENT_ID is set (then its secret and the webhook id are required: without the id no
 * webhook could be verified), else the offline sandbox wallet.
 */
function paypalConfig(e: Env) {
  if (!e.PAYPAL_CLIENT_ID) {
    if (e.PAYPAL_CLIENT_SECRET || e.PAYPAL_WEBHOOK_ID) {
      throw new ConfigError(
        'Invalid configuration:\n  PAYPAL_CLIENT_ID: set it together with PAYPAL_CLIENT_SECRET and PAYPAL_WEBHOOK_ID, or none of them (sandbox wallet)',
      );
    }
    return { kind: 'sandbox' } as const;
  }
  const missing = [
    ['PAYPAL_CLIENT_SECRET', e.PAYPAL_CLIENT_SECRET],
    ['PAYPAL_WEBHOOK_ID', e.PAYPAL_WEBHOOK_ID],
  ].filter(([, value]) => !value);
  if (missing.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n${missing.map(([name]) => `  ${name}: required when PAYPAL_CLIENT_ID is set`).join('\n')}`,
    );
  }
  return {
    kind: 'paypal',
    clientId: e.PAYPAL_CLIENT_ID,
    clientSecret: e.PAYPAL_CLIENT_SECRET!,
    webhookId: e.PAYPAL_WEBHOOK_ID!,
    environment: e.PAYPAL_ENV,
    apiBase: e.PAYPAL_API_BASE ?? null,
  } as const;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}
