/**
 * A local HTTP stand-in for the part of Stripe's API Keyport uses (PaymentIntents with manual capture, refunds and
 * disputes), good enough for the `stripe` SDK pointed at it with its `host`/`port`/`protocol` options. It speaks
 * Stripe's wire format (form-encoded bodies with bracket keys, Bearer secret key, Idempotency-Key replay,
 * `{error: {type, code, message}}` answers) and keeps its payments in memory. `confirm` is what the browser's
 * Stripe.js would do with a test card (an intent with `capture_method=manual` is then `requires_capture` until
 * captured); `dispute` and `closeDispute` are what a card holder's bank does.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeCharge {
  id: string;
  object: 'charge';
  amount: number;
  amount_refunded: number;
  /** False while an authorization waits for its capture (manual capture). */
  captured: boolean;
  refunded: boolean;
  currency: string;
  payment_intent: string;
  status: 'succeeded';
  disputed: boolean;
}

/** A dispute as Stripe shows it (its balance transactions: the withdrawal and a reinstatement). */
export interface FakeDispute {
  id: string;
  object: 'dispute';
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string;
  reason: string;
  status: string;
  balance_transactions: { id: string; object: 'balance_transaction'; amount: number; type: string }[];
  livemode: false;
}

export interface FakePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: string;
  capture_method: 'automatic' | 'manual';
  amount_capturable: number;
  client_secret: string;
  description: string | null;
  metadata: Record<string, string>;
  receipt_email: string | null;
  payment_method_types: string[];
  latest_charge: string | null;
  last_payment_error: { type: string; code: string; decline_code?: string; message: string } | null;
  created: number;
  livemode: false;
}

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  authorization: string | null;
  params: Record<string, unknown>;
}

/** Stripe's test payment methods the fake understands (the card outcome of each). */
const TEST_PAYMENT_METHODS: Record<string, { decline?: { code: string; decline_code: string; message: string } }> = {
  pm_card_visa: {},
  pm_card_chargeDeclined: {
    decline: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  },
  pm_card_chargeDeclinedInsufficientFunds: {
    decline: {
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    },
  },
};

export interface FakeStripeApi {
  /** http://127.0.0.1:<random port> */
  url: URL;
  secretKey: string;
  intents: Map<string, FakePaymentIntent>;
  charges: Map<string, FakeCharge>;
  disputes: Map<string, FakeDispute>;
  requests: RecordedRequest[];
  /**
   * The card holder's bank disputes the intent's charge (status `needs_response`); with `fundsWithdrawn` (Stripe's
   * usual case) the amount leaves the balance at once. Answers the dispute.
   */
  dispute(intentId: string, options?: { reason?: string; fundsWithdrawn?: boolean }): FakeDispute;
  /** The bank decides: `won` reinstates withdrawn funds, `lost` keeps them with the buyer. */
  closeDispute(disputeId: string, status: 'won' | 'lost'): FakeDispute;
  /** The next `count` requests answer this status with a Stripe `api_error` (and `Stripe-Should-Retry: false`). */
  failNext(status: number, count?: number): void;
  close(): Promise<void>;
}

