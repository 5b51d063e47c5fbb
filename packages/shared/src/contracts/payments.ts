import { z } from 'zod/mini';
import { TIERS } from '../domain/tiers';
import { defineContract } from './define';
import { KeySchema } from './keys';
import { StaffCursorSchema, StaffPageLimitSchema, StaffReasonSchema, StaffSortOrderSchema } from './staff';
import { idString } from './ids';

/** §7 GET /stripe/config: what the browser needs to load the card form (no auth). */
export const getStripeConfig = defineContract({
  operationId: 'getStripeConfig',
  method: 'GET',
  path: '/stripe/config',
  summary: "The card provider's publishable key (pk_sandbox_… when payments run in the offline sandbox)",
  tags: ['payments'],
  access: 'public',
  response: z.object({ publishableKey: z.string() }),
});

const text = (max: number, required?: string) =>
  required
    ? z.string().check(z.trim(), z.minLength(1, required), z.maxLength(max, `At most ${max} characters`))
    : z.string().check(z.trim(), z.maxLength(max, `At most ${max} characters`));

/** §3 "Billing details" as the server receives them (the rules are packages/shared/src/domain/billing.ts). */
export const BillingSchema = z.object({
  name: text(200, 'Enter your name'),
  email: z
    .string()
    .check(z.trim(), z.toLowerCase(), z.email('Enter a valid email address'), z.maxLength(254, 'Email is too long')),
  address: z.object({
    line1: text(200, 'Enter your address'),
    line2: z.optional(z.nullable(text(200))),
    city: text(100, 'Enter your city'),
    state: z.optional(z.nullable(text(100))),
    postal_code: text(20, 'Enter your postal code'),
    country: z.string().check(z.trim(), z.regex(/^[A-Za-z]{2}$/, 'Choose your country'), z.toUpperCase()),
  }),
  is_business: z.boolean(),
  company_name: z.optional(z.nullable(text(200))),
  vat_id: z.optional(z.nullable(text(20))),
});
export type BillingInput = z.input<typeof BillingSchema>;

/**
 * Where an order stands (issue 19, ADR 035). `pending`: waiting for its payment; `capturing`: being charged now (the
 * upgrade was checked); `superseded`, `void`, `expired`: never charged (replaced by a newer quote; no longer applicable
 * or cancelled; abandoned); `completed`; `needs_refund`, `review`: paid, not applied; `refunded`; `disputed`;
 * `charged_back`: a dispute the buyer won.
 */
