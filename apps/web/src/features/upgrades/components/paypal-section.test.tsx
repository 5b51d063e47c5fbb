import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_BILLING_FORM, type BillingForm } from '@keyport/shared/domain/billing';
import { fakeApi, json, LITE_KEY, LITE_TO_PRO, ORDER, TO_REGULAR } from '../test/fake-api';
import type * as PayWithPaypal from '../payment/pay-with-paypal';
import type { PaypalButtonsProps } from './paypal-buttons';
import { PaypalSection } from './paypal-section';

// The full-page navigation to the approval page is observed, not performed (jsdom cannot leave the page).
const goToPaypalApproval = vi.hoisted(() => vi.fn(() => true));
vi.mock('../payment/pay-with-paypal', async (importOriginal) => ({
  ...(await importOriginal<typeof PayWithPaypal>()),
  goToPaypalApproval,
}));

// PayPal's Buttons stand-in: the section's callbacks, exposed as plain buttons.
const buttonsProps = vi.hoisted(() => ({ current: null as PaypalButtonsProps | null }));
vi.mock('./paypal-buttons', () => ({
  default: (props: PaypalButtonsProps) => {
    buttonsProps.current = props;
    return (
      <div data-testid="paypal-sdk-buttons" data-client-id={props.clientId} data-disabled={String(props.disabled)} />
    );
  },
}));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  buttonsProps.current = null;
});

const FILLED: BillingForm = {
  ...EMPTY_BILLING_FORM,
  name: 'Jane Doe',
  email: 'jane@example.com',
  line1: '1 Market Street',
  city: 'San Francisco',
  postal_code: '94105',
  country: 'US',
};
const QUOTE = { ...ORDER, to: 'PRO' as const, base_amount: 32000, vat_amount: 0, total_amount: 32000 };
const CREATED = { order: { id: '5O190127TN364715T' }, approve_url: '/sandbox/paypal/checkout?token=5O1', quote: QUOTE };
const PRO = { ...LITE_KEY, lite: false, pro: true };

function renderSection({ billing = FILLED, option = LITE_TO_PRO } = {}) {
  const onPaid = vi.fn();
  const onBusyChange = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <PaypalSection
        option={option}
        licenseKey={LITE_KEY}
        billing={billing}
        disabled={false}
        onBusyChange={onBusyChange}
        onPaid={onPaid}
      />
    </QueryClientProvider>,
  );
  return { onPaid, onBusyChange, user: userEvent.setup() };
}

const walletError = () => screen.findByTestId('wallet-error');

