import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { StaffOrder } from '@keyport/shared/contracts/payments';
import { fakeApi, json } from '../../../test/fake-api';
import { renderStaffPage } from '../../../test/render-staff-page';
import { OrdersPage } from './orders-page';

const CARD_UPGRADE: StaffOrder = {
  id: 41,
  kind: 'upgrade',
  status: 'completed',
  from: 'LITE',
  to: 'REGULAR',
  credits: null,
  currency: 'usd',
  base_amount: 12_000,
  vat_amount: 2_280,
  total_amount: 14_280,
  vat_rate: 19,
  reverse_charge: false,
  user_id: 3,
  email: 'ann@example.com',
  license_key: 'KEY-ANN-1',
  method: 'card',
  provider: 'sandbox',
  provider_payment_id: 'pi_sandbox_41',
  billing_country: 'DE',
  dispute_state: null,
  dispute_ref: null,
  vat_id: null,
  vat_consultation_number: null,
  processing_error: null,
  created_at: '2026-11-20T09:00:00.000Z',
  paid_at: '2026-11-20T09:01:00.000Z',
  refunded_at: null,
};
const PAYPAL_PACK: StaffOrder = {
  ...CARD_UPGRADE,
  id: 40,
  kind: 'credit_pack',
  from: null,
  to: null,
  credits: 12,
  base_amount: 5_000,
  vat_amount: 0,
  total_amount: 5_000,
  vat_rate: 0,
  reverse_charge: true,
  vat_id: 'ATU12345678',
  license_key: null,
  method: 'paypal',
  provider: 'paypal_sandbox',
  provider_payment_id: 'PAYPAL-ORDER-40',
  billing_country: 'AT',
};
const PENDING: StaffOrder = { ...CARD_UPGRADE, id: 39, status: 'pending', paid_at: null, provider_payment_id: null };
const DISPUTED: StaffOrder = {
  ...CARD_UPGRADE,
  id: 38,
  status: 'disputed',
  dispute_state: 'funds_withdrawn',
  dispute_ref: 'dp_sandbox_38',
};
const VOID: StaffOrder = {
  ...CARD_UPGRADE,
  id: 37,
  status: 'void',
  paid_at: null,
  processing_error: 'This upgrade no longer applies: the license is REGULAR now. Nothing was charged.',
};

const renderPage = (url: string) => renderStaffPage('/staff/orders', <OrdersPage />, url);

/** The query strings of the list calls so far (the fake API records paths only). */
const listQueries = () =>
  vi
    .mocked(fetch)
    .mock.calls.map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === '/staff/orders')
    .map((url) => url.search);

describe('the orders page', () => {
  it('shows what each order bought, its provider id, amounts and VAT evidence; only paid orders can be refunded', async () => {
    fakeApi({
      'GET /staff/orders': () => json(200, { orders: [CARD_UPGRADE, PAYPAL_PACK, PENDING], next_cursor: null }),
    });
    renderPage('/staff/orders');
    const table = await screen.findByRole('table', { name: 'Orders' });
    await within(table).findByText('12 credits');
    const [card, paypal, pending] = within(table).getAllByRole('row').slice(1);
    expect(card).toHaveTextContent('LITE → REGULAR');
    expect(card).toHaveTextContent('KEY-ANN-1');
    expect(card).toHaveTextContent('pi_sandbox_41');
    expect(card).toHaveTextContent('$142.80');
    expect(card).toHaveTextContent('$120.00 + VAT $22.80');
    expect(card).toHaveTextContent('DE · 19%');
    expect(paypal).toHaveTextContent('12 credits');
    expect(paypal).toHaveTextContent('PayPal');
    expect(paypal).toHaveTextContent('AT · 0% · reverse charge');
    expect(paypal).toHaveTextContent('VAT ID ATU12345678');
    expect(within(card!).getByRole('button', { name: 'Refund' })).toBeTruthy();
    expect(within(paypal!).getByRole('button', { name: 'Refund' })).toBeTruthy();
    expect(within(pending!).queryByRole('button', { name: 'Refund' })).toBeNull();
  });

  it('shows a dispute with its state and id, and why an order was never charged (issue 19)', async () => {
    fakeApi({ 'GET /staff/orders': () => json(200, { orders: [DISPUTED, VOID], next_cursor: null }) });
    renderPage('/staff/orders?dispute=any');
    const table = await screen.findByRole('table', { name: 'Orders' });
    await within(table).findByText('Dispute: funds withdrawn');
    const [disputed, voided] = within(table).getAllByRole('row').slice(1);
    expect(disputed).toHaveTextContent('disputed');
    expect(disputed).toHaveTextContent('dp_sandbox_38');
    expect(within(disputed!).getByRole('button', { name: 'Refund' })).toBeTruthy();
    expect(voided).toHaveTextContent('void');
    expect(voided).toHaveTextContent(
      'This upgrade no longer applies: the license is REGULAR now. Nothing was charged.',
    );
    expect(within(voided!).queryByRole('button', { name: 'Refund' })).toBeNull();
    expect(listQueries().at(-1)).toBe('?dispute=any');
  });

  it('a refund says what will happen, needs a reason, and sends it once', async () => {
    const api = fakeApi({
      'GET /staff/orders': () => json(200, { orders: [CARD_UPGRADE], next_cursor: null }),
      'POST /staff/orders/41/refund': () => json(202, { order: CARD_UPGRADE }),
    });
    const user = renderPage('/staff/orders');
    await user.click(await screen.findByRole('button', { name: 'Refund' }));
    const dialog = screen.getByRole('dialog', { name: 'Refund order 41?' });
    expect(dialog).toHaveTextContent(
      '$142.80 goes back to ann@example.com through the card provider. When the provider confirms, the order is marked refunded and the license goes back to its tier before the upgrade.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await within(dialog).findByRole('alert')).toBeTruthy();
    expect(api.callsTo('POST', '/staff/orders/41/refund')).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Bought by mistake');
    await user.dblClick(within(dialog).getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', '/staff/orders/41/refund').map((call) => call.body)).toEqual([
      { reason: 'Bought by mistake' },
    ]);
  });

  it('filters and the Created sort live in the URL and reach the server', async () => {
    fakeApi({ 'GET /staff/orders': () => json(200, { orders: [CARD_UPGRADE], next_cursor: null }) });
    const user = renderPage('/staff/orders?status=completed&provider=card');
    await screen.findByText('LITE → REGULAR');
    expect(listQueries().at(-1)).toBe('?status=completed&provider=card');
    const created = screen.getByRole('columnheader', { name: /Created/ });
    expect(created.getAttribute('aria-sort')).toBe('descending');

    await user.click(within(created).getByRole('button', { name: /Created/ }));
    await waitFor(() => expect(listQueries().at(-1)).toBe('?status=completed&provider=card&order=asc'));
    expect(screen.getByRole('columnheader', { name: /Created/ }).getAttribute('aria-sort')).toBe('ascending');

    await user.click(within(screen.getByRole('columnheader', { name: /Created/ })).getByRole('button'));
    await waitFor(() => expect(listQueries().at(-1)).toBe('?status=completed&provider=card'));
  });

  it('says so when nothing matches, and offers a retry when the list fails', async () => {
    let fail = true;
    fakeApi({
      'GET /staff/orders': () =>
        fail ? json(500, { error: 'Internal error', code: 'internal' }) : json(200, { orders: [], next_cursor: null }),
    });
    const user = renderPage('/staff/orders');
    expect(await screen.findByText(/Internal error/)).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No orders match.')).toBeTruthy();
  });
});
