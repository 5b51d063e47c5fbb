import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Key } from '@keyport/shared/contracts/keys';
import { queryKeys } from '../../../lib/query-keys';
import { deferred, fakeApi, json, LITE_KEY, ORDER } from '../test/fake-api';

// The toasts, recorded (sonner's store outlives a test; the calls are what the hook decides).
const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

const PRO = { ...LITE_KEY, lite: false, pro: true };
const COMPLETED = { order: { ...ORDER, to: 'PRO', status: 'completed' }, key: PRO };

beforeEach(() => {
  sessionStorage.clear();
  vi.clearAllMocks();
  vi.resetModules(); // each test is a fresh page load: the hook's module state starts empty
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/** The dashboard's return handling, as a fresh page load at `url` (React's double effects on). */
async function loadPage(url: string, onUpgraded?: (upgrade: unknown) => void) {
  const { usePaypalReturn } = await import('./use-paypal-return');
  function Dashboard() {
    usePaypalReturn({ onUpgraded });
    return <Where />;
  }
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const keys: Key[] = [LITE_KEY];
  client.setQueryData(queryKeys.keys, keys);
  const invalidate = vi.spyOn(client, 'invalidateQueries');
  const view = render(
    <StrictMode>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[url]}>
          <Dashboard />
        </MemoryRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
  return { invalidate, view };
}

const location = () => screen.getByTestId('location');
const COMPLETED_TEXT = 'Payment completed. Your license was upgraded.';
const FAILED_TEXT = 'Failed to finalize PayPal payment. Please contact support if you were charged.';
/** Every toast shown so far, as [kind, text]. */
const toasts = () =>
  (['success', 'error', 'info'] as const).flatMap((kind) => toast[kind].mock.calls.map((call) => [kind, call[0]]));

describe('the dashboard’s PayPal return (§2 query parameters, §4 handled only once, §8 texts)', () => {
  it('captures once despite double effects, says so, removes the parameters and refreshes the keys', async () => {
    const api = fakeApi({ 'POST /stripe/paypal/capture-order': () => json(200, COMPLETED) });
    const { invalidate } = await loadPage(
      '/customer/my-keys?paypalReturn=true&token=5O190127TN364715T&PayerID=X&q=harbor',
    );
    await waitFor(() => expect(toasts()).toEqual([['success', COMPLETED_TEXT]]));
    expect(location()).toHaveTextContent(/^\/customer\/my-keys\?q=harbor$/);
    expect(api.callsTo('POST', '/stripe/paypal/capture-order')).toEqual([
      { method: 'POST', path: '/stripe/paypal/capture-order', body: { order_id: '5O190127TN364715T' } },
    ]);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.keys });
  });

  it('hands a completed upgrade to the page (its success screen) instead of the toast', async () => {
    fakeApi({ 'POST /stripe/paypal/capture-order': () => json(200, COMPLETED) });
    const onUpgraded = vi.fn();
    await loadPage('/customer/my-keys?paypalReturn=true&token=5O190127TN364715T', onUpgraded);
    await waitFor(() => expect(onUpgraded).toHaveBeenCalledWith({ key: PRO, path: 'LITE_TO_PRO' }));
    expect(onUpgraded).toHaveBeenCalledTimes(1);
    expect(toasts()).toEqual([]);
  });

  it("brings back the dashboard's search and page the person left for PayPal from", async () => {
    fakeApi({ 'POST /stripe/paypal/capture-order': () => json(200, COMPLETED) });
    sessionStorage.setItem('keyport.return-view', 'q=harbor&page=2');
    await loadPage('/customer/my-keys?paypalReturn=true&token=5O190127TN364715T&PayerID=X');
    await waitFor(() => expect(location()).toHaveTextContent(/^\/customer\/my-keys\?q=harbor&page=2$/));
  });

  it('accepts orderId as well as token', async () => {
    const api = fakeApi({ 'POST /stripe/paypal/capture-order': () => json(200, COMPLETED) });
    await loadPage('/customer/my-keys?paypalReturn=true&orderId=ORDER123');
    await waitFor(() => expect(toasts()).toEqual([['success', COMPLETED_TEXT]]));
    expect(api.calls[0]!.body).toEqual({ order_id: 'ORDER123' });
    expect(location()).toHaveTextContent(/^\/customer\/my-keys$/);
  });

  it('never captures twice from this tab: a reload of the return URL only refreshes the keys', async () => {
    const api = fakeApi({ 'POST /stripe/paypal/capture-order': () => json(200, COMPLETED) });
    await loadPage('/customer/my-keys?paypalReturn=true&token=5O190127TN364715T');
    await waitFor(() => expect(toasts()).toEqual([['success', COMPLETED_TEXT]]));
    cleanup();
    vi.resetModules(); // the reload: module state is gone, sessionStorage stays

    const { invalidate } = await loadPage('/customer/my-keys?paypalReturn=true&token=5O190127TN364715T');
    await waitFor(() => expect(location()).toHaveTextContent(/^\/customer\/my-keys$/));
    await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.keys }));
    expect(api.callsTo('POST', '/stripe/paypal/capture-order')).toHaveLength(1);
    expect(toasts()).toEqual([['success', COMPLETED_TEXT]]); // the first load's, no second
  });

  it('a reload while the first capture is still on its way does not capture again', async () => {
    const slow = deferred();
    const api = fakeApi({ 'POST /stripe/paypal/capture-order': () => slow.promise });
    await loadPage('/customer/my-keys?paypalReturn=true&token=5O190127TN364715T');
    await waitFor(() => expect(api.calls).toHaveLength(1));
    cleanup();
    vi.resetModules();
    await loadPage('/customer/my-keys?paypalReturn=true&token=5O190127TN364715T');
    await waitFor(() => expect(location()).toHaveTextContent(/^\/customer\/my-keys$/));
    expect(api.calls).toHaveLength(1);
    slow.resolve(json(200, COMPLETED));
  });

  it.each([
    ['the server refuses the capture', () => json(402, { error: 'Declined', code: 'payment_failed' })],
    ['the capture gets no answer', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['the order is not completed', () => json(200, { ...COMPLETED, order: { ...ORDER, status: 'needs_refund' } })],
  ])('%s: "Failed to finalize PayPal payment. Please contact support if you were charged."', async (_, answer) => {
    fakeApi({ 'POST /stripe/paypal/capture-order': answer });
    await loadPage('/customer/my-keys?paypalReturn=true&token=5O190127TN364715T');
    await waitFor(() => expect(toasts()).toEqual([['error', FAILED_TEXT]]));
    expect(location()).toHaveTextContent(/^\/customer\/my-keys$/);
  });

  it('a return without an order id cannot be captured: the failure text, no call', async () => {
    const api = fakeApi({});
    await loadPage('/customer/my-keys?paypalReturn=true');
    await waitFor(() => expect(toasts()).toEqual([['error', FAILED_TEXT]]));
    expect(api.calls).toHaveLength(0);
  });

  it('a cancel says "PayPal checkout was cancelled" once, captures nothing, cancels it for good, removes the parameters', async () => {
    const api = fakeApi({
      'POST /stripe/paypal/cancel-order': () => json(200, { order: { ...ORDER, status: 'void' } }),
    });
    await loadPage('/customer/my-keys?paypalCancel=true&token=5O190127TN364715T');
    await waitFor(() => expect(location()).toHaveTextContent(/^\/customer\/my-keys$/));
    expect(toasts()).toEqual([['info', 'PayPal checkout was cancelled']]);
    expect(api.callsTo('POST', '/stripe/paypal/capture-order')).toHaveLength(0);
    // Issue 19: the server voids the order, so approving it later can never charge.
    await waitFor(() =>
      expect(api.callsTo('POST', '/stripe/paypal/cancel-order').map((call) => call.body)).toEqual([
        { order_id: '5O190127TN364715T' },
      ]),
    );
  });

  it('says why nothing was charged when the upgrade no longer applied at the capture (issue 19)', async () => {
    const reason = 'This upgrade no longer applies: the license is REGULAR now. Nothing was charged.';
    fakeApi({ 'POST /stripe/paypal/capture-order': () => json(409, { error: reason, code: 'order_void' }) });
    await loadPage('/customer/my-keys?paypalReturn=true&token=5O190127TN364715T');
    await waitFor(() => expect(toasts()).toEqual([['error', reason]]));
  });

  it('leaves a dashboard URL without return parameters alone', async () => {
    const api = fakeApi({});
    await loadPage('/customer/my-keys?q=harbor');
    expect(location()).toHaveTextContent(/^\/customer\/my-keys\?q=harbor$/);
    expect(api.calls).toHaveLength(0);
    expect(toasts()).toEqual([]);
  });
});
