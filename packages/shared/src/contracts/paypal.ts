import { z } from 'zod/mini';
import { TIERS } from '../domain/tiers';
import { defineContract } from './define';
import { KeySchema } from './keys';
import { OrderQuoteSchema } from './payments';

/**
 * The wallet (PayPal Orders v2) as the browser sees it. PayPal is a second way into the card path's order, VAT and
 * fulfilment, not a second path: the same ownership, upgrade-path, price and VAT checks, the same `upgrade_orders`
 * row, the same `fulfil`.
 */

/**
 * What the browser needs to offer PayPal. `mode: 'paypal'` with a client id: load PayPal's Buttons (capture intent,
 * USD). `mode: 'sandbox'` (the offline default): a plain PayPal button that goes to the portal's own approval page
 * (`approve_url` of create-order), which returns to the dashboard exactly as PayPal's redirect does.
 */
export const getPaypalConfig = defineContract({
  operationId: 'getPaypalConfig',
  method: 'GET',
  path: '/stripe/paypal/config',
  summary: 'How the browser offers PayPal: real Buttons with a client id, or the offline sandbox approval page',
  tags: ['paypal'],
  access: 'public',
  response: z.object({
    mode: z.enum(['paypal', 'sandbox']),
    clientId: z.nullable(z.string()),
  }),
});

const text = (max: number, required?: string) =>
  required
    ? z.string().check(z.trim(), z.minLength(1, required), z.maxLength(max, `At most ${max} characters`))
    : z.string().check(z.trim(), z.maxLength(max, `At most ${max} characters`));
const optionalText = (max: number) => z.optional(z.nullable(text(max)));

/**
 * §7 POST /stripe/paypal/create-order, with the spec's flat fields. `is_business` is ours (the spec infers it from
 * the company name): when absent, a non-empty `company_name` means a business. Amounts are computed on the server.
 */
export const createPaypalOrder = defineContract({
  operationId: 'createPaypalOrder',
  method: 'POST',
  path: '/stripe/paypal/create-order',
  summary: 'Start paying for an upgrade with PayPal: the pending order and its PayPal order',
  tags: ['paypal'],
  access: 'user',
  body: z.object({
    price_id: z.string().check(z.trim(), z.minLength(1, 'No price configured'), z.maxLength(200)),
    theme_type: z.enum(TIERS),
    key: z.string().check(z.trim(), z.minLength(1, 'key is required'), z.maxLength(100)),
    country_code: z.string().check(z.trim(), z.regex(/^[A-Za-z]{2}$/, 'Choose your country'), z.toUpperCase()),
    vat_id: optionalText(20),
    customer_name: text(200, 'Enter your name'),
    customer_email: z
      .string()
      .check(z.trim(), z.toLowerCase(), z.email('Enter a valid email address'), z.maxLength(254, 'Email is too long')),
    company_name: optionalText(200),
    is_business: z.optional(z.boolean()),
    billing_address: z.object({
      line1: text(200, 'Enter your address'),
      line2: optionalText(200),
      city: text(100, 'Enter your city'),
      state: optionalText(100),
      postal_code: text(20, 'Enter your postal code'),
      country: z.string().check(z.trim(), z.regex(/^[A-Za-z]{2}$/, 'Choose your country'), z.toUpperCase()),
    }),
    metadata: z.optional(z.record(z.string().check(z.maxLength(40)), z.unknown())),
  }),
  response: z.object({
    /** §3 "Wallet order": the PayPal order id. */
    order: z.object({ id: z.string() }),
    /** Where the person approves the payment (PayPal's approve link; the portal's own page in the sandbox). */
    approve_url: z.string(),
    quote: OrderQuoteSchema,
  }),
});

/**
 * §7 POST /stripe/paypal/capture-order: capture the caller's approved PayPal order (idempotent: a second capture, a
 * reload or another tab finds it captured and changes nothing), re-read it from PayPal, check the amount against the
 * order, and fulfil it through the card path's code.
 */
