import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InvoiceSummary } from '@keyport/shared/contracts/invoices';
import type { PurchasedUpgrade } from '@keyport/shared/contracts/upgrades';
import { toast } from 'sonner';
import { InvoicesTab } from './invoices-tab';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const paid: PurchasedUpgrade = {
  id: 3,
  license_key: 'LITE-AAAA-BBBB-CCCC',
  upgrade_from: 'LITE',
  upgrade_to: 'REGULAR',
  status: 'completed',
  processed: true,
  source: 'card',
  amount_paid: 14280,
  subtotal: 12000,
  vat_amount: 2280,
  vat_rate: 19,
  reverse_charge: false,
  currency: 'usd',
  created_at: '2026-03-02T10:00:00.000Z',
  payment_completed_at: '2026-03-02T10:00:05.000Z',
  processing_error: null,
  upgrade_processed_at: '2026-03-02T10:00:05.000Z',
  receipt_url: '/upgrades/orders/41/receipt',
};
const reverseCharged: PurchasedUpgrade = {
  ...paid,
  id: 4,
  upgrade_from: 'REGULAR',
  upgrade_to: 'PRO',
  amount_paid: 22000,
  subtotal: 22000,
  vat_amount: 0,
  vat_rate: 0,
  reverse_charge: true,
  created_at: '2026-04-01T10:00:00.000Z',
  receipt_url: '/upgrades/orders/42/receipt',
};
const token: PurchasedUpgrade = {
  ...paid,
  id: 9,
  source: 'token',
  amount_paid: 0,
  subtotal: 0,
  vat_amount: 0,
  vat_rate: 0,
  created_at: '2026-01-15T10:00:00.000Z',
  receipt_url: null,
};

function serve(routes: Record<string, () => Response>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    const route = routes[path];
    if (!route) throw new TypeError('Failed to fetch');
    void init;
    return route();
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const me = {
  id: 1,
  email: 'a@example.com',
  name: 'A',
  role: null,
  has_lifetime_support: null,
  orders: [{ id: 5, created_at: '2025-05-01T00:00:00.000Z' }],
};

function renderTab() {
  localStorage.setItem('keyport.session', 'session-token');
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <InvoicesTab />
    </QueryClientProvider>,
  );
}

describe('Settings → Invoices', () => {
  it('lists every purchased upgrade (newest first) with subtotal, VAT, total, status and receipt, beside the orders', async () => {
    serve({
      '/auth/me': () => json(me),
      '/invoices': () => json({ invoices: [] }),
      '/keys/check_purchased_upgrades': () =>
        json({
          stripe_upgrades: [paid, reverseCharged],
          l2p_upgrade_tokens: [],
          lite_upgrade_tokens: [token],
          regular_upgrade_tokens: [],
        }),
    });
    renderTab();
    const rows = await screen.findAllByTestId('purchased-upgrade');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(
        /REGULAR to PRO.*Completed.*April 1, 2026.*Card.*Subtotal\$220\.00.*VATReverse Charge.*Total\$220\.00.*Receipt/,
      ),
      expect.stringMatching(
        /LITE to REGULAR.*Completed.*March 2, 2026.*Card.*Subtotal\$120\.00.*VAT \(19%\)\$22\.80.*Total\$142\.80.*Receipt/,
      ),
      expect.stringMatching(/LITE to REGULAR.*Completed.*January 15, 2026.*Upgrade token.*Total\$0\.00/),
    ]);
    expect(within(rows[2]!).queryByRole('button', { name: /Receipt/ })).toBeNull();
    expect(screen.getByRole('list', { name: 'Purchases' })).toHaveTextContent('Order #5');
  });

  it('downloads the receipt with the session’s Authorization header', async () => {
    const fetchMock = serve({
      '/auth/me': () => json(me),
      '/invoices': () => json({ invoices: [] }),
      '/keys/check_purchased_upgrades': () =>
        json({ stripe_upgrades: [paid], l2p_upgrade_tokens: [], lite_upgrade_tokens: [], regular_upgrade_tokens: [] }),
      '/upgrades/orders/41/receipt': () =>
        new Response('%PDF-1.7', {
          headers: {
            'content-type': 'application/pdf',
            'content-disposition': 'attachment; filename="keyport-receipt-41.pdf"',
          },
        }),
    });
    const saved: string[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: () => 'blob:receipt', revokeObjectURL: () => undefined }),
    );
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderTab();
    await userEvent.click(await screen.findByRole('button', { name: 'Receipt (PDF)' }));
    await waitFor(() => expect(saved).toEqual(['keyport-receipt-41.pdf']));
    const receiptCall = fetchMock.mock.calls.find(([url]) => String(url) === '/upgrades/orders/41/receipt');
    expect((receiptCall![1]!.headers as Record<string, string>).authorization).toBe('Token session-token');
  });

  it('says so when the upgrades cannot be loaded, and still shows the orders', async () => {
    serve({
      '/auth/me': () => json(me),
      '/invoices': () => json({ invoices: [] }),
      '/keys/check_purchased_upgrades': () => json({ error: 'x', code: 'internal' }, 500),
    });
    renderTab();
    expect(await screen.findByText('Failed to load your upgrades. Please try again later.')).toBeInTheDocument();
    expect(screen.getByText('Order #5')).toBeInTheDocument();
  });

  it('shows "No invoices yet." when there are none', async () => {
    serve({
      '/auth/me': () => json(me),
      '/invoices': () => json({ invoices: [] }),
      '/keys/check_purchased_upgrades': () => json(noUpgrades),
    });
    renderTab();
    expect(await screen.findByText('No invoices yet.')).toBeInTheDocument();
    expect(screen.queryAllByTestId('invoice')).toHaveLength(0);
  });

  it('says so when the invoices cannot be loaded, and still shows the upgrades and orders', async () => {
    serve({
      '/auth/me': () => json(me),
      '/invoices': () => json({ error: 'x', code: 'internal' }, 500),
      '/keys/check_purchased_upgrades': () => json(noUpgrades),
    });
    renderTab();
    expect(await screen.findByText('Failed to load your invoices. Please try again later.')).toBeInTheDocument();
    expect(screen.getByText('No upgrades yet.')).toBeInTheDocument();
    expect(screen.getByText('Order #5')).toBeInTheDocument();
  });
});

