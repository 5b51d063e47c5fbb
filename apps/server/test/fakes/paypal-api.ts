/**
 * A local HTTP stand-in for the part of PayPal's REST API Keyport uses: the OAuth2 client-credentials token, Orders v2
 * (create, get, capture — with `PayPal-Request-Id` replay, `ORDER_ALREADY_CAPTURED`, `ORDER_NOT_APPROVED` and a
 * declined capture, `INSTRUMENT_DECLINED`, all as 422 `{name, details: [{issue, description}], debug_id}`), refunds as
 * the order then shows them (made by the test, or by `POST /v2/payments/captures/{id}/refund`), disputes
 * (`GET /v1/customer/disputes/{id}`, opened and resolved by the test), and `/v1/notifications/verify-webhook-signature`.
 * `approve` is what the payer does on PayPal's page. Orders live in memory.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakePaypalOrder {
  id: string;
  status: 'CREATED' | 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';
  amount: { currency_code: string; value: string };
  custom_id: string | null;
  invoice_id: string | null;
  description: string | null;
  return_url: string | null;
  cancel_url: string | null;
  capture: { id: string; status: string; amount: { currency_code: string; value: string } } | null;
  refunds: { id: string; status: 'COMPLETED'; amount: { currency_code: string; value: string } }[];
}

/** A dispute as PayPal's disputes API shows it (`GET /v1/customer/disputes/{id}`). */
export interface FakePaypalDispute {
  dispute_id: string;
  reason: string;
  status: 'OPEN' | 'WAITING_FOR_SELLER_RESPONSE' | 'UNDER_REVIEW' | 'RESOLVED';
  dispute_amount: { currency_code: string; value: string };
  disputed_transactions: { seller_transaction_id: string; invoice_number: string | null; custom: string | null }[];
  dispute_outcome?: { outcome_code: string };
}

export interface RecordedPaypalRequest {
  method: string;
  path: string;
  requestId: string | null;
  authorization: string | null;
  body: unknown;
}

export interface FakePaypalApi {
  url: URL;
  clientId: string;
  clientSecret: string;
  webhookId: string;
  orders: Map<string, FakePaypalOrder>;
  requests: RecordedPaypalRequest[];
  /** The payer approves the order on PayPal's page. */
  approve(id: string): void;
  /** The next capture of this order is declined (422 INSTRUMENT_DECLINED). */
  declineNextCapture(id: string): void;
  /** A completed refund of `cents` on the order's capture. */
  refund(id: string, cents: number): void;
  disputes: Map<string, FakePaypalDispute>;
  /** The payer opens a dispute of the order's capture (status WAITING_FOR_SELLER_RESPONSE). */
  openDispute(orderId: string, reason?: string): FakePaypalDispute;
  /** PayPal resolves it with an outcome code (RESOLVED_BUYER_FAVOUR, RESOLVED_SELLER_FAVOUR, …). */
  resolveDispute(disputeId: string, outcomeCode: string): FakePaypalDispute;
  /** The transmission signature the fake's verify call accepts for a transmission id. */
  signatureFor(transmissionId: string): string;
  close(): Promise<void>;
}