export const capturePaypalOrder = defineContract({
  operationId: 'capturePaypalOrder',
  method: 'POST',
  path: '/stripe/paypal/capture-order',
  summary: "Capture an approved PayPal order and fulfil it (the caller's own orders only)",
  tags: ['paypal'],
  access: 'user',
  body: z.object({
    order_id: z.string().check(z.trim(), z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'Invalid order')),
  }),
  response: z.object({ order: OrderQuoteSchema, key: z.nullable(KeySchema) }),
});

/**
 * The buyer cancelled the PayPal checkout (the dashboard's return with `paypalCancel`, or the Buttons' onCancel):
 * the caller's pending order becomes void for good, so an approval of it later is never captured (issue 19). Not a
 * §7 call: the spec's return handling only shows the cancel; this makes it stick.
 */
export const cancelPaypalOrder = defineContract({
  operationId: 'cancelPaypalOrder',
  method: 'POST',
  path: '/stripe/paypal/cancel-order',
  summary: "Cancel the caller's PayPal checkout for good: its order is never captured",
  tags: ['paypal'],
  access: 'user',
  body: z.object({
    order_id: z.string().check(z.trim(), z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'Invalid order')),
  }),
  response: z.object({ order: OrderQuoteSchema }),
});

/**
 * PayPal's webhook (`PAYMENT.CAPTURE.COMPLETED`, `PAYMENT.CAPTURE.REFUNDED`, `CUSTOMER.DISPUTE.CREATED`,
 * `CUSTOMER.DISPUTE.UPDATED`, `CUSTOMER.DISPUTE.RESOLVED`), read as raw bytes: verified (PayPal's
 * verify-webhook-signature call; the sandbox's own signature offline), deduplicated on the event id, and the order
 * re-read from PayPal before anything is applied. A bad signature is a 400.
 */
export const paypalWebhook = defineContract({
  operationId: 'paypalWebhook',
  method: 'POST',
  path: '/paypal/webhook',
  summary: 'PayPal events (verified; deduplicated on the event id; the order is re-read)',
  tags: ['paypal'],
  access: 'public',
  response: z.object({ received: z.literal(true), duplicate: z.boolean() }),
});

/**
 * The same webhook at its first path (issue 21: PayPal's events lived under /stripe/): kept working, the same route
 * and code, for PayPal webhooks still pointed there. New configurations use `/paypal/webhook`.
 */
export const paypalWebhookAtStripePath = defineContract({
  ...paypalWebhook,
  operationId: 'paypalWebhookAtStripePath',
  path: '/stripe/paypal/webhook',
  summary: 'PayPal events at their first path (the same as POST /paypal/webhook)',
});

/** A sandbox wallet order id (17 upper-case letters and digits, like PayPal's). */
const sandboxToken = z.string().check(z.trim(), z.regex(/^[A-Z0-9]{17}$/, 'Invalid order'));

/**
 * The sandbox wallet's approval page (only while the wallet runs in the sandbox): the portal's stand-in for PayPal's
 * checkout page, reached through `approve_url`. Server-rendered HTML, no script.
 */
export const sandboxPaypalCheckout = defineContract({
  operationId: 'sandboxPaypalCheckout',
  method: 'GET',
  path: '/sandbox/paypal/checkout',
  summary: "The sandbox wallet's approval page: the amount, Approve and Cancel (sandbox only)",
  tags: ['paypal'],
  access: 'public',
  produces: 'text/html',
  query: z.object({ token: sandboxToken }),
});

/**
 * The approval page's form (`application/x-www-form-urlencoded`): Approve marks the order APPROVED; both answer 303
 * to the order's return or cancel URL with `token` (and `PayerID` on approval), exactly as PayPal's redirect does.
 */
export const sandboxPaypalDecide = defineContract({
  operationId: 'sandboxPaypalDecide',
  method: 'POST',
  path: '/sandbox/paypal/checkout',
  summary: 'Approve or cancel a sandbox wallet order, then return to the portal (sandbox only)',
  tags: ['paypal'],
  access: 'public',
  produces: 'text/html',
  body: z.object({ token: sandboxToken, action: z.enum(['approve', 'cancel']) }),
});
