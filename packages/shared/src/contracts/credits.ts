import { z } from 'zod/mini';
import { BillingSchema, OrderQuoteSchema } from './payments';
import { defineContract } from './define';
import { StaffReasonSchema } from './staff';
import { KeySchema } from './keys';
import { idNumber, idString } from './ids';

/**
 * Credits (spec §1, §3, §5, §7; issue 11). Credits are money: the balance never goes below zero (the database
 * refuses it), a report never grants twice, a license is never minted without the debit that paid for it.
 */

/** §3 "Redeem product". `grant_type` 'license_level' with `grant_value` REGULAR or PRO is a license (§5). */
export const RedeemProductSchema = z.object({
  id: z.int(),
  name: z.string(),
  description: z.string(),
  grant_type: z.string(),
  grant_value: z.string(),
  cost_credits: z.int(),
});
export type RedeemProduct = z.infer<typeof RedeemProductSchema>;

/**
 * The caller's credits: `balance` is what can be spent; `owed` is what a clawback could not take back (redeeming waits
 * until it is repaid); `pending` is what store reports earned that staff have not approved yet (ADR 037): shown, never
 * spendable, added to `balance` when staff approve the report and dropped when they reject it.
 */
export const CreditsBalanceSchema = z.object({
  balance: z.int(),
  owed: z.int(),
  pending: z.int(),
  /** False once three of the caller's reports were rejected (§9: "false reports may lead to account restrictions"). */
  can_report: z.boolean(),
});
export type CreditsBalance = z.infer<typeof CreditsBalanceSchema>;

export const getCreditsBalance = defineContract({
  operationId: 'getCreditsBalance',
  method: 'GET',
  path: '/credits/balance',
  summary: "The caller's credit balance (the user menu and the credits dialogs show it)",
  tags: ['credits'],
  access: 'user',
  response: CreditsBalanceSchema,
});

export const CreditLedgerEntrySchema = z.object({
  id: z.int(),
  kind: z.enum(['grant', 'debit', 'purchase', 'clawback']),
  /** Signed: +1 for a report's credit, -2 for a license bought with 2 credits. */
  amount: z.int(),
  balance_after: z.int(),
  /** For people: 'Store report #12', 'REGULAR License', the staff member's note. */
  note: z.nullable(z.string()),
  created_at: z.string(),
});
export type CreditLedgerEntry = z.infer<typeof CreditLedgerEntrySchema>;

/**
 * One line of a customer's credit history (ADR 037): a ledger movement (`state` 'available': it changed the balance),
 * or a store report's credit that never reached the balance: 'pending' (waiting for staff) or 'dropped' (staff
 * rejected the report; it was never spendable).
 */
export const CreditHistoryEntrySchema = z.object({
  /** 'ledger-12' or 'report-5'. */
  id: z.string(),
  kind: z.enum(['grant', 'debit', 'purchase', 'clawback', 'report']),
  state: z.enum(['available', 'pending', 'dropped']),
  /** Signed change of the credits: +1 for a report's credit (also while pending), -5 for a license bought. */
  amount: z.int(),
  /** The balance after a ledger movement; null for a credit that never reached the balance. */
  balance_after: z.nullable(z.int()),
  /** What happened, for people: 'Store report #12 approved', 'REGULAR License', 'Added by our team'. */
  reason: z.string(),
  /** The staff member's note on a grant, a removal, an approval or a rejection; null otherwise. */
  note: z.nullable(z.string()),
  created_at: z.string(),
});
export type CreditHistoryEntry = z.infer<typeof CreditHistoryEntrySchema>;

/** Owner-scoped: the caller's own history only (the session's user; there is no user id to pass). */
export const getCreditHistory = defineContract({
  operationId: 'getCreditHistory',
  method: 'GET',
  path: '/credits/history',
  summary: "The caller's latest 50 credit history lines (ledger movements, pending and rejected report credits)",
  tags: ['credits'],
  access: 'user',
  response: z.object({ entries: z.array(CreditHistoryEntrySchema) }),
});

