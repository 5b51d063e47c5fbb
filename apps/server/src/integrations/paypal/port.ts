/**
 * The wallet (PayPal Orders v2), as Keyport sees it (house style: a narrow port, Keyport's own types). Adapters:
 * `paypal` (`@paypal/paypal-server-sdk`: Orders v2, intent CAPTURE, USD) and `paypal_sandbox` (the offline default:
 * stand-in orders in its own table, approved on the portal's own approval page, events signed by the sandbox and
 * delivered to the same webhook route). An adapter never touches Keyport's tables of orders or keys.
 */

/** Where an order stands at PayPal (Orders v2 `status`). */
export type PaypalOrderStatus = 'CREATED' | 'SAVED' | 'APPROVED' | 'VOIDED' | 'COMPLETED' | 'PAYER_ACTION_REQUIRED';

/** Where the order's capture stands (Orders v2 `purchase_units[0].payments.captures[0].status`). */
export type PaypalCaptureStatus = 'COMPLETED' | 'DECLINED' | 'PARTIALLY_REFUNDED' | 'PENDING' | 'REFUNDED' | 'FAILED';

/** An order as the wallet reports it: the source of truth capture and fulfilment re-read. */
export interface PaypalOrder {
  /** PayPal's order id (the `token` of its return URL). */
  ref: string;
  status: PaypalOrderStatus;
  /** The order's amount in cents (PayPal speaks decimal strings; the adapters convert exactly). */
  amountCents: number;
  /** Upper-case ISO 4217 as PayPal writes it, e.g. 'USD'. */
  currency: string;
  /** What Keyport put on the order: its own order id. */
  customId: string | null;
  captureId: string | null;
  captureStatus: PaypalCaptureStatus | null;
  /** The captured amount in cents (0 before a capture). */
  capturedCents: number;
  /** Cents refunded so far (completed refunds). */
  refundedCents: number;
  /** Where the payer approves the order (PayPal's `payer-action`/`approve` link; the portal's page in the sandbox). */
  approveUrl: string | null;
}

export interface CreatePaypalOrderInput {
  amountCents: number;
  currency: 'USD';
  /** Shown to the payer at PayPal. */
  description: string;
  /** Keyport's order id: `custom_id` and `invoice_id` of the purchase unit. */
  customId: string;
  invoiceId: string;
  /** PayPal appends `token=<order id>&PayerID=…` to these. */
  returnUrl: string;
  cancelUrl: string;
  /** `PayPal-Request-Id`: the same id returns the same order (a retried request never creates a second one). */
  requestId: string;
}

/** A verified webhook event, reduced to what fulfilment needs. */
export interface PaypalEvent {
  /** PayPal's event id (`WH-…`): the dedupe key. */
  id: string;
  /**
   * `PAYMENT.CAPTURE.COMPLETED` → 'capture_completed', `PAYMENT.CAPTURE.REFUNDED` → 'capture_refunded',
   * `CUSTOMER.DISPUTE.CREATED` / `.UPDATED` / `.RESOLVED` → 'dispute' (the dispute is re-read; its state decides).
   */
  kind: 'capture_completed' | 'capture_refunded' | 'dispute' | 'ignored';
  type: string;
  /** The PayPal order the capture belongs to (`supplementary_data.related_ids.order_id`), when the event says. */
  orderRef: string | null;
  captureId: string | null;
  /** The resource's `custom_id` (Keyport's order id), the fallback when the event does not name the order. */
  customId: string | null;
  /** The dispute's id (`PP-D-…`) of a `dispute` event; null otherwise. */
  disputeRef: string | null;
}

/**
 * A PayPal dispute as Keyport sees it: which capture it is about (with our order id as the transaction's `custom`)
 * and its state: `open`, or resolved `won` (the seller keeps the money) or `lost` (the buyer gets it back).
 */
export interface PaypalDispute {
  ref: string;
  captureId: string | null;
  customId: string | null;
  state: 'open' | 'won' | 'lost';
  reason: string | null;
}

/** A webhook delivery that is not authentic (or not an event): answered 400. */
export class PaypalWebhookError extends Error {
  override name = 'PaypalWebhookError';
}

/** A failure of the wallet (network, 5xx, unexpected answer): the caller answers 502 and may retry. */
export class PaypalProviderError extends Error {
  override name = 'PaypalProviderError';
}

/**
 * A capture PayPal refused for a reason the payer or the order state explains: `INSTRUMENT_DECLINED`,
 * `PAYER_ACTION_REQUIRED`, `ORDER_NOT_APPROVED`, `TRANSACTION_REFUSED`, … (never `ORDER_ALREADY_CAPTURED`: the
 * adapters treat that as success and return the order re-read).
 */
export class PaypalCaptureError extends Error {
  override name = 'PaypalCaptureError';
  constructor(
    readonly issue: string,
    message: string,
  ) {
    super(message);
  }
  /** The payer's money was refused (they may approve again with another funding source). */
  get declined(): boolean {
    return this.issue !== 'ORDER_NOT_APPROVED';
  }
}

/** The PayPal transmission headers a webhook delivery carries (lower-case names, as Node gives them). */
export type WebhookHeaders = Record<string, string | string[] | undefined>;

