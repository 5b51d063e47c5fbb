import {
  ApiError,
  CheckoutPaymentIntent,
  Client,
  Environment,
  type Order,
  OrdersController,
  PaymentsController,
  PaypalExperienceUserAction,
  PaypalWalletContextShippingPreference,
} from '@paypal/paypal-server-sdk';
import { redactSecrets } from '../payments/redact-secrets';
import {
  centsToDecimal,
  decimalToCents,
  headerValue,
  isRecord,
  toPaypalDispute,
  toPaypalEvent,
  PaypalCaptureError,
  type PaypalCaptureStatus,
  type PaypalOrder,
  type PaypalOrderStatus,
  PaypalProviderError,
  type PaypalProvider,
  PaypalWebhookError,
} from './port';

export interface PaypalApiOptions {
  clientId: string;
  clientSecret: string;
  /** The webhook's id at PayPal (the verify-webhook-signature call names it). */
  webhookId: string;
  /** PayPal's own two environments. */
  environment: 'sandbox' | 'live';
  /** Another API host (a local fake in tests): its origin replaces api-m(.sandbox).paypal.com. */
  apiBase?: URL | null;
  timeoutMs?: number;
}

export type PaypalApiProvider = PaypalProvider & { readonly name: 'paypal' };

const API_HOSTS = { sandbox: 'https://api-m.sandbox.paypal.com', live: 'https://api-m.paypal.com' } as const;

/**
 * The real wallet: PayPal Orders v2 through `@paypal/paypal-server-sdk` (intent CAPTURE, USD, `PayPal-Request-Id` on
 * every create and capture). The SDK has no webhook-verification call, so that one endpoint
 * (`/v1/notifications/verify-webhook-signature`) is called with `fetch` and an OAuth token of our own.
 */
