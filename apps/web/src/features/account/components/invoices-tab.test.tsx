import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MyOrder } from '@keyport/shared/contracts/invoices';
import type { PurchasedUpgrade } from '@keyport/shared/contracts/upgrades';
import { toast } from 'sonner';
import { InvoicesTab } from './invoices-tab';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const token: PurchasedUpgrade = {
  id: 9,
  license_key: 'LITE-AAAA-BBBB-CCCC',
  upgrade_from: 'LITE',
  upgrade_to: 'REGULAR',
  status: 'completed',
  processed: true,
  source: 'token',
  amount_paid: 0,
  subtotal: 0,
  vat_amount: 0,
  vat_rate: 0,
  reverse_charge: false,
  currency: 'usd',
  created_at: '2026-01-15T10:00:00.000Z',
  payment_completed_at: null,
  processing_error: null,
  upgrade_processed_at: '2026-01-15T10:00:00.000Z',
  invoice_url: null,
};
const noUpgrades = { stripe_upgrades: [], l2p_upgrade_tokens: [], lite_upgrade_tokens: [], regular_upgrade_tokens: [] };
const invoice = {
  id: 7,
  number: '2026-000012',
  kind: 'invoice',
  issued_at: '2026-03-02T10:00:05.000Z',
  total: 14280,
  currency: 'usd',
  credited_invoice_number: null,
} as const;
const creditNote = {
  ...invoice,
  id: 8,
  number: 'CN-2026-000003',
  kind: 'credit_note',
  issued_at: '2026-03-09T08:00:00.000Z',
  credited_invoice_number: '2026-000012',
} as const;
/** A refunded upgrade: its invoice and the credit note, oldest first. */
const upgradeOrder: MyOrder = {
  kind: 'upgrade',
  id: 41,
  description: 'License upgrade LITE to REGULAR',
  license_key: 'LITE-AAAA-BBBB-CCCC',
  created_at: '2026-03-02T10:00:00.000Z',
  subtotal: 12000,
  vat_amount: 2280,
  total: 14280,
  vat_rate_bp: 1900,
  reverse_charge: false,
  currency: 'usd',
  status: 'refunded',
  documents: [invoice, creditNote],
};
/** A team member's credit pack, reverse charged. */
const packOrder: MyOrder = {
  kind: 'credit_pack',
  id: 42,
  description: '10 Keyport credits',
  license_key: null,
  created_at: '2026-04-01T10:00:00.000Z',
  subtotal: 9000,
  vat_amount: 0,
  total: 9000,
  vat_rate_bp: 0,
  reverse_charge: true,
  currency: 'usd',
  status: 'completed',
  documents: [{ ...invoice, id: 11, number: '2026-000020', issued_at: '2026-04-01T10:00:04.000Z', total: 9000 }],
};
const legacyOrder: MyOrder = {
  kind: 'legacy',
  id: null,
  description: 'Theme license',
  license_key: null,
  created_at: '2025-05-01T00:00:00.000Z',
  subtotal: null,
  vat_amount: null,
  total: null,
  vat_rate_bp: null,
  reverse_charge: false,
  currency: null,
  status: null,
  documents: [],
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
function renderTab() {
  localStorage.setItem('keyport.session', 'session-token');
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <InvoicesTab />
    </QueryClientProvider>,
  );
}