/** §7 GET /credits/redeem-products: the active products (the dialog filters and orders them, §5). */
export const getRedeemProducts = defineContract({
  operationId: 'getRedeemProducts',
  method: 'GET',
  path: '/credits/redeem-products',
  summary: 'What credits can buy',
  tags: ['credits'],
  access: 'user',
  response: z.object({ redeem_products: z.array(RedeemProductSchema), error: z.null() }),
});

/**
 * §7 POST /credits/redeem: debit the product's cost and mint a key of its tier for the caller, in one transaction;
 * the key is emailed after commit. Too few credits (or credits owed) is a 402 whose message contains 'insufficient'
 * (code `insufficient_credits`); an unknown or retired product a 404 (code `redeem_product_not_found`).
 */
export const redeemCredits = defineContract({
  operationId: 'redeemCredits',
  method: 'POST',
  path: '/credits/redeem',
  summary: 'Buy a license with credits',
  tags: ['credits'],
  access: 'user',
  body: z.object({ redeem_product_id: idNumber('Choose a license') }),
  response: z.object({ error: z.null(), key: KeySchema, balance: z.int() }),
});

/** §7 POST /keys/create ("defined but unused" by the web app): the same debit-and-mint for the tier's product. */
export const createKeyWithCredits = defineContract({
  operationId: 'createKeyWithCredits',
  method: 'POST',
  path: '/keys/create',
  summary: "Buy a license of a tier with credits (the tier's active license product)",
  tags: ['credits'],
  access: 'user',
  body: z.object({
    type: z.string().check(
      z.trim(),
      z.toUpperCase(),
      z.refine((type) => type === 'REGULAR' || type === 'PRO', 'type must be regular or pro'),
    ),
  }),
  response: z.object({ error: z.null(), key: KeySchema, balance: z.int() }),
});

export const REPORT_STORE_COUNT = 5;

/** §3 "Report row" as the server answers it: each submitted domain in order, with why it did or did not qualify. */
export const ReportValidationSchema = z.object({
  domain: z.string(),
  isValid: z.boolean(),
  /** A sentence a person understands ('Valid', 'This store holds a license of ours.'). */
  reason: z.string(),
});
export type ReportValidation = z.infer<typeof ReportValidationSchema>;

/**
 * §7 POST /credits/report-store. `ok` true: the report is stored for staff review and earns 1 credit, pending until
 * staff approve it (`credit` 'pending'), or available at once when the portal's own evidence of unlicensed copies
 * backs all five stores (`credit` 'available', ADR 037). `ok` false: nothing is stored; `validations` says why per
 * row. Limited per user per day (429 with Retry-After); an account with three rejected reports is refused (403, code
 * `reporting_restricted`). The server never fetches a domain.
 */
export const reportStores = defineContract({
  operationId: 'reportStores',
  method: 'POST',
  path: '/credits/report-store',
  summary: 'Report 5 stores running unlicensed copies; 1 credit (pending review) when all 5 qualify',
  tags: ['credits'],
  access: 'user',
  body: z.object({
    storeDomains: z.array(z.string().check(z.trim(), z.maxLength(300, 'That domain is too long'))).check(
      z.length(REPORT_STORE_COUNT, 'Please enter all 5 store domains.'),
      z.refine((rows) => rows.every((row) => row.trim() !== ''), 'Please enter all 5 store domains.'),
    ),
  }),
  response: z.object({
    ok: z.boolean(),
    validations: z.array(ReportValidationSchema),
    /** The balance after the report (unchanged when `ok` is false). */
    balance: z.int(),
    /** The credits pending review after the report. */
    pending: z.int(),
    /** What became of the report's credit; null when `ok` is false. */
    credit: z.nullable(z.enum(['pending', 'available'])),
  }),
});

/** A pack of credits team members buy (priced by staff). `price` is formatted ('$50.00'). */
export const CreditPackSchema = z.object({
  id: z.int(),
  name: z.string(),
  credits: z.int(),
  price: z.string(),
  price_cents: z.int(),
  /** null: not buyable by card (no provider price id configured). */
  priceId: z.nullable(z.string()),
});
export type CreditPack = z.infer<typeof CreditPackSchema>;