const noUpgrades = { stripe_upgrades: [], l2p_upgrade_tokens: [], lite_upgrade_tokens: [], regular_upgrade_tokens: [] };
const invoice: InvoiceSummary = {
  id: 7,
  number: '2026-000012',
  kind: 'invoice',
  issued_at: '2026-03-02T10:00:05.000Z',
  total: 14280,
  currency: 'usd',
  order_id: 41,
  status: 'refunded',
  credited_invoice_number: null,
};
const creditNote: InvoiceSummary = {
  ...invoice,
  id: 8,
  number: 'CN-2026-000003',
  kind: 'credit_note',
  issued_at: '2026-03-09T08:00:00.000Z',
  credited_invoice_number: '2026-000012',
};

describe('Settings → Invoices: invoices and credit notes', () => {
  it('lists them as the server orders them, with number, date, total, status and a PDF download each', async () => {
    const fetchMock = serve({
      '/auth/me': () => json(me),
      '/invoices': () => json({ invoices: [creditNote, invoice] }),
      '/keys/check_purchased_upgrades': () => json(noUpgrades),
      '/invoices/7/pdf': () =>
        new Response('%PDF-1.3', {
          headers: {
            'content-type': 'application/pdf',
            'content-disposition': 'attachment; filename="keyport-invoice-2026-000012.pdf"',
          },
        }),
    });
    const saved: string[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: () => 'blob:invoice', revokeObjectURL: () => undefined }),
    );
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderTab();
    const rows = await screen.findAllByTestId('invoice');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(
        /Credit note CN-2026-000003.*March 9, 2026.*Order #41.*for invoice 2026-000012.*-\$142\.80.*Refunded/,
      ),
      expect.stringMatching(/Invoice 2026-000012.*March 2, 2026.*Order #41.*\$142\.80.*Refunded/),
    ]);
    expect(within(rows[0]!).getByRole('button', { name: 'Download credit note CN-2026-000003 (PDF)' })).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: 'Download invoice 2026-000012 (PDF)' }));
    await waitFor(() => expect(saved).toEqual(['keyport-invoice-2026-000012.pdf']));
    const call = fetchMock.mock.calls.find(([url]) => String(url) === '/invoices/7/pdf');
    expect((call![1]!.headers as Record<string, string>).authorization).toBe('Token session-token');
  });

  it('tells the person when a download fails', async () => {
    serve({
      '/auth/me': () => json(me),
      '/invoices': () => json({ invoices: [{ ...invoice, status: 'completed' }] }),
      '/keys/check_purchased_upgrades': () => json(noUpgrades),
      '/invoices/7/pdf': () => json({ error: 'Invoice not found.', code: 'invoice_not_found' }, 404),
    });
    const toastError = vi.spyOn(toast, 'error');
    renderTab();
    const row = await screen.findByTestId('invoice');
    expect(row).toHaveTextContent('Paid');
    await userEvent.click(within(row).getByRole('button', { name: /Download invoice/ }));
    await waitFor(() => expect(toastError).toHaveBeenCalledWith('Failed to download the invoice. Please try again.'));
  });
});