export const ORDER_STATUSES = [
  'pending',
  'capturing',
  'superseded',
  'void',
  'expired',
  'completed',
  'needs_refund',
  'review',
  'refunded',
  'disputed',
  'charged_back',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** A dispute (chargeback) of an order's payment, as the provider last reported it. */
export const DISPUTE_STATES = ['open', 'funds_withdrawn', 'won', 'lost'] as const;
export type DisputeState = (typeof DISPUTE_STATES)[number];

/**
 * What the server computed for an order: amounts in cents, VAT rate in percent. An upgrade order has `from` and `to`;
 * a credit-pack order (issue 11) has `credits` instead.
 */
export const OrderQuoteSchema = z.object({
  id: z.int(),
  kind: z.enum(['upgrade', 'credit_pack']),
  status: z.enum(ORDER_STATUSES),
  from: z.nullable(z.enum(TIERS)),
  to: z.nullable(z.enum(TIERS)),
  credits: z.nullable(z.int()),
  currency: z.literal('usd'),
  base_amount: z.int(),
  vat_amount: z.int(),
  total_amount: z.int(),
  vat_rate: z.number(),
  reverse_charge: z.boolean(),
  /** The provider's last decline message while the order waits for another attempt. */
  last_payment_error: z.nullable(z.string()),
});
export type OrderQuote = z.infer<typeof OrderQuoteSchema>;

const optionalText = (max: number) => z.optional(z.nullable(text(max)));

/**
 * §7's `metadata` of a payment request: license_key, upgrade_from, upgrade_to, current_version, theme_name,
 * is_business, company_name, vat_id, customer_country. Never read for an amount; without a `billing` object its
 * country and business fields bill the order (issue 19). Other keys are kept as sent.
 */
export const PaymentMetadataSchema = z.looseObject({
  license_key: optionalText(100),
  upgrade_from: optionalText(20),
  upgrade_to: optionalText(20),
  current_version: optionalText(100),
  theme_name: optionalText(200),
  is_business: z.optional(z.nullable(z.union([z.boolean(), z.enum(['true', 'false'])]))),
  company_name: optionalText(200),
  vat_id: optionalText(20),
  customer_country: z.optional(
    z.nullable(z.string().check(z.trim(), z.regex(/^[A-Za-z]{2}$/, 'Choose your country'), z.toUpperCase())),
  ),
});

/**
 * §7 POST /stripe/payment-intents. The server checks the key is the caller's, its tier allows the path to
 * `theme_type`, and `price_id` is that path's; it computes every amount itself (the catalogue, the billing country,
 * a VIES-valid VAT ID). Pressing Pay twice, or retrying, answers the same pending order and payment.
 * `metadata` is never trusted for amounts. The request §7 lists (`price_id, theme_type, key, metadata`) is accepted as
 * it is: then the billing country and business fields come from `metadata` and the account's name and email bill it;
 * the dialog also sends `billing` (name and address, for the invoice), which then decides.
 */
export const createPaymentIntent = defineContract({
  operationId: 'createPaymentIntent',
  method: 'POST',
  path: '/stripe/payment-intents',
  summary: 'Start paying for an upgrade by card: the order and its payment intent',
  tags: ['payments'],
  access: 'user',
  body: z.object({
    price_id: z.string().check(z.trim(), z.minLength(1, 'price_id is required'), z.maxLength(200)),
    theme_type: z.enum(TIERS),
    key: z.string().check(z.trim(), z.minLength(1, 'key is required'), z.maxLength(100)),
    billing: z.optional(BillingSchema),
    metadata: z.optional(PaymentMetadataSchema),
  }),
  response: z.object({
    payment_intent: z.object({ id: z.string(), client_secret: z.string() }),
    order: OrderQuoteSchema,
  }),
});

/**
 * After the browser's confirmation succeeded: re-read the payment from the provider; an authorized card is captured
 * once the server checked the upgrade still applies, and fulfilled (the same code a webhook runs), so the person never
 * waits for webhook delivery. An order that will never be charged (replaced, cancelled, no longer applicable, expired)
 * answers 409 with why.
 */
export const syncPaymentIntent = defineContract({
  operationId: 'syncPaymentIntent',
  method: 'POST',
  path: '/stripe/payment-intents/:id/sync',
  summary: "Re-read a payment from the provider and fulfil it (the caller's own orders only)",
  tags: ['payments'],
  access: 'user',
  params: z.object({ id: z.string().check(z.regex(/^pi_[A-Za-z0-9_]{1,200}$/, 'Invalid payment intent')) }),
  response: z.object({ order: OrderQuoteSchema, key: z.nullable(KeySchema) }),
});

/** Stripe's (and the sandbox's) events: verified on the raw body with the Stripe-Signature header. */
export const stripeWebhook = defineContract({
  operationId: 'stripeWebhook',
  method: 'POST',
  path: '/stripe/webhook',
  summary: 'Payment provider events (signed; deduplicated on the event id; the payment is re-read)',
  tags: ['payments'],
  access: 'public',
  response: z.object({ received: z.literal(true), duplicate: z.boolean() }),
});

/**
 * The sandbox's card confirmation (only while payments run in the sandbox), standing in for Stripe.js: Stripe's test
 * cards decide the outcome. An accepted card is authorized (`requires_capture`, as with Keyport's manual-capture
 * payments at Stripe) and the sandbox delivers the signed event to /stripe/webhook. A decline is a 402 with the card's
 * message; a payment that was cancelled or replaced is a 409 with why.
 */
export const confirmSandboxPayment = defineContract({
  operationId: 'confirmSandboxPayment',
  method: 'POST',
  path: '/sandbox/stripe/confirm',
  summary: 'Confirm a sandbox payment with a test card number (sandbox only)',
  tags: ['payments'],
  access: 'user',
  body: z.object({
    payment_intent_id: z.string().check(z.regex(/^pi_sandbox_[A-Za-z0-9]{1,100}$/, 'Invalid payment intent')),
    card_number: z.string().check(z.maxLength(40, 'Your card number is invalid.')),
  }),
  response: z.object({ status: z.literal('requires_capture') }),
});

/**
 * The invoice of a paid order as a PDF, by order (the caller's own orders only): the same document as
 * GET /invoices/:id/pdf, at the path the first "receipt" links had (issue 21: there was never another document).
 */
export const getOrderInvoicePdf = defineContract({
  operationId: 'getOrderInvoicePdf',
  method: 'GET',
  path: '/upgrades/orders/:id/receipt',
  summary: "A paid order's invoice, as a PDF (the same as GET /invoices/:id/pdf)",
  tags: ['payments'],
  access: 'user',
  produces: 'application/pdf',
  params: z.object({ id: idString('Invalid order') }),
});

/** Issue 12: how a staff member filters orders by the way they were paid (card: Stripe or its sandbox; PayPal: either). */
export const PaymentMethodSchema = z.enum(['card', 'paypal']);
export type PaymentMethod = z.infer<typeof PaymentMethodSchema>;

/** An order as staff see it: what was bought, by whom, the provider's ids and the VAT evidence. */
export const StaffOrderSchema = z.extend(
  z.pick(OrderQuoteSchema, {
    id: true,
    kind: true,
    status: true,
    from: true,
    to: true,
    credits: true,
    currency: true,
    base_amount: true,
    vat_amount: true,
    total_amount: true,
    vat_rate: true,
    reverse_charge: true,
  }),
  {
    user_id: z.int(),
    email: z.string(),
    license_key: z.nullable(z.string()),
    method: PaymentMethodSchema,
    /** The provider as stored: 'stripe', 'sandbox' (card), 'paypal', 'paypal_sandbox'. */
    provider: z.string(),
    /** A PaymentIntent id (card) or a PayPal order id. */
    provider_payment_id: z.nullable(z.string()),
    billing_country: z.string(),
    /** Issue 19: the payment's dispute as the provider last reported it (null: never disputed), and its id there. */
    dispute_state: z.nullable(z.enum(DISPUTE_STATES)),
    dispute_ref: z.nullable(z.string()),
    vat_id: z.nullable(z.string()),
    vat_consultation_number: z.nullable(z.string()),
    processing_error: z.nullable(z.string()),
    created_at: z.string(),
    paid_at: z.nullable(z.string()),
    refunded_at: z.nullable(z.string()),
  },
);
export type StaffOrder = z.infer<typeof StaffOrderSchema>;

/** Issue 12: card and PayPal orders, newest first, cursor-paged (the cursor is the last id seen). */
export const staffListOrders = defineContract({
  operationId: 'staffListOrders',
  method: 'GET',
  path: '/staff/orders',
  summary:
    'Card and PayPal orders, newest first (or oldest with order=asc), with provider ids and VAT evidence (staff only)',
  tags: ['staff'],
  access: 'staff',
  query: z.object({
    status: z.optional(OrderQuoteSchema.shape.status),
    /** Issue 19: orders whose payment was disputed (`any`), or whose dispute stands at that state. */
    dispute: z.optional(z.enum([...DISPUTE_STATES, 'any'])),
    provider: z.optional(PaymentMethodSchema),
    order: StaffSortOrderSchema,
    cursor: StaffCursorSchema,
    limit: StaffPageLimitSchema,
  }),
  response: z.object({ orders: z.array(StaffOrderSchema), next_cursor: z.nullable(z.string()) }),
});

/**
 * Issue 12: asks the order's provider for a full refund (one idempotency key per order). The order changes only when
 * the provider's refund webhook arrives, as for any refund; answered 202 with the order as it is now.
 */
export const staffRefundOrder = defineContract({
  operationId: 'staffRefundOrder',
  method: 'POST',
  path: '/staff/orders/:id/refund',
  summary: 'Ask the provider to refund a completed or disputed order in full (staff only)',
  tags: ['staff'],
  access: 'staff',
  status: 202,
  params: z.object({ id: idString('Invalid id') }),
  body: z.object({ reason: StaffReasonSchema }),
  response: z.object({ order: StaffOrderSchema }),
});