/** The credit packs on sale: team members only (§6); anyone else gets 403 (code `team_only`). */
export const getCreditPacks = defineContract({
  operationId: 'getCreditPacks',
  method: 'GET',
  path: '/credits/packs',
  summary: 'Credit packs on sale (team members only)',
  tags: ['credits'],
  access: 'user',
  response: z.object({ packs: z.array(CreditPackSchema) }),
});

const packId = idNumber('Choose a credit pack');

/**
 * Start paying for a credit pack by card (team members only): the same order table, VAT rules and fulfilment as an
 * upgrade. Settled by the same `/stripe/payment-intents/:id/sync` and webhook; a completed order adds a `purchase`
 * ledger row instead of raising a tier.
 */
export const createCreditPackPaymentIntent = defineContract({
  operationId: 'createCreditPackPaymentIntent',
  method: 'POST',
  path: '/credits/checkout/payment-intents',
  summary: 'Start paying for a credit pack by card (team members only)',
  tags: ['credits'],
  access: 'user',
  body: z.object({
    pack_id: packId,
    price_id: z.string().check(z.trim(), z.minLength(1, 'price_id is required'), z.maxLength(200)),
    billing: BillingSchema,
  }),
  response: z.object({
    payment_intent: z.object({ id: z.string(), client_secret: z.string() }),
    order: OrderQuoteSchema,
  }),
});

/** Start paying for a credit pack with PayPal (team members only); captured by `/stripe/paypal/capture-order`. */
export const createCreditPackPaypalOrder = defineContract({
  operationId: 'createCreditPackPaypalOrder',
  method: 'POST',
  path: '/credits/checkout/paypal/create-order',
  summary: 'Start paying for a credit pack with PayPal (team members only)',
  tags: ['credits'],
  access: 'user',
  body: z.object({
    pack_id: packId,
    price_id: z.string().check(z.trim(), z.minLength(1, 'No price configured'), z.maxLength(200)),
    billing: BillingSchema,
  }),
  response: z.object({
    order: z.object({ id: z.string() }),
    approve_url: z.string(),
    quote: OrderQuoteSchema,
  }),
});

// ---- Staff ----

const idParams = z.object({ id: idString('Invalid id') });

/**
 * Grant (amount > 0) or remove (amount < 0) credits by hand, with a reason: the audit row's reason and the ledger
 * entry's note the customer sees in their history (ADR 027). A removal never takes the
 * balance below zero (409, code `insufficient_credits`).
 */
export const staffAdjustCredits = defineContract({
  operationId: 'staffAdjustCredits',
  method: 'POST',
  path: '/staff/credits',
  summary: "Grant or remove a customer's credits (staff only)",
  tags: ['staff'],
  access: 'staff',
  body: z.object({
    email: z.string().check(z.trim(), z.toLowerCase(), z.email('Enter a valid email address'), z.maxLength(254)),
    amount: z.int().check(
      z.refine((n) => n !== 0, 'amount must not be 0'),
      z.minimum(-1000, 'amount must be at least -1000'),
      z.maximum(1000, 'amount must be at most 1000'),
    ),
    reason: StaffReasonSchema,
  }),
  response: z.object({ user_id: z.int(), balance: z.int(), owed: z.int(), entry: CreditLedgerEntrySchema }),
});

export const StaffRedeemProductSchema = z.extend(RedeemProductSchema, {
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type StaffRedeemProduct = z.infer<typeof StaffRedeemProductSchema>;

const redeemProductBody = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'A name is required'), z.maxLength(120)),
  description: z.string().check(z.trim(), z.maxLength(1000)),
  grant_type: z.string().check(z.trim(), z.minLength(1, 'grant_type is required'), z.maxLength(60)),
  grant_value: z.string().check(z.trim(), z.minLength(1, 'grant_value is required'), z.maxLength(60)),
  cost_credits: z.int().check(z.minimum(1, 'cost_credits must be at least 1'), z.maximum(10_000)),
  active: z.optional(z.boolean()),
  reason: StaffReasonSchema,
});

