import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Analytics from '../../../lib/analytics';
import { onCreditEvent } from '../../../lib/credit-events';
import { fakeApi, json, ORDER } from '../test/fake-api';

// The toasts, recorded (sonner's store outlives a test; the calls are what the hook decides).
const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('sonner', () => ({ toast }));
const track = vi.hoisted(() => vi.fn());
vi.mock('../../../lib/analytics', async (importOriginal) => ({
  ...(await importOriginal<typeof Analytics>()),
  track,
}));

beforeEach(() => {
  sessionStorage.clear();
  vi.clearAllMocks();
  vi.resetModules(); // a fresh page load: the hook's module state starts empty
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const PACK_ORDER = { ...ORDER, kind: 'credit_pack', from: null, to: null, credits: 20, status: 'completed' };

async function loadPage(url: string) {
  const { usePaypalReturn } = await import('../components/use-paypal-return');
  function Dashboard() {
    usePaypalReturn();
    return null;
  }
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Dashboard />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the PayPal return of a credit-pack order', () => {
  it('says how many credits were added and announces the new balance (not the upgrade text)', async () => {
    fakeApi({
      'POST /stripe/paypal/capture-order': () => json(200, { order: PACK_ORDER, key: null }),
      'GET /credits/balance': () => json(200, { balance: 25, owed: 0, can_report: true }),
    });
    const changed = vi.fn();
    const stop = onCreditEvent('creditsBalanceChanged', changed);
    await loadPage('/customer/my-keys?paypalReturn=true&token=7PK12345&PayerID=X');
    await waitFor(() => expect(changed).toHaveBeenCalledWith({ balance: 25 }));
    stop();
    expect(toast.success).toHaveBeenCalledExactlyOnceWith('Payment completed. 20 credits were added to your account.');
    expect(toast.error).not.toHaveBeenCalled();
    expect(track).not.toHaveBeenCalledWith('Completed Upgrade Purchase', expect.anything(), expect.anything());
  });

  it('keeps the upgrade text for an upgrade order, and the cancel text', async () => {
    fakeApi({
      'POST /stripe/paypal/capture-order': () =>
        json(200, { order: { ...ORDER, to: 'PRO', status: 'completed' }, key: null }),
    });
    await loadPage('/customer/my-keys?paypalReturn=true&token=UPG1');
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Payment completed. Your license was upgraded.'));
    cleanup();
    vi.resetModules();
    await loadPage('/customer/my-keys?paypalCancel=true&token=7PK1');
    await waitFor(() => expect(toast.info).toHaveBeenCalledWith('PayPal checkout was cancelled'));
  });
});