export interface PaypalProvider {
  readonly name: 'paypal' | 'paypal_sandbox';
  /** The client id the browser loads PayPal's Buttons with; null in the sandbox (its own approval page). */
  readonly clientId: string | null;
  createOrder(input: CreatePaypalOrderInput): Promise<PaypalOrder>;
  /** The order as it is now; null when the wallet does not know the ref. */
  getOrder(ref: string): Promise<PaypalOrder | null>;
  /**
   * Captures an approved order with `PayPal-Request-Id` = requestId and returns it re-read. `ORDER_ALREADY_CAPTURED`
   * is success (re-read and returned). A refusal throws PaypalCaptureError; an outage PaypalProviderError.
   */
  captureOrder(ref: string, requestId: string): Promise<PaypalOrder>;
  /**
   * Refunds what remains of the order's capture (`POST /v2/payments/captures/{id}/refund` with
   * `PayPal-Request-Id` = requestId) and returns the order re-read. PayPal announces it with
   * `PAYMENT.CAPTURE.REFUNDED`; fulfilment reacts to that event, not to this answer.
   */
  refundOrder(ref: string, requestId: string): Promise<PaypalOrder>;
  /** The dispute as it is now (`GET /v1/customer/disputes/{id}`); null when the wallet does not know it. */
  getDispute(ref: string): Promise<PaypalDispute | null>;
  /** Verifies a delivery (headers and raw bytes); throws PaypalWebhookError when it is not authentic. */
  verifyWebhook(headers: WebhookHeaders, rawBody: Buffer): Promise<PaypalEvent>;
}

/** '12.34' → 1234, exactly (no floating point); NaN for anything that is not a USD-style amount. */
export function decimalToCents(value: string | undefined | null): number {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(value ?? '');
  if (!match) return Number.NaN;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** 1234 → '12.34'. */
export function centsToDecimal(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

const EVENT_KINDS: Record<string, PaypalEvent['kind']> = {
  'PAYMENT.CAPTURE.COMPLETED': 'capture_completed',
  'PAYMENT.CAPTURE.REFUNDED': 'capture_refunded',
  'CUSTOMER.DISPUTE.CREATED': 'dispute',
  'CUSTOMER.DISPUTE.UPDATED': 'dispute',
  'CUSTOMER.DISPUTE.RESOLVED': 'dispute',
};

/**
 * PayPal's dispute outcome in Keyport's terms: resolved for the buyer (or the seller accepted the claim) is lost;
 * every other resolution leaves the money with the seller; anything not resolved is open.
 */
export function paypalDisputeState(status: unknown, outcomeCode: unknown): PaypalDispute['state'] {
  if (status !== 'RESOLVED') return 'open';
  return outcomeCode === 'RESOLVED_BUYER_FAVOUR' || outcomeCode === 'ACCEPTED' ? 'lost' : 'won';
}

/** A PayPal dispute body (`GET /v1/customer/disputes/{id}`, or a dispute event's resource) as a PaypalDispute. */
export function toPaypalDispute(body: unknown): PaypalDispute | null {
  if (!isRecord(body) || typeof body.dispute_id !== 'string' || !body.dispute_id) return null;
  const transactions = Array.isArray(body.disputed_transactions) ? body.disputed_transactions : [];
  const first: unknown = transactions[0];
  const transaction = isRecord(first) ? first : {};
  const str = (value: unknown) => (typeof value === 'string' && value ? value : null);
  const outcome = isRecord(body.dispute_outcome) ? body.dispute_outcome.outcome_code : undefined;
  return {
    ref: body.dispute_id,
    captureId: str(transaction.seller_transaction_id),
    customId: str(transaction.custom),
    state: paypalDisputeState(body.status, outcome),
    reason: str(body.reason),
  };
}

/** An authentic PayPal event body, reduced to a PaypalEvent (both adapters use it). */
export function toPaypalEvent(body: unknown): PaypalEvent {
  if (!isRecord(body) || typeof body.id !== 'string' || !body.id || typeof body.event_type !== 'string') {
    throw new PaypalWebhookError('Webhook refused: the body is not an event');
  }
  const resource = isRecord(body.resource) ? body.resource : {};
  const kind = EVENT_KINDS[body.event_type] ?? 'ignored';
  const related =
    isRecord(resource.supplementary_data) && isRecord(resource.supplementary_data.related_ids)
      ? resource.supplementary_data.related_ids
      : {};
  const str = (value: unknown) => (typeof value === 'string' && value ? value : null);
  // A refund's resource is the refund: its capture is the `up` link (…/v2/payments/captures/<id>).
  const upLink = Array.isArray(resource.links)
    ? resource.links.find((link): link is { href: string } => isRecord(link) && link.rel === 'up')
    : undefined;
  const captureId =
    kind === 'capture_completed'
      ? str(resource.id)
      : (str(related.capture_id) ?? str(/\/captures\/([^/?]+)/.exec(upLink?.href ?? '')?.[1]));
  if (kind === 'dispute') {
    const dispute = toPaypalDispute(resource);
    if (!dispute)
      return {
        id: body.id,
        kind: 'ignored',
        type: body.event_type,
        orderRef: null,
        captureId: null,
        customId: null,
        disputeRef: null,
      };
    return {
      id: body.id,
      kind,
      type: body.event_type,
      orderRef: null,
      captureId: dispute.captureId,
      customId: dispute.customId,
      disputeRef: dispute.ref,
    };
  }
  return {
    id: body.id,
    kind,
    type: body.event_type,
    orderRef: str(related.order_id),
    captureId,
    customId: str(resource.custom_id),
    disputeRef: null,
  };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One header's value (the first, when repeated). */
export function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