export const staffListRedeemProducts = defineContract({
  operationId: 'staffListRedeemProducts',
  method: 'GET',
  path: '/staff/redeem-products',
  summary: 'Every redeem product, retired ones too (staff only)',
  tags: ['staff'],
  access: 'staff',
  response: z.object({ redeem_products: z.array(StaffRedeemProductSchema) }),
});

export const staffCreateRedeemProduct = defineContract({
  operationId: 'staffCreateRedeemProduct',
  method: 'POST',
  path: '/staff/redeem-products',
  summary: 'Create a redeem product (staff only)',
  tags: ['staff'],
  access: 'staff',
  status: 201,
  body: redeemProductBody,
  response: z.object({ redeem_product: StaffRedeemProductSchema }),
});

export const staffUpdateRedeemProduct = defineContract({
  operationId: 'staffUpdateRedeemProduct',
  method: 'PUT',
  path: '/staff/redeem-products/:id',
  summary: 'Change a redeem product (staff only; past redemptions keep the cost they paid)',
  tags: ['staff'],
  access: 'staff',
  params: idParams,
  body: redeemProductBody,
  response: z.object({ redeem_product: StaffRedeemProductSchema }),
});

/** Retires the product (redemptions refer to it, so the row stays; it is no longer offered). */
export const staffDeleteRedeemProduct = defineContract({
  operationId: 'staffDeleteRedeemProduct',
  method: 'DELETE',
  path: '/staff/redeem-products/:id',
  summary: 'Retire a redeem product (staff only)',
  tags: ['staff'],
  access: 'staff',
  params: idParams,
  body: z.object({ reason: StaffReasonSchema }),
  status: 204,
});

export const StaffCreditPackSchema = z.extend(CreditPackSchema, { active: z.boolean() });
export type StaffCreditPack = z.infer<typeof StaffCreditPackSchema>;

const creditPackBody = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'A name is required'), z.maxLength(120)),
  credits: z.int().check(z.minimum(1, 'credits must be at least 1'), z.maximum(10_000)),
  amount_cents: z.int().check(z.minimum(50, 'amount_cents must be at least 50'), z.maximum(10_000_000)),
  provider_price_id: z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
  active: z.optional(z.boolean()),
  reason: StaffReasonSchema,
});

export const staffListCreditPacks = defineContract({
  operationId: 'staffListCreditPacks',
  method: 'GET',
  path: '/staff/credit-packs',
  summary: 'Every credit pack (staff only)',
  tags: ['staff'],
  access: 'staff',
  response: z.object({ packs: z.array(StaffCreditPackSchema) }),
});

export const staffCreateCreditPack = defineContract({
  operationId: 'staffCreateCreditPack',
  method: 'POST',
  path: '/staff/credit-packs',
  summary: 'Create a credit pack (staff only)',
  tags: ['staff'],
  access: 'staff',
  status: 201,
  body: creditPackBody,
  response: z.object({ pack: StaffCreditPackSchema }),
});

export const staffUpdateCreditPack = defineContract({
  operationId: 'staffUpdateCreditPack',
  method: 'PUT',
  path: '/staff/credit-packs/:id',
  summary: 'Change a credit pack (staff only; orders keep the price they were quoted)',
  tags: ['staff'],
  access: 'staff',
  params: idParams,
  body: creditPackBody,
  response: z.object({ pack: StaffCreditPackSchema }),
});

export const StoreReportStatusSchema = z.enum(['pending', 'approved', 'rejected']);

