import { centsToDecimal, type PaypalOrder } from '../../integrations/paypal/port';
import { SANDBOX_PAYER_ID } from '../../integrations/paypal/sandbox-adapter';

interface Checkout {
  order: PaypalOrder;
  description: string;
  returnUrl: string;
  cancelUrl: string;
}

/**
 * Where the sandbox's approval page sends the person: the order's return (with `token` and `PayerID`) or cancel URL
 * (with `token`), exactly as PayPal appends them. Only the path and query are kept: the page is the portal's own, so
 * the person stays on the origin they are on (their session lives there).
 */
export function sandboxRedirect(action: 'approve' | 'cancel', checkout: Checkout, token: string): string {
  const target = new URL(action === 'approve' ? checkout.returnUrl : checkout.cancelUrl, 'http://portal.invalid');
  const extra = action === 'approve' ? `token=${token}&PayerID=${SANDBOX_PAYER_ID}` : `token=${token}`;
  return `${target.pathname}${target.search ? `${target.search}&` : '?'}${extra}`;
}

/** The sandbox's approval page: server-rendered, no script (the app's CSP allows none inline), keyboard friendly. */
export function approvalPage({ order, description }: Checkout): string {
  const amount = `$${centsToDecimal(order.amountCents)} ${escapeHtml(order.currency)}`;
  const cancelled = order.status === 'VOIDED';
  const state =
    order.status === 'CREATED'
      ? ''
      : cancelled
        ? '<p role="status">This checkout was cancelled. Nothing was charged; start again from the portal.</p>'
        : `<p role="status">This payment was already ${order.status === 'COMPLETED' ? 'completed' : 'approved'}.</p>`;
  // A cancelled checkout offers nothing to press: it can never be approved again (issue 19).
  const form = cancelled
    ? ''
    : `<form method="post" action="/sandbox/paypal/checkout">
    <input type="hidden" name="token" value="${escapeHtml(order.ref)}">
    <div class="actions">
      <button type="submit" name="action" value="approve">Approve payment</button>
      <button type="submit" name="action" value="cancel">Cancel</button>
    </div>
  </form>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>PayPal (sandbox) – approve your payment</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f5f7fa; color: #1a1a1a; margin: 0; }
  main { max-width: 28rem; margin: 4rem auto; background: #fff; border-radius: 0.75rem; padding: 2rem;
    box-shadow: 0 1px 4px rgb(0 0 0 / 0.12); }
  h1 { font-size: 1.25rem; margin: 0 0 0.25rem; }
  .note { color: #555; font-size: 0.875rem; margin: 0 0 1.5rem; }
  .amount { font-size: 2rem; font-weight: 700; margin: 0.5rem 0; }
  .actions { display: flex; gap: 0.75rem; margin-top: 1.5rem; }
  button { font: inherit; padding: 0.75rem 1.25rem; border-radius: 999px; border: 2px solid #003087; cursor: pointer; }
  button[value="approve"] { background: #ffc439; border-color: #ffc439; color: #111; font-weight: 600; flex: 1; }
  button[value="cancel"] { background: #fff; color: #003087; }
  button:focus-visible { outline: 3px solid #0070e0; outline-offset: 2px; }
</style>
</head>
<body>
<main>
  <h1>PayPal (sandbox)</h1>
  <p class="note">Keyport's offline stand-in for PayPal: no money moves.</p>
  <p>${escapeHtml(description)}</p>
  <p class="amount" aria-label="Amount to pay">${amount}</p>
  ${state}
  ${form}
</main>
</body>
</html>
`;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