export async function startFakeStripeApi(secretKey = 'sk_test_fake_keyport'): Promise<FakeStripeApi> {
  const intents = new Map<string, FakePaymentIntent>();
  const charges = new Map<string, FakeCharge>();
  const disputes = new Map<string, FakeDispute>();
  const requests: RecordedRequest[] = [];
  /** Idempotency-Key → the request it first carried and the answer it got (Stripe replays it for 24 hours). */
  const idempotent = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  const failures: number[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const params = parseForm(req.method === 'GET' ? url.search.slice(1) : Buffer.concat(chunks).toString('utf8'));
      const idempotencyKey = header(req, 'idempotency-key');
      requests.push({
        method: req.method ?? 'GET',
        path: url.pathname,
        idempotencyKey,
        authorization: header(req, 'authorization'),
        params,
      });
      const send = (status: number, body: unknown, extra: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${id(14)}`, ...extra });
        res.end(JSON.stringify(body));
      };

      const failure = failures.shift();
      if (failure !== undefined) {
        send(failure, error('api_error', 'api_error', 'The fake Stripe API is failing on purpose.'), {
          'stripe-should-retry': 'false',
        });
        return;
      }
      if (header(req, 'authorization') !== `Bearer ${secretKey}`) {
        send(401, error('invalid_request_error', 'api_key_invalid', `Invalid API Key provided: ${masked(req)}`));
        return;
      }
      if (req.method === 'POST' && idempotencyKey) {
        const fingerprint = `${req.method} ${url.pathname} ${JSON.stringify(params)}`;
        const earlier = idempotent.get(idempotencyKey);
        if (earlier && earlier.fingerprint !== fingerprint) {
          send(
            400,
            error(
              'idempotency_error',
              'idempotency_key_in_use',
              'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            ),
          );
          return;
        }
        if (earlier) {
          send(earlier.status, earlier.body, { 'idempotent-replayed': 'true' });
          return;
        }
        const [status, body] = route(req.method, url.pathname, params);
        idempotent.set(idempotencyKey, { fingerprint, status, body });
        send(status, body);
        return;
      }
      const [status, body] = route(req.method ?? 'GET', url.pathname, params);
      send(status, body);
    });
  });

  function route(method: string, path: string, params: Record<string, unknown>): [number, unknown] {
    if (method === 'POST' && path === '/v1/payment_intents') return createIntent(params);
    if (method === 'POST' && path === '/v1/refunds') return refund(params);
    const disputeOf = /^\/v1\/disputes\/([^/]+)$/.exec(path);
    if (method === 'GET' && disputeOf) {
      const dispute = disputes.get(decodeURIComponent(disputeOf[1]!));
      return dispute
        ? [200, structuredClone(dispute)]
        : [404, error('invalid_request_error', 'resource_missing', `No such dispute: '${disputeOf[1]}'`, 'id')];
    }
    const match = /^\/v1\/payment_intents\/([^/]+)(\/(cancel|confirm|capture))?$/.exec(path);
    const intent = match ? intents.get(decodeURIComponent(match[1]!)) : undefined;
    if (match && !intent) {
      return [
        404,
        error('invalid_request_error', 'resource_missing', `No such payment_intent: '${match[1]}'`, 'intent'),
      ];
    }
    if (intent && method === 'GET' && !match?.[3]) return [200, view(intent, params)];
    if (intent && method === 'POST' && match?.[3] === 'cancel') return cancel(intent);
    if (intent && method === 'POST' && match?.[3] === 'confirm') return confirm(intent, params);
    if (intent && method === 'POST' && match?.[3] === 'capture') return capture(intent, params);
    return [404, error('invalid_request_error', 'resource_missing', `Unrecognized request URL (${method}: ${path})`)];
  }

  function createIntent(params: Record<string, unknown>): [number, unknown] {
    const amount = Number(params.amount);
    if (!Number.isInteger(amount) || amount < 50) {
      return [400, error('invalid_request_error', 'amount_too_small', 'Amount must be at least $0.50 usd', 'amount')];
    }
    if (params.payment_method_types !== undefined) {
      // Renamed in the API version the SDK pins (2026-10-28): refused like any unknown parameter.
      return [
        400,
        error('invalid_request_error', 'parameter_unknown', 'Received unknown parameter: payment_method_types'),
      ];
    }
    if (params.automatic_payment_methods !== undefined && params.allowed_payment_method_types !== undefined) {
      return [
        400,
        error(
          'invalid_request_error',
          'parameters_exclusive',
          'You may only specify one of these parameters: automatic_payment_methods, allowed_payment_method_types.',
        ),
      ];
    }
    const intentId = `pi_${id(24)}`;
    const intent: FakePaymentIntent = {
      id: intentId,
      object: 'payment_intent',
      amount,
      currency: String(params.currency),
      status: 'requires_payment_method',
      capture_method: params.capture_method === 'manual' ? 'manual' : 'automatic',
      amount_capturable: 0,
      client_secret: `${intentId}_secret_${id(25)}`,
      description: typeof params.description === 'string' ? params.description : null,
      metadata: { ...((params.metadata as Record<string, string> | undefined) ?? {}) },
      receipt_email: typeof params.receipt_email === 'string' ? params.receipt_email : null,
      // Without a list, the payment methods enabled in the dashboard (automatic payment methods).
      payment_method_types: Array.isArray(params.allowed_payment_method_types)
        ? (params.allowed_payment_method_types as string[])
        : ['card', 'link'],
      latest_charge: null,
      last_payment_error: null,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
    intents.set(intentId, intent);
    return [200, view(intent, params)];
  }

  function cancel(intent: FakePaymentIntent): [number, unknown] {
    if (intent.status === 'succeeded' || intent.status === 'canceled' || intent.status === 'processing') {
      return [
        400,
        error(
          'invalid_request_error',
          'payment_intent_unexpected_state',
          `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
        ),
      ];
    }
    // Cancelling an authorized intent releases the hold on the card.
    intent.status = 'canceled';
    intent.amount_capturable = 0;
    return [200, view(intent, {})];
  }

  function capture(intent: FakePaymentIntent, params: Record<string, unknown>): [number, unknown] {
    const charge = intent.latest_charge ? charges.get(intent.latest_charge) : undefined;
    if (intent.status !== 'requires_capture' || !charge) {
      return [
        400,
        error(
          'invalid_request_error',
          'payment_intent_unexpected_state',
          `This PaymentIntent could not be captured because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.`,
        ),
      ];
    }
    charge.captured = true;
    intent.status = 'succeeded';
    intent.amount_capturable = 0;
    return [200, view(intent, params)];
  }

  function confirm(intent: FakePaymentIntent, params: Record<string, unknown>): [number, unknown] {
    if (intent.status !== 'requires_payment_method' && intent.status !== 'requires_confirmation') {
      return [
        400,
        error(
          'invalid_request_error',
          'payment_intent_unexpected_state',
          `This PaymentIntent's status is ${intent.status}.`,
        ),
      ];
    }
    const method = TEST_PAYMENT_METHODS[String(params.payment_method)];
    if (!method) {
      return [400, error('invalid_request_error', 'resource_missing', 'No such PaymentMethod', 'payment_method')];
    }
    if (method.decline) {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = { type: 'card_error', ...method.decline };
      return [402, { error: { type: 'card_error', ...method.decline, payment_intent: view(intent, {}) } }];
    }
    const manual = intent.capture_method === 'manual';
    const charge: FakeCharge = {
      id: `ch_${id(24)}`,
      object: 'charge',
      amount: intent.amount,
      amount_refunded: 0,
      captured: !manual,
      refunded: false,
      currency: intent.currency,
      payment_intent: intent.id,
      status: 'succeeded',
      disputed: false,
    };
    charges.set(charge.id, charge);
    // With manual capture the card is only authorized: nothing is charged until the capture.
    intent.status = manual ? 'requires_capture' : 'succeeded';
    intent.amount_capturable = manual ? intent.amount : 0;
    intent.latest_charge = charge.id;
    intent.last_payment_error = null;
    return [200, view(intent, params)];
  }

  function refund(params: Record<string, unknown>): [number, unknown] {
    const intent = intents.get(String(params.payment_intent));
    const charge = intent?.latest_charge ? charges.get(intent.latest_charge) : undefined;
    if (!intent || !charge || intent.status !== 'succeeded') {
      return [400, error('invalid_request_error', 'charge_not_refundable', 'This payment cannot be refunded.')];
    }
    if (charge.disputed) {
      return [400, error('invalid_request_error', 'charge_disputed', `Charge ${charge.id} has been charged back.`)];
    }
    const amount = params.amount === undefined ? charge.amount - charge.amount_refunded : Number(params.amount);
    if (!Number.isInteger(amount) || amount <= 0 || charge.amount_refunded + amount > charge.amount) {
      return [400, error('invalid_request_error', 'amount_too_large', 'Refund amount is greater than unrefunded.')];
    }
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    return [200, { id: `re_${id(24)}`, object: 'refund', amount, charge: charge.id, payment_intent: intent.id }];
  }

  /** The intent as Stripe answers it, with `latest_charge` expanded when asked. */
  function view(intent: FakePaymentIntent, params: Record<string, unknown>): unknown {
    const expand = Array.isArray(params.expand) ? params.expand : [];
    const charge = intent.latest_charge ? charges.get(intent.latest_charge) : undefined;
    return {
      ...intent,
      metadata: { ...intent.metadata },
      latest_charge: expand.includes('latest_charge') && charge ? { ...charge } : intent.latest_charge,
    };
  }

  function openDispute(intentId: string, options: { reason?: string; fundsWithdrawn?: boolean } = {}): FakeDispute {
    const intent = intents.get(intentId);
    const charge = intent?.latest_charge ? charges.get(intent.latest_charge) : undefined;
    if (!intent || !charge?.captured) throw new Error(`fake intent ${intentId} has no captured charge to dispute`);
    charge.disputed = true;
    const withdrawn = options.fundsWithdrawn ?? true;
    const dispute: FakeDispute = {
      id: `dp_${id(24)}`,
      object: 'dispute',
      amount: charge.amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: intent.id,
      reason: options.reason ?? 'fraudulent',
      status: withdrawn ? 'needs_response' : 'warning_needs_response',
      balance_transactions: withdrawn ? [balanceTransaction(-charge.amount, 'dispute')] : [],
      livemode: false,
    };
    disputes.set(dispute.id, dispute);
    return structuredClone(dispute);
  }

  function closeDispute(disputeId: string, status: 'won' | 'lost'): FakeDispute {
    const dispute = disputes.get(disputeId);
    if (!dispute) throw new Error(`no such fake dispute ${disputeId}`);
    const withdrawn = dispute.balance_transactions.reduce((sum, transaction) => sum + transaction.amount, 0);
    if (status === 'won' && withdrawn < 0) {
      dispute.balance_transactions.push(balanceTransaction(-withdrawn, 'dispute_reversal'));
    }
    // An inquiry (warning_*) closed in the seller's favour is `warning_closed`, as at Stripe.
    dispute.status = status === 'won' && dispute.status.startsWith('warning_') ? 'warning_closed' : status;
    return structuredClone(dispute);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}`),
    secretKey,
    intents,
    charges,
    disputes,
    dispute: openDispute,
    closeDispute,
    requests,
    failNext(status, count = 1) {
      for (let i = 0; i < count; i++) failures.push(status);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** What a test's browser would do: confirm with one of Stripe's test payment methods (`pm_card_visa`, …). */
export async function confirmWithTestCard(api: FakeStripeApi, intentId: string, paymentMethod: string) {
  const response = await fetch(new URL(`/v1/payment_intents/${intentId}/confirm`, api.url), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${api.secretKey}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ payment_method: paymentMethod }).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Stripe's bracket notation: `metadata[order]=1&payment_method_types[0]=card&expand[]=x` → nested objects/arrays. */
export function parseForm(body: string): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const [head, ...rest] = rawKey.split('[');
    const path = [head!, ...rest.map((part) => part.replace(/]$/, ''))];
    let target: Record<string, unknown> | unknown[] = result;
    path.forEach((part, index) => {
      const last = index === path.length - 1;
      const nextIsIndex = !last && /^\d*$/.test(path[index + 1]!);
      const key = Array.isArray(target) ? (part === '' ? target.length : Number(part)) : part;
      const container = target as Record<string | number, unknown>;
      if (last) container[key] = value;
      else {
        container[key] ??= nextIsIndex ? [] : {};
        target = container[key] as Record<string, unknown> | unknown[];
      }
    });
  }
  return result;
}

function balanceTransaction(amount: number, type: string) {
  return { id: `txn_${id(24)}`, object: 'balance_transaction' as const, amount, type };
}

function error(type: string, code: string, message: string, param?: string) {
  return { error: { type, code, message, ...(param ? { param } : {}) } };
}

function header(req: http.IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return typeof value === 'string' ? value : null;
}

/** Stripe quotes the last characters of a wrong key; the adapter must not pass even that on. */
function masked(req: http.IncomingMessage): string {
  const key = (header(req, 'authorization') ?? '').replace(/^Bearer /, '');
  return `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`;
}

function id(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
}