/** What the portal knows about a reported domain now (issue 12: the staff review). */
export const ReportedDomainFactsSchema = z.object({
  /** Keys of ours connected to the store (any owner): it may be licensed after all. */
  licensed_keys: z.int(),
  /** One of those keys is the reporter's own. */
  reporter_holds_key: z.boolean(),
  /** Reports of the same store by other users. */
  other_reports: z.int(),
  /** Issue 13: validation check-ins from the store with a token no key of ours covers (evidence of a pirated copy). */
  sightings: z.nullable(z.object({ checkins: z.int(), first_seen_at: z.string(), last_seen_at: z.string() })),
});

export type ReportedDomainFacts = z.infer<typeof ReportedDomainFactsSchema>;

/**
 * What became of a report's credit (ADR 037): 'pending' until staff decide, 'added' to the balance (approved; or a
 * report sent before reviews held credits back), 'dropped' (rejected before it was ever spendable), 'taken_back'
 * (rejected after it had been added: clawed back).
 */
export const ReportCreditStateSchema = z.enum(['pending', 'added', 'dropped', 'taken_back']);
export type ReportCreditState = z.infer<typeof ReportCreditStateSchema>;

export const StaffStoreReportSchema = z.object({
  id: z.int(),
  status: StoreReportStatusSchema,
  credit: z.object({ amount: z.int(), state: ReportCreditStateSchema }),
  reporter: z.object({
    id: z.int(),
    email: z.string(),
    rejected_reports: z.int(),
    /** The reporter's reports by status (this one included): their history. */
    reports: z.object({ pending: z.int(), approved: z.int(), rejected: z.int() }),
  }),
  domains: z.array(
    z.object({
      domain: z.string(),
      submitted: z.string(),
      /** The row's check as the customer saw it when submitting (a stored report passed all five). */
      validation: z.object({ isValid: z.boolean(), reason: z.string() }),
      known: ReportedDomainFactsSchema,
    }),
  ),
  created_at: z.string(),
  reviewed_at: z.nullable(z.string()),
  reviewed_by: z.nullable(z.object({ id: z.int(), email: z.string() })),
  /** Approved by the portal on its own evidence (every domain seen running an unlicensed copy), not by a person. */
  reviewed_automatically: z.boolean(),
  review_note: z.nullable(z.string()),
});
export type StaffStoreReport = z.infer<typeof StaffStoreReportSchema>;

/** The report queue: pending first (oldest first), then the rest newest first; cursor-paged. */
export const staffListReports = defineContract({
  operationId: 'staffListReports',
  method: 'GET',
  path: '/staff/reports',
  summary: 'Store reports to review (staff only)',
  tags: ['staff'],
  access: 'staff',
  query: z.object({
    status: z.optional(StoreReportStatusSchema),
    cursor: z.optional(idString('Invalid cursor')),
    limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100))),
  }),
  response: z.object({ reports: z.array(StaffStoreReportSchema), next_cursor: z.nullable(z.string()) }),
});

/**
 * Approve a pending report with a note (the audit row's reason): its pending credit is added to the reporter's balance
 * at once (one ledger row, once, however many approvals race). 409 (code `report_already_reviewed`) once decided.
 */
export const staffApproveReport = defineContract({
  operationId: 'staffApproveReport',
  method: 'POST',
  path: '/staff/reports/:id/approve',
  summary: 'Approve a store report (staff only)',
  tags: ['staff'],
  access: 'staff',
  params: idParams,
  body: z.object({ note: StaffReasonSchema }),
  response: z.object({ report: StaffStoreReportSchema }),
});

/**
 * Reject a pending report: its pending credit is dropped (never spendable; a report sent before ADR 037, whose credit
 * was added at once, has it clawed back: what was already spent is owed), and a third rejection restricts the reporter
 * from reporting. 409 (code `report_already_reviewed`) once decided.
 */
export const staffRejectReport = defineContract({
  operationId: 'staffRejectReport',
  method: 'POST',
  path: '/staff/reports/:id/reject',
  summary: 'Reject a store report and drop its pending credit (staff only)',
  tags: ['staff'],
  access: 'staff',
  params: idParams,
  body: z.object({ note: StaffReasonSchema }),
  response: z.object({ report: StaffStoreReportSchema, balance: z.int(), owed: z.int() }),
});