export async function startFakePaypalApi(): Promise<FakePaypalApi> {
  const clientId = 'fake-client-id';
  const clientSecret = 'fake-client-secret';
  const webhookId = 'WH-FAKE-WEBHOOK-ID';
  const orders = new Map<string, FakePaypalOrder>();
  const disputes = new Map<string, FakePaypalDispute>();
  const requests: RecordedPaypalRequest[] = [];
  const tokens = new Set<string>();
  const declines = new Set<string>();
  /** PayPal-Request-Id → the answer first given (PayPal replays it). */
  const replays = new Map<string, { status: number; body: unknown }>();
  let base = '';

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text && req.headers['content-type']?.includes('json') ? JSON.parse(text) : text;
      } catch {
        body = text;
      }
      const requestId = header(req, 'paypal-request-id');
      requests.push({
        method: req.method ?? 'GET',
        path: url.pathname,
        requestId,
        authorization: header(req, 'authorization'),
        body,
      });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'paypal-debug-id': id(13) });
        res.end(JSON.stringify(payload));
      };

      if (req.method === 'POST' && url.pathname === '/v1/oauth2/token') {
        const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
        if (header(req, 'authorization') !== expected || !text.includes('grant_type=client_credentials')) {
          send(401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
          return;
        }
        const token = `A21AA${id(40)}`;
        tokens.add(token);
        send(200, {
          scope: 'https://uri.paypal.com/services/payments',
          access_token: token,
          token_type: 'Bearer',
          app_id: 'APP-FAKE',
          expires_in: 32400,
          nonce: id(20),
        });
        return;
      }
      const bearer = header(req, 'authorization')?.replace(/^Bearer /, '');
      if (!bearer || !tokens.has(bearer)) {
        send(401, {
          name: 'AUTHENTICATION_FAILURE',
          message: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
          debug_id: id(13),
          details: [],
        });
        return;
      }
      const replayKey = requestId ? `${req.method} ${url.pathname} ${requestId}` : null;
      const earlier = replayKey ? replays.get(replayKey) : undefined;
      if (earlier) {
        send(earlier.status, earlier.body);
        return;
      }
      const answer = (status: number, payload: unknown) => {
        if (replayKey && status < 500) replays.set(replayKey, { status, body: payload });
        send(status, payload);
      };

      if (req.method === 'POST' && url.pathname === '/v1/notifications/verify-webhook-signature') {
        const input = body as Record<string, unknown>;
        const ok =
          typeof input === 'object' &&
          input !== null &&
          input.webhook_id === webhookId &&
          typeof input.transmission_id === 'string' &&
          input.transmission_sig === signatureFor(input.transmission_id) &&
          typeof input.webhook_event === 'object';
        send(200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' });
        return;
      }
      if (req.method === 'POST' && url.pathname === '/v2/checkout/orders') {
        const input = body as {
          intent?: string;
          purchase_units?: {
            amount?: { currency_code?: string; value?: string };
            custom_id?: string;
            invoice_id?: string;
            description?: string;
          }[];
          payment_source?: { paypal?: { experience_context?: { return_url?: string; cancel_url?: string } } };
        };
        const unit = input.purchase_units?.[0];
        if (
          input.intent !== 'CAPTURE' ||
          !unit?.amount?.currency_code ||
          !/^\d+(\.\d{2})?$/.test(unit.amount.value ?? '')
        ) {
          answer(400, issue('INVALID_REQUEST', 'INVALID_PARAMETER_VALUE', 'The value of a field is invalid.'));
          return;
        }
        const order: FakePaypalOrder = {
          id: id(17).toUpperCase(),
          status: 'PAYER_ACTION_REQUIRED',
          amount: { currency_code: unit.amount.currency_code, value: unit.amount.value! },
          custom_id: unit.custom_id ?? null,
          invoice_id: unit.invoice_id ?? null,
          description: unit.description ?? null,
          return_url: input.payment_source?.paypal?.experience_context?.return_url ?? null,
          cancel_url: input.payment_source?.paypal?.experience_context?.cancel_url ?? null,
          capture: null,
          refunds: [],
        };
        orders.set(order.id, order);
        answer(200, representation(order));
        return;
      }
      const disputeOf = /^\/v1\/customer\/disputes\/([A-Za-z0-9-]+)$/.exec(url.pathname);
      if (req.method === 'GET' && disputeOf) {
        const dispute = disputes.get(disputeOf[1]!);
        if (!dispute) {
          send(404, issue('RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist.'));
          return;
        }
        send(200, structuredClone(dispute));
        return;
      }
      const refundOf = /^\/v2\/payments\/captures\/([A-Z0-9]+)\/refund$/.exec(url.pathname);
      if (req.method === 'POST' && refundOf) {
        const captured = [...orders.values()].find((candidate) => candidate.capture?.id === refundOf[1]);
        if (!captured?.capture) {
          answer(404, issue('RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist.'));
          return;
        }
        const input = (typeof body === 'object' && body !== null ? body : {}) as { amount?: { value: string } };
        const remaining =
          cents(captured.capture.amount.value) -
          captured.refunds.reduce((sum, refund) => sum + cents(refund.amount.value), 0);
        const wanted = input.amount ? cents(input.amount.value) : remaining;
        if (remaining <= 0) {
          answer(
            422,
            issue('UNPROCESSABLE_ENTITY', 'CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded.'),
          );
          return;
        }
        if (wanted > remaining) {
          answer(
            422,
            issue(
              'UNPROCESSABLE_ENTITY',
              'REFUND_AMOUNT_EXCEEDED',
              'The refund amount must be less than or equal to the capture amount that has not yet been refunded.',
            ),
          );
          return;
        }
        const refundId = id(17);
        captured.refunds.push({
          id: refundId,
          status: 'COMPLETED',
          amount: { currency_code: captured.amount.currency_code, value: toDecimal(wanted) },
        });
        answer(201, { id: refundId, status: 'COMPLETED' });
        return;
      }
      const match = /^\/v2\/checkout\/orders\/([A-Z0-9]+)(\/capture)?$/.exec(url.pathname);
      const order = match ? orders.get(match[1]!) : undefined;
      if (match && !order) {
        answer(404, issue('RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist.'));
        return;
      }
      if (order && req.method === 'GET' && !match![2]) {
        send(200, representation(order));
        return;
      }
      if (order && req.method === 'POST' && match![2]) {
        if (order.status === 'COMPLETED') {
          answer(422, issue('UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED', 'Order already captured.'));
          return;
        }
        if (order.status !== 'APPROVED') {
          answer(
            422,
            issue('UNPROCESSABLE_ENTITY', 'ORDER_NOT_APPROVED', 'Payer has not yet approved the Order for payment.'),
          );
          return;
        }
        if (declines.delete(order.id)) {
          answer(
            422,
            issue(
              'UNPROCESSABLE_ENTITY',
              'INSTRUMENT_DECLINED',
              "The instrument presented was either declined by the processor or bank, or it can't be used for this payment.",
            ),
          );
          return;
        }
        order.status = 'COMPLETED';
        order.capture = { id: id(17).toUpperCase(), status: 'COMPLETED', amount: { ...order.amount } };
        answer(201, representation(order));
        return;
      }
      send(404, issue('NOT_FOUND', 'RESOURCE_NOT_FOUND', `No route for ${req.method} ${url.pathname}`));
    });
  });

  function representation(order: FakePaypalOrder) {
    const refunded = order.refunds.reduce((sum, refund) => sum + cents(refund.amount.value), 0);
    const captureStatus =
      order.capture && refunded > 0
        ? refunded >= cents(order.capture.amount.value)
          ? 'REFUNDED'
          : 'PARTIALLY_REFUNDED'
        : order.capture?.status;
    return {
      id: order.id,
      intent: 'CAPTURE',
      status: order.status,
      payment_source: { paypal: {} },
      purchase_units: [
        {
          reference_id: 'default',
          amount: order.amount,
          ...(order.custom_id ? { custom_id: order.custom_id } : {}),
          ...(order.invoice_id ? { invoice_id: order.invoice_id } : {}),
          ...(order.description ? { description: order.description } : {}),
          ...(order.capture
            ? {
                payments: {
                  captures: [
                    {
                      id: order.capture.id,
                      status: captureStatus,
                      amount: order.capture.amount,
                      final_capture: true,
                      ...(order.custom_id ? { custom_id: order.custom_id } : {}),
                    },
                  ],
                  ...(order.refunds.length > 0 ? { refunds: order.refunds } : {}),
                },
              }
            : {}),
        },
      ],
      links: [
        { href: `${base}/v2/checkout/orders/${order.id}`, rel: 'self', method: 'GET' },
        ...(order.status === 'PAYER_ACTION_REQUIRED'
          ? [
              {
                href: `https://www.sandbox.paypal.com/checkoutnow?token=${order.id}`,
                rel: 'payer-action',
                method: 'GET',
              },
            ]
          : []),
      ],
    };
  }

  function signatureFor(transmissionId: string): string {
    return `fake-sig-${transmissionId}`;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return {
    url: new URL(base),
    clientId,
    clientSecret,
    webhookId,
    orders,
    requests,
    approve(orderId) {
      const order = orders.get(orderId);
      if (!order) throw new Error(`no such fake order ${orderId}`);
      if (order.status === 'PAYER_ACTION_REQUIRED' || order.status === 'CREATED') order.status = 'APPROVED';
    },
    declineNextCapture(orderId) {
      declines.add(orderId);
    },
    refund(orderId, amountCents) {
      const order = orders.get(orderId);
      if (!order?.capture) throw new Error(`fake order ${orderId} has no capture`);
      order.refunds.push({
        id: id(17).toUpperCase(),
        status: 'COMPLETED',
        amount: {
          currency_code: order.amount.currency_code,
          value: toDecimal(amountCents),
        },
      });
    },
    disputes,
    openDispute(orderId, reason = 'MERCHANDISE_OR_SERVICE_NOT_AS_DESCRIBED') {
      const order = orders.get(orderId);
      if (!order?.capture) throw new Error(`fake order ${orderId} has no capture to dispute`);
      const dispute: FakePaypalDispute = {
        dispute_id: `PP-D-${id(10)}`,
        reason,
        status: 'WAITING_FOR_SELLER_RESPONSE',
        dispute_amount: { ...order.capture.amount },
        disputed_transactions: [
          { seller_transaction_id: order.capture.id, invoice_number: order.invoice_id, custom: order.custom_id },
        ],
      };
      disputes.set(dispute.dispute_id, dispute);
      return structuredClone(dispute);
    },
    resolveDispute(disputeId, outcomeCode) {
      const dispute = disputes.get(disputeId);
      if (!dispute) throw new Error(`no such fake dispute ${disputeId}`);
      dispute.status = 'RESOLVED';
      dispute.dispute_outcome = { outcome_code: outcomeCode };
      return structuredClone(dispute);
    },
    signatureFor,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function issue(name: string, issueCode: string, description: string) {
  return { name, message: description, debug_id: id(13), details: [{ issue: issueCode, description }] };
}

function toDecimal(amountCents: number): string {
  return `${Math.floor(amountCents / 100)}.${String(amountCents % 100).padStart(2, '0')}`;
}

function cents(value: string): number {
  const [whole, fraction = ''] = value.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

function header(req: http.IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return typeof value === 'string' ? value : null;
}

function id(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
}