export function createPaypalApiProvider(options: PaypalApiOptions): PaypalApiProvider {
  const apiHost = options.apiBase ? options.apiBase.origin : API_HOSTS[options.environment];
  const timeoutMs = options.timeoutMs ?? 20_000;
  const client = new Client({
    clientCredentialsAuthCredentials: { oAuthClientId: options.clientId, oAuthClientSecret: options.clientSecret },
    environment: options.environment === 'live' ? Environment.Production : Environment.Sandbox,
    timeout: timeoutMs,
    // The SDK has no base-URL option: with an override, every request goes to that host instead (tests, a proxy).
    ...(options.apiBase ? { unstable_httpClientOptions: { adapter: redirectingAdapter(apiHost) } } : {}),
  });
  const orders = new OrdersController(client);
  const payments = new PaymentsController(client);

  async function read(ref: string): Promise<PaypalOrder | null> {
    try {
      const { result } = await orders.getOrder({ id: ref });
      return toPaypalOrder(result);
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 404) return null;
      throw providerError('read the order', error);
    }
  }

  let token: { value: string; expiresAt: number } | null = null;
  /** An OAuth access token for the one call the SDK lacks (cached until shortly before it expires). */
  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now()) return token.value;
    const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
    const response = await fetch(`${apiHost}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok || !isRecord(body) || typeof body.access_token !== 'string') {
      throw new PaypalProviderError(`PayPal did not issue a token (HTTP ${response.status})`);
    }
    const seconds = typeof body.expires_in === 'number' ? body.expires_in : 300;
    token = { value: body.access_token, expiresAt: Date.now() + Math.max(0, seconds - 60) * 1000 };
    return token.value;
  }

  return {
    name: 'paypal',
    clientId: options.clientId,

    async createOrder(input) {
      try {
        const { result } = await orders.createOrder({
          paypalRequestId: input.requestId,
          prefer: 'return=representation',
          body: {
            intent: CheckoutPaymentIntent.Capture,
            purchaseUnits: [
              {
                referenceId: 'default',
                amount: { currencyCode: input.currency, value: centsToDecimal(input.amountCents) },
                description: input.description.slice(0, 127),
                customId: input.customId,
                invoiceId: input.invoiceId,
              },
            ],
            paymentSource: {
              paypal: {
                experienceContext: {
                  returnUrl: input.returnUrl,
                  cancelUrl: input.cancelUrl,
                  shippingPreference: PaypalWalletContextShippingPreference.NoShipping,
                  userAction: PaypalExperienceUserAction.PayNow,
                },
              },
            },
          },
        });
        return toPaypalOrder(result);
      } catch (error) {
        throw providerError('create the order', error);
      }
    },

    getOrder: read,

    async captureOrder(ref, requestId) {
      try {
        await orders.captureOrder({ id: ref, paypalRequestId: requestId, prefer: 'return=minimal' });
      } catch (error) {
        const issue = issueOf(error);
        if (issue !== 'ORDER_ALREADY_CAPTURED') {
          if (error instanceof ApiError && error.statusCode === 422 && issue) {
            throw new PaypalCaptureError(issue, describe(error) ?? issue);
          }
          throw providerError('capture the order', error);
        }
        // Captured before (another tab, a retry): success, as the order now says.
      }
      // The capture's own answer may be minimal: the order is re-read, as fulfilment trusts only a read.
      const order = await read(ref);
      if (!order) throw new PaypalProviderError(`PayPal lost order ${ref} after capturing it`);
      if (order.captureStatus === 'DECLINED' || order.captureStatus === 'FAILED') {
        throw new PaypalCaptureError('INSTRUMENT_DECLINED', 'The capture was declined.');
      }
      return order;
    },

    async refundOrder(ref, requestId) {
      const order = await read(ref);
      if (!order?.captureId) throw new PaypalProviderError(`PayPal order ${ref} has no capture to refund`);
      try {
        // An empty body refunds what remains of the capture; the request id makes a retry return the same refund.
        await payments.refundCapturedPayment({
          captureId: order.captureId,
          paypalRequestId: requestId,
          prefer: 'return=minimal',
          body: {},
        });
      } catch (error) {
        throw providerError('refund the capture', error);
      }
      const refunded = await read(ref);
      if (!refunded) throw new PaypalProviderError(`PayPal lost order ${ref} after refunding it`);
      return refunded;
    },

    async getDispute(ref) {
      // The SDK has no disputes controller: the one read Keyport needs, with our own token (as for verification).
      let response: Response;
      try {
        response = await fetch(`${apiHost}/v1/customer/disputes/${encodeURIComponent(ref)}`, {
          headers: { authorization: `Bearer ${await accessToken()}`, accept: 'application/json' },
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        if (error instanceof PaypalProviderError) throw error;
        throw new PaypalProviderError(`PayPal: could not read the dispute: ${safeMessage(error)}`);
      }
      if (response.status === 401) token = null;
      if (response.status === 404) return null;
      const body: unknown = await response.json().catch(() => null);
      if (!response.ok) throw new PaypalProviderError(`PayPal: could not read the dispute (HTTP ${response.status})`);
      const dispute = toPaypalDispute(body);
      if (!dispute) throw new PaypalProviderError('PayPal answered a dispute without an id');
      return dispute;
    },

    async verifyWebhook(headers, rawBody) {
      const required = [
        'paypal-auth-algo',
        'paypal-cert-url',
        'paypal-transmission-id',
        'paypal-transmission-sig',
        'paypal-transmission-time',
      ] as const;
      const values = Object.fromEntries(required.map((name) => [name, headerValue(headers, name)]));
      if (required.some((name) => !values[name])) throw new PaypalWebhookError('Missing PayPal transmission headers');
      let event: unknown;
      try {
        event = JSON.parse(rawBody.toString('utf8'));
      } catch {
        throw new PaypalWebhookError('Webhook refused: the body is not JSON');
      }
      // The event goes back to PayPal byte for byte (re-serialising it could change what was signed).
      const payload = `{"auth_algo":${JSON.stringify(values['paypal-auth-algo'])},"cert_url":${JSON.stringify(values['paypal-cert-url'])},"transmission_id":${JSON.stringify(values['paypal-transmission-id'])},"transmission_sig":${JSON.stringify(values['paypal-transmission-sig'])},"transmission_time":${JSON.stringify(values['paypal-transmission-time'])},"webhook_id":${JSON.stringify(options.webhookId)},"webhook_event":${rawBody.toString('utf8')}}`;
      let status: unknown;
      try {
        const response = await fetch(`${apiHost}/v1/notifications/verify-webhook-signature`, {
          method: 'POST',
          headers: { authorization: `Bearer ${await accessToken()}`, 'content-type': 'application/json' },
          body: payload,
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (response.status === 401) token = null;
        const body: unknown = await response.json().catch(() => null);
        if (!response.ok) throw new PaypalProviderError(`verify-webhook-signature answered HTTP ${response.status}`);
        status = isRecord(body) ? body.verification_status : undefined;
      } catch (error) {
        if (error instanceof PaypalProviderError) throw error;
        throw new PaypalProviderError(`PayPal did not verify the webhook: ${safeMessage(error)}`);
      }
      if (status !== 'SUCCESS') throw new PaypalWebhookError('Webhook refused: PayPal did not verify its signature');
      return toPaypalEvent(event);
    },
  };
}

/** An Orders v2 order in Keyport's terms. */
export function toPaypalOrder(order: Order): PaypalOrder {
  if (!order.id || !order.status) throw new PaypalProviderError('PayPal answered an order without id or status');
  const unit = order.purchaseUnits?.[0];
  const capture = unit?.payments?.captures?.[0];
  const refunds = unit?.payments?.refunds ?? [];
  const approve = order.links?.find((link) => link.rel === 'payer-action' || link.rel === 'approve');
  return {
    ref: order.id,
    status: order.status as PaypalOrderStatus,
    amountCents: decimalToCents(unit?.amount?.value),
    currency: unit?.amount?.currencyCode ?? '',
    customId: unit?.customId ?? capture?.customId ?? null,
    captureId: capture?.id ?? null,
    captureStatus: (capture?.status as PaypalCaptureStatus | undefined) ?? null,
    capturedCents: capture ? decimalToCents(capture.amount?.value) : 0,
    refundedCents: refunds
      .filter((refund) => refund.status === 'COMPLETED')
      .reduce((sum, refund) => sum + decimalToCents(refund.amount?.value), 0),
    approveUrl: approve?.href ?? null,
  };
}

/** PayPal's `details[0].issue` of an error answer (ORDER_ALREADY_CAPTURED, INSTRUMENT_DECLINED, …). */
function issueOf(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const body = parsedBody(error);
  const details = isRecord(body) && Array.isArray(body.details) ? body.details : [];
  const first: unknown = details[0];
  return isRecord(first) && typeof first.issue === 'string' ? first.issue : null;
}

function describe(error: ApiError): string | null {
  const body = parsedBody(error);
  const details = isRecord(body) && Array.isArray(body.details) ? body.details : [];
  const first: unknown = details[0];
  return isRecord(first) && typeof first.description === 'string' ? first.description : null;
}

function parsedBody(error: ApiError): unknown {
  if (error.result) return error.result;
  if (typeof error.body !== 'string') return null;
  try {
    return JSON.parse(error.body);
  } catch {
    return null;
  }
}

function providerError(action: string, error: unknown): PaypalProviderError {
  const status =
    error instanceof ApiError ? ` (HTTP ${error.statusCode}${issueOf(error) ? `, ${issueOf(error)}` : ''})` : '';
  return new PaypalProviderError(`PayPal: could not ${action}${status}: ${safeMessage(error)}`);
}

/** An error's message for logs: payment secrets and PayPal access tokens (`A21AA…`) removed. */
function safeMessage(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  return `${error.name}: ${redactSecrets(error.message).replace(/\bA21AA[A-Za-z0-9_-]+/g, 'A21AA[redacted]')}`;
}

interface AxiosLikeConfig {
  url?: string;
  method?: string;
  headers?: { toJSON?: () => Record<string, unknown> } & Record<string, unknown>;
  data?: unknown;
  auth?: { username: string; password: string };
  timeout?: number;
}

/**
 * An axios adapter (the SDK's HTTP client is axios) that sends each request to `origin` instead of PayPal's host,
 * with Node's fetch. Used only with an API base override; production requests take the SDK's own path.
 */
function redirectingAdapter(origin: string) {
  return async (config: AxiosLikeConfig) => {
    const original = new URL(config.url ?? '/', 'https://api-m.paypal.com');
    const target = new URL(`${original.pathname}${original.search}`, origin);
    const raw = config.headers?.toJSON ? config.headers.toJSON() : (config.headers ?? {});
    const headers = new Headers();
    for (const [name, value] of Object.entries(raw)) {
      if (value !== undefined && value !== null && value !== false) headers.set(name, String(value));
    }
    if (config.auth) {
      headers.set(
        'authorization',
        `Basic ${Buffer.from(`${config.auth.username}:${config.auth.password}`).toString('base64')}`,
      );
    }
    const response = await fetch(target, {
      method: (config.method ?? 'get').toUpperCase(),
      headers,
      body: typeof config.data === 'string' ? config.data : undefined,
      signal: config.timeout ? AbortSignal.timeout(config.timeout) : undefined,
    });
    return {
      data: await response.text(),
      status: response.status,
      statusText: response.statusText,
      headers: Object.fromEntries(response.headers.entries()),
      config,
      request: {},
    };
  };
}