describe('Settings → Invoices: one list of orders', () => {
  it('lists every order as the server orders them, each with its amounts, status and documents', async () => {
    serve({
      '/orders': () => json({ orders: [packOrder, upgradeOrder, legacyOrder] }),
      '/keys/check_purchased_upgrades': () => json(noUpgrades),
    });
    renderTab();
    const rows = await screen.findAllByTestId('order');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(
        /^Order #42 · 10 Keyport credits.*Paid.*April 1, 2026.*Subtotal\$90\.00.*VATReverse Charge.*Total\$90\.00.*Invoice 2026-000020/,
      ),
      expect.stringMatching(
        /^Order #41 · License upgrade LITE to REGULAR.*Refunded.*March 2, 2026.*LITE-AAAA-BBBB-CCCC.*Subtotal\$120\.00.*VAT \(19%\)\$22\.80.*Total\$142\.80/,
      ),
      expect.stringMatching(/^Theme license.*May 1, 2025$/),
    ]);
    // Each order number once: the legacy order has none of its own.
    expect(screen.getAllByText(/Order #41/)).toHaveLength(1);
    const documents = within(rows[1]!).getAllByTestId('invoice');
    expect(documents.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/Invoice 2026-000012.*March 2, 2026.*\$142\.80/),
      expect.stringMatching(/Credit note CN-2026-000003.*March 9, 2026.*for invoice 2026-000012.*-\$142\.80/),
    ]);
    expect(within(rows[2]!).queryAllByRole('button')).toHaveLength(0);
    expect(screen.queryByText('No purchases yet.')).toBeNull();
  });

  it('downloads a document with the session’s Authorization header: one PDF button per document', async () => {
    const fetchMock = serve({
      '/orders': () => json({ orders: [upgradeOrder] }),
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
    const order = await screen.findByTestId('order');
    expect(
      within(order)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['Download invoice 2026-000012 (PDF)', 'Download credit note CN-2026-000003 (PDF)']);
    await userEvent.click(screen.getByRole('button', { name: 'Download invoice 2026-000012 (PDF)' }));
    await waitFor(() => expect(saved).toEqual(['keyport-invoice-2026-000012.pdf']));
    const call = fetchMock.mock.calls.find(([url]) => String(url) === '/invoices/7/pdf');
    expect((call![1]!.headers as Record<string, string>).authorization).toBe('Token session-token');
  });

  it('lists every document of a dispute won after its funds were withdrawn: invoice, credit note, invoice again', async () => {
    const reissued = { ...invoice, id: 9, number: '2026-000031', issued_at: '2026-04-20T12:00:00.000Z' };
    serve({
      '/orders': () =>
        json({ orders: [{ ...upgradeOrder, status: 'completed', documents: [invoice, creditNote, reissued] }] }),
      '/keys/check_purchased_upgrades': () => json(noUpgrades),
    });
    renderTab();
    const order = await screen.findByTestId('order');
    expect(within(order).getByText('Paid')).toBeTruthy();
    expect(
      within(order)
        .getAllByTestId('invoice')
        .map((row) => row.textContent),
    ).toEqual([
      expect.stringMatching(/Invoice 2026-000012.*March 2, 2026.*\$142\.80/),
      expect.stringMatching(/Credit note CN-2026-000003.*for invoice 2026-000012.*-\$142\.80/),
      expect.stringMatching(/Invoice 2026-000031.*April 20, 2026.*\$142\.80/),
    ]);
    expect(
      within(order)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual([
      'Download invoice 2026-000012 (PDF)',
      'Download credit note CN-2026-000003 (PDF)',
      'Download invoice 2026-000031 (PDF)',
    ]);
  });

  it('tells the person when a download fails', async () => {
    serve({
      '/orders': () => json({ orders: [{ ...upgradeOrder, status: 'completed', documents: [invoice] }] }),
      '/keys/check_purchased_upgrades': () => json(noUpgrades),
      '/invoices/7/pdf': () => json({ error: 'Invoice not found.', code: 'invoice_not_found' }, 404),
    });
    const toastError = vi.spyOn(toast, 'error');
    renderTab();
    const order = await screen.findByTestId('order');
    expect(order).toHaveTextContent('Paid');
    await userEvent.click(within(order).getByRole('button', { name: /Download invoice/ }));
    await waitFor(() => expect(toastError).toHaveBeenCalledWith('Failed to download the invoice. Please try again.'));
  });

  it('says "No purchases yet." when there are no orders, and lists the upgrades redeemed with a token', async () => {
    serve({
      '/orders': () => json({ orders: [] }),
      '/keys/check_purchased_upgrades': () => json({ ...noUpgrades, lite_upgrade_tokens: [token] }),
    });
    renderTab();
    expect(await screen.findByText('No purchases yet.')).toBeInTheDocument();
    expect(screen.getByTestId('redeemed-upgrade')).toHaveTextContent(
      /LITE to REGULAR.*January 15, 2026.*Upgrade token.*LITE-AAAA-BBBB-CCCC/,
    );
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });

  it('says so when the orders cannot be loaded, and when the redeemed upgrades cannot', async () => {
    serve({
      '/orders': () => json({ error: 'x', code: 'internal' }, 500),
      '/keys/check_purchased_upgrades': () => json({ error: 'x', code: 'internal' }, 500),
    });
    renderTab();
    expect(
      await screen.findByText('Failed to load your orders and invoices. Please try again later.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Failed to load your redeemed upgrades. Please try again later.')).toBeInTheDocument();
    expect(screen.queryByText('No purchases yet.')).toBeNull();
  });
});