describe('PayPal in the Upgrade License dialog (§5 wallet line, §8 wallet payment)', () => {
  it('asks for the billing details first, exactly, and offers no button until they are complete', async () => {
    fakeApi({ 'GET /stripe/paypal/config': () => json(200, { mode: 'sandbox', clientId: null }) });
    renderSection({ billing: { ...FILLED, city: '' } });
    expect(screen.getByText('or pay with PayPal')).toBeInTheDocument();
    expect(screen.getByText('Please fill in all billing information above to use PayPal')).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByTestId('paypal-sdk-buttons')).toBeNull();
  });

  describe('sandbox mode', () => {
    it('creates the order and goes to its approval page, staying busy while the page leaves', async () => {
      const api = fakeApi({
        'GET /stripe/paypal/config': () => json(200, { mode: 'sandbox', clientId: null }),
        'POST /stripe/paypal/create-order': () => json(200, CREATED),
      });
      const { user, onBusyChange } = renderSection();
      await user.click(await screen.findByRole('button', { name: 'Continue to PayPal' }));
      await waitFor(() => expect(goToPaypalApproval).toHaveBeenCalledWith('/sandbox/paypal/checkout?token=5O1'));
      expect(api.callsTo('POST', '/stripe/paypal/create-order')).toHaveLength(1);
      expect(onBusyChange).toHaveBeenLastCalledWith(true);
      expect(screen.getByRole('button', { name: /Going to PayPal/ })).toBeDisabled();
      expect(screen.queryByTestId('paypal-sdk-buttons')).toBeNull(); // PayPal's SDK is never loaded here
    });

    it("says 'Failed to create PayPal order' in the yellow line when create-order fails, and can try again", async () => {
      fakeApi({
        'GET /stripe/paypal/config': () => json(200, { mode: 'sandbox', clientId: null }),
        'POST /stripe/paypal/create-order': () => new Response('', { status: 502 }),
      });
      const { user, onBusyChange } = renderSection();
      await user.click(await screen.findByRole('button', { name: 'Continue to PayPal' }));
      const line = await walletError();
      expect(line).toHaveTextContent(/^Failed to create PayPal order$/);
      expect(line.className).toMatch(/amber/);
      expect(onBusyChange).toHaveBeenLastCalledWith(false);
      expect(goToPaypalApproval).not.toHaveBeenCalled();
      expect(screen.getByRole('button', { name: 'Continue to PayPal' })).toBeEnabled();
    });

    it("shows the server's own message when it gives one", async () => {
      fakeApi({
        'GET /stripe/paypal/config': () => json(200, { mode: 'sandbox', clientId: null }),
        'POST /stripe/paypal/create-order': () => json(409, { error: 'This license was already upgraded', code: 'x' }),
      });
      const { user } = renderSection();
      await user.click(await screen.findByRole('button', { name: 'Continue to PayPal' }));
      expect(await walletError()).toHaveTextContent(/^This license was already upgraded$/);
    });

    it("says 'Failed to create order' when the answer has no order id", async () => {
      fakeApi({
        'GET /stripe/paypal/config': () => json(200, { mode: 'sandbox', clientId: null }),
        'POST /stripe/paypal/create-order': () => json(200, { ...CREATED, order: { id: '' } }),
      });
      const { user } = renderSection();
      await user.click(await screen.findByRole('button', { name: 'Continue to PayPal' }));
      expect(await walletError()).toHaveTextContent(/^Failed to create order$/);
    });

    it("says 'No price configured' for an option without a price id, without calling the server", async () => {
      const api = fakeApi({ 'GET /stripe/paypal/config': () => json(200, { mode: 'sandbox', clientId: null }) });
      const { user } = renderSection({ option: { ...TO_REGULAR, priceId: null } });
      await user.click(await screen.findByRole('button', { name: 'Continue to PayPal' }));
      expect(await walletError()).toHaveTextContent(/^No price configured$/);
      expect(api.callsTo('POST', '/stripe/paypal/create-order')).toHaveLength(0);
    });
  });

  describe('PayPal mode (a client id)', () => {
    const config = () => json(200, { mode: 'paypal', clientId: 'AZ-client-id' });

    it("creates the order for PayPal's Buttons, captures on approval, and hands the upgraded key over", async () => {
      const api = fakeApi({
        'GET /stripe/paypal/config': config,
        'POST /stripe/paypal/create-order': () => json(200, CREATED),
        'POST /stripe/paypal/capture-order': () => json(200, { order: { ...QUOTE, status: 'completed' }, key: PRO }),
      });
      const { onPaid, onBusyChange } = renderSection();
      expect(await screen.findByTestId('paypal-sdk-buttons')).toHaveAttribute('data-client-id', 'AZ-client-id');
      await expect(buttonsProps.current!.createOrder()).resolves.toBe('5O190127TN364715T');
      await buttonsProps.current!.onApprove('5O190127TN364715T');
      expect(api.callsTo('POST', '/stripe/paypal/capture-order')[0]!.body).toEqual({ order_id: '5O190127TN364715T' });
      expect(onPaid).toHaveBeenCalledWith({ status: 'succeeded', order: { ...QUOTE, status: 'completed' }, key: PRO });
      expect(onBusyChange.mock.calls).toEqual([[true], [false]]);
      expect(screen.queryByTestId('wallet-error')).toBeNull();
    });

    it("says 'Capture failed' when the server refuses the capture", async () => {
      fakeApi({
        'GET /stripe/paypal/config': config,
        'POST /stripe/paypal/capture-order': () => json(402, { error: 'Declined', code: 'payment_failed' }),
      });
      const { onPaid } = renderSection();
      await screen.findByTestId('paypal-sdk-buttons');
      await buttonsProps.current!.onApprove('5O190127TN364715T');
      expect(await walletError()).toHaveTextContent(/^Capture failed$/);
      expect(onPaid).not.toHaveBeenCalled();
    });

    it("says 'Failed to finalize PayPal payment' when the capture gets no answer", async () => {
      fakeApi({
        'GET /stripe/paypal/config': config,
        'POST /stripe/paypal/capture-order': () => Promise.reject(new TypeError('Failed to fetch')),
      });
      renderSection();
      await screen.findByTestId('paypal-sdk-buttons');
      await buttonsProps.current!.onApprove('5O190127TN364715T');
      expect(await walletError()).toHaveTextContent(/^Failed to finalize PayPal payment$/);
    });

    it("says 'PayPal error' when PayPal's Buttons report one; a failed create-order keeps its own text", async () => {
      fakeApi({
        'GET /stripe/paypal/config': config,
        'POST /stripe/paypal/create-order': () => new Response('', { status: 500 }),
      });
      renderSection();
      await screen.findByTestId('paypal-sdk-buttons');
      buttonsProps.current!.onError();
      expect(await walletError()).toHaveTextContent(/^PayPal error$/);

      await expect(buttonsProps.current!.createOrder()).rejects.toThrow('Failed to create PayPal order');
      buttonsProps.current!.onError(); // PayPal reports the rejected createOrder too
      await waitFor(() =>
        expect(screen.getByTestId('wallet-error')).toHaveTextContent(/^Failed to create PayPal order$/),
      );

      buttonsProps.current!.onCancel(null);
      await waitFor(() => expect(screen.queryByTestId('wallet-error')).toBeNull());
    });

    it('a checkout cancelled in PayPal’s window is cancelled on the server for good (issue 19)', async () => {
      const api = fakeApi({
        'GET /stripe/paypal/config': config,
        'POST /stripe/paypal/cancel-order': () => json(200, { order: { ...QUOTE, status: 'void' } }),
      });
      renderSection();
      await screen.findByTestId('paypal-sdk-buttons');
      buttonsProps.current!.onCancel('5O190127TN364715T');
      await waitFor(() => expect(api.callsTo('POST', '/stripe/paypal/cancel-order')).toHaveLength(1));
      expect(api.callsTo('POST', '/stripe/paypal/cancel-order')[0]!.body).toEqual({ order_id: '5O190127TN364715T' });
    });

    it('shows why nothing was charged when the upgrade no longer applies at capture (issue 19)', async () => {
      const reason = 'This upgrade no longer applies: the license is REGULAR now. Nothing was charged.';
      fakeApi({
        'GET /stripe/paypal/config': config,
        'POST /stripe/paypal/capture-order': () => json(409, { error: reason, code: 'order_void' }),
      });
      const { onPaid } = renderSection();
      await screen.findByTestId('paypal-sdk-buttons');
      await buttonsProps.current!.onApprove('5O190127TN364715T');
      expect(await walletError()).toHaveTextContent(reason);
      expect(onPaid).not.toHaveBeenCalled();
    });

    it.each([
      ['the configuration cannot be read', () => json(500, { error: 'Internal Server Error', code: 'internal' })],
      ['PayPal mode without a client id', () => json(200, { mode: 'paypal', clientId: null })],
    ])("says 'PayPal error' when %s", async (_, answer) => {
      fakeApi({ 'GET /stripe/paypal/config': answer });
      renderSection();
      expect(await walletError()).toHaveTextContent(/^PayPal error$/);
      expect(screen.queryByRole('button')).toBeNull();
    });
  });
});
