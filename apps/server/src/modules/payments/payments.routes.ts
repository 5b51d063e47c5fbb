import type { FastifyInstance } from 'fastify';
import * as credits from '@keyport/shared/contracts/credits';
import * as contracts from '@keyport/shared/contracts/payments';
import * as paypal from '@keyport/shared/contracts/paypal';
import { luhnValid, normalizeCardNumber, sandboxCardOutcome } from '@keyport/shared/domain/card-payment';
import { AppError, notFound } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { approvalPage, sandboxRedirect } from './paypal-sandbox-page';

export const CARD_NUMBER_INVALID = 'Your card number is invalid.';

/** §7 card payments: config, payment intents and their sync, the webhook, the sandbox's confirmation, invoice PDFs by order. */
export async function paymentsRoutes(app: FastifyInstance) {
  const { payments, sandboxPayments, invoices, paypalCheckout, sandboxPaypal, staffOrders } = app.services;

  // Issue 12: staff's orders, and refunds asked of the provider (its webhook then does the rest).
  registerRoute(app, contracts.staffListOrders, ({ query }) => staffOrders.list(query));
  registerRoute(app, contracts.staffRefundOrder, async ({ user, params, body }) => ({
    order: await staffOrders.requestRefund(user.id, Number(params.id), body.reason),
  }));

  registerRoute(app, contracts.getStripeConfig, async (_input, _request, reply) => {
    reply.header('cache-control', 'no-store');
    return { publishableKey: payments.publishableKey() };
  });

  registerRoute(app, contracts.createPaymentIntent, async ({ user, body }) => {
    const started = await payments.start(user, body);
    return {
      payment_intent: { id: started.paymentRef, client_secret: started.clientSecret },
      order: payments.toQuote(started.order),
    };
  });

  // Credit packs (issue 11, team members only): the same orders, payments and fulfilment; settled by the sync,
  // capture and webhook routes here.
  registerRoute(app, credits.createCreditPackPaymentIntent, async ({ user, body }) => {
    const started = await payments.startPack(user, body);
    return {
      payment_intent: { id: started.paymentRef, client_secret: started.clientSecret },
      order: payments.toQuote(started.order),
    };
  });

  registerRoute(app, credits.createCreditPackPaypalOrder, async ({ user, body }) => {
    const created = await paypalCheckout.createPackOrder(user, body);
    return {
      order: { id: created.paypalOrder.ref },
      approve_url: created.approveUrl,
      quote: payments.toQuote(created.order),
    };
  });

  registerRoute(app, contracts.syncPaymentIntent, async ({ user, params }) => {
    const settled = await payments.sync(user.id, params.id);
    return { order: payments.toQuote(settled.order), key: settled.key };
  });

  // The webhook reads its body as raw bytes (the signature is over them): a parser scoped to this route only.
  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    registerRoute(webhook, contracts.stripeWebhook, async (_input, request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['stripe-signature'];
      const { duplicate } = await payments.handleWebhook(raw, typeof signature === 'string' ? signature : undefined);
      return { received: true as const, duplicate };
    });
  });

  // Only while payments run in the sandbox: Stripe's test cards decide; the sandbox then sends the signed event to
  // the webhook above, as Stripe would.
  if (sandboxPayments) {
    registerRoute(app, contracts.confirmSandboxPayment, async ({ user, body }) => {
      await payments.ownedOrderByPayment(user.id, body.payment_intent_id);
      const digits = normalizeCardNumber(body.card_number);
      if (!luhnValid(digits)) throw new AppError(402, CARD_NUMBER_INVALID, 'invalid_number');
      const outcome = sandboxCardOutcome(digits);
      await payments.confirmSandbox(user.id, body.payment_intent_id, () =>
        sandboxPayments.confirmPayment(body.payment_intent_id, outcome),
      );
      return { status: 'requires_capture' as const };
    });
  }

  // §7 PayPal (Orders v2): a second way into the same orders and fulfilment (paypal-checkout.service).
  registerRoute(app, paypal.getPaypalConfig, async (_input, _request, reply) => {
    reply.header('cache-control', 'no-store');
    return paypalCheckout.config();
  });

  registerRoute(app, paypal.createPaypalOrder, async ({ user, body }) => {
    const created = await paypalCheckout.createOrder(user.id, body);
    return {
      order: { id: created.paypalOrder.ref },
      approve_url: created.approveUrl,
      quote: payments.toQuote(created.order),
    };
  });

  registerRoute(app, paypal.capturePaypalOrder, async ({ user, body }) => {
    const captured = await paypalCheckout.captureOrder(user.id, body.order_id);
    return { order: payments.toQuote(captured.order), key: captured.key };
  });

  registerRoute(app, paypal.cancelPaypalOrder, async ({ user, body }) => ({
    order: payments.toQuote(await paypalCheckout.cancelOrder(user.id, body.order_id)),
  }));

  // PayPal's webhook, on its raw bytes (PayPal verifies the event as sent): a parser scoped to this route only.
  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    // At /paypal/webhook, and at its first path under /stripe/ (issue 21): one handler, verified the same way.
    for (const contract of [paypal.paypalWebhook, paypal.paypalWebhookAtStripePath]) {
      registerRoute(webhook, contract, async (_input, request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const { duplicate } = await paypalCheckout.handleWebhook(request.headers, raw);
        return { received: true as const, duplicate };
      });
    }
  });

  // Only while the wallet runs in the sandbox: the portal's own stand-in for PayPal's approval page (a plain HTML
  // form, no script, within the app's CSP), which returns to the dashboard exactly as PayPal's redirect does.
  if (sandboxPaypal) {
    registerRoute(app, paypal.sandboxPaypalCheckout, async ({ query }, _request, reply) => {
      const checkout = await sandboxPaypal.checkout(query.token);
      if (!checkout) throw notFound('This PayPal order does not exist.', 'order_not_found');
      reply.code(200).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store');
      return Buffer.from(approvalPage(checkout));
    });
    await app.register(async (form) => {
      form.removeAllContentTypeParsers();
      form.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 4096 },
        (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );
      registerRoute(form, paypal.sandboxPaypalDecide, async ({ body }, _request, reply) => {
        const checkout = await sandboxPaypal.checkout(body.token);
        if (!checkout) throw notFound('This PayPal order does not exist.', 'order_not_found');
        if (body.action === 'approve') {
          const approval = await sandboxPaypal.approve(body.token);
          if (approval.result === 'cancelled') {
            // A cancelled checkout stays cancelled: its page says so and returns nowhere (issue 19).
            reply.code(409).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store');
            return Buffer.from(approvalPage({ ...checkout, order: approval.order }));
          }
        } else {
          await sandboxPaypal.cancel(body.token);
        }
        const location = sandboxRedirect(body.action, checkout, body.token);
        reply
          .code(303)
          .header('location', location)
          .header('content-type', 'text/html; charset=utf-8')
          .header('cache-control', 'no-store');
        return Buffer.from(
          `<!doctype html><title>Redirecting</title><a href="${location.replaceAll('&', '&amp;')}">Continue</a>`,
        );
      });
    });
  }

  // A paid order's invoice by its order (the first "receipt" links): the same PDF as GET /invoices/:id/pdf.
  registerRoute(app, contracts.getOrderInvoicePdf, async ({ user, params }, _request, reply) => {
    const order = await payments.ownedOrder(user.id, Number(params.id));
    if (order.paymentCompletedAt === null) throw notFound('This order has no invoice: it was not paid.', 'not_paid');
    const { pdf, filename } = await invoices.pdfForOrder(order.id);
    reply
      .code(200)
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'private, no-store');
    return pdf;
  });
}
