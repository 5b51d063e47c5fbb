import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CreditPack } from '@keyport/shared/contracts/credits';
import { onCreditEvent } from '../../../lib/credit-events';
import { queryKeys } from '../../../lib/query-keys';
import type * as PayWithPaypal from '../payment/pay-with-paypal';
import { COUNTRIES, fakeApi, json, ORDER, vatAnswer, type Call } from '../test/fake-api';
import BuyCreditsDialog from './buy-credits-dialog';
import { fillBilling, fillCard, panelState, summary } from '../test/purchase-form';

const loadStripe = vi.hoisted(() => vi.fn());
vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe }));

// The full-page navigation to the PayPal approval page is observed, not performed (jsdom cannot leave the page).
const goToPaypalApproval = vi.hoisted(() => vi.fn(() => true));
vi.mock('../payment/pay-with-paypal', async (importOriginal) => ({
  ...(await importOriginal<typeof PayWithPaypal>()),
  goToPaypalApproval,
}));

// Typing a whole billing form takes a while on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

const SMALL: CreditPack = {
  id: 1,
  name: 'Starter pack',
  credits: 5,
  price: '$50.00',
  price_cents: 5000,
  priceId: 'price_credits_5',
};
const LARGE: CreditPack = {
  id: 2,
  name: 'Team pack',
  credits: 20,
  price: '$180.00',
  price_cents: 18000,
  priceId: 'price_credits_20',
};

type Handlers = Parameters<typeof fakeApi>[0];

function api(overrides: Handlers = {}, balances: number[] = [3]) {
  let reads = 0;
  return fakeApi({
    'GET /credits/packs': () => json(200, { packs: [SMALL, LARGE] }),
    'GET /credits/balance': () =>
      json(200, { balance: balances[Math.min(reads++, balances.length - 1)], owed: 0, can_report: true }),
    'GET /stripe/config': () => json(200, { publishableKey: 'pk_sandbox_keyport' }),
    'GET /stripe/paypal/config': () => json(200, { mode: 'sandbox', clientId: null }),
    'GET /countries': () => json(200, COUNTRIES),
    'POST /stripe/vat/calculate': (call: Call) => json(200, vatAnswer(call.body as Parameters<typeof vatAnswer>[0])),
    ...overrides,
  });
}

function renderDialog() {
  const onClose = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const invalidate = vi.spyOn(client, 'invalidateQueries');
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={client}>
      <BuyCreditsDialog onClose={onClose} />
    </QueryClientProvider>,
  );
  return { onClose, client, invalidate, user, dialog: () => screen.getByRole('dialog', { name: 'Buy Credits' }) };
}

const PACK_ORDER = { ...ORDER, kind: 'credit_pack' as const, from: null, to: null, credits: 20, base_amount: 18000 };
const created = () =>
  json(200, { payment_intent: { id: 'pi_sandbox_cr', client_secret: 'pi_sandbox_cr_secret_x' }, order: PACK_ORDER });
const synced = () => json(200, { order: { ...PACK_ORDER, status: 'completed' }, key: null });

describe('Buy Credits: packs and the order summary', () => {
  it('lists the packs (name, credits, price) with none selected, and the current balance', async () => {
    api();
    const { dialog } = renderDialog();
    const packs = await within(dialog()).findAllByTestId('credit-pack');
    expect(packs.map((pack) => pack.textContent)).toEqual([
      expect.stringMatching(/Starter pack.*5 credits.*\$50\.00/),
      expect.stringMatching(/Team pack.*20 credits.*\$180\.00/),
    ]);
    expect(panelState()).toHaveTextContent('Select a Credit Pack');
    expect(screen.queryByTestId('order-summary')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('credits-balance')).toHaveTextContent('3 credits'));
  });

  it('auto-selects the only pack and shows the card form', async () => {
    api({ 'GET /credits/packs': () => json(200, { packs: [LARGE] }) });
    renderDialog();
    expect(await screen.findByRole('radio', { name: /Team pack/ })).toBeChecked();
    expect(await screen.findByLabelText('Card number')).toBeInTheDocument();
    expect(summary()).toHaveTextContent('Subtotal$180.00');
  });

  it("shows the server's VAT for the billing country (Germany, 19%)", async () => {
    const fake = api();
    const { user } = renderDialog();
    await user.click(await screen.findByRole('radio', { name: /Starter pack/ }));
    await fillBilling(user, 'DE');
    await waitFor(() => expect(summary()).toHaveTextContent('Subtotal$50.00VAT (19%)$9.50Total$59.50'));
    expect(fake.callsTo('POST', '/stripe/vat/calculate').at(-1)!.body).toMatchObject({
      amount: 5000,
      country_code: 'DE',
    });
  });

  it('says so when the packs cannot be loaded, or none are on sale', async () => {
    api({ 'GET /credits/packs': () => json(403, { error: 'Team members only', code: 'team_only' }) });
    renderDialog();
    expect(await screen.findByText('Failed to load credit packs')).toBeInTheDocument();
  });

  it('says when no pack is on sale', async () => {
    api({ 'GET /credits/packs': () => json(200, { packs: [] }) });
    renderDialog();
    expect(await screen.findByText('No credit packs are on sale right now.')).toBeInTheDocument();
  });

  it('shows a Payment Error for a pack without a price id', async () => {
    api({ 'GET /credits/packs': () => json(200, { packs: [{ ...SMALL, priceId: null }] }) });
    renderDialog();
    await waitFor(() =>
      expect(panelState()).toHaveTextContent(
        'Payment ErrorThis credit pack has no price configured. Please contact support.',
      ),
    );
  });
});

describe('Buy Credits: paying by card', () => {
  async function readyToPay(overrides: Handlers, balances?: number[]) {
    const fake = api(overrides, balances);
    const rendered = renderDialog();
    const { user } = rendered;
    await user.click(await screen.findByRole('radio', { name: /Team pack/ }));
    await screen.findByLabelText('Card number');
    await fillBilling(user, 'US');
    await fillCard(user);
    return { ...rendered, fake };
  }

  it('pays for the pack, shows how many credits were added and the new balance, and announces it', async () => {
    const changed = vi.fn();
    const stop = onCreditEvent('creditsBalanceChanged', changed);
    const { fake, user, invalidate, client, onClose } = await readyToPay(
      {
        'POST /credits/checkout/payment-intents': created,
        'POST /sandbox/stripe/confirm': () => json(200, { status: 'succeeded' }),
        'POST /stripe/payment-intents/pi_sandbox_cr/sync': synced,
      },
      [3, 23],
    );
    await user.dblClick(screen.getByRole('button', { name: /^Pay \$180\.00/ })); // pressed twice: paid once
    const success = await screen.findByTestId('credits-purchase-success');
    expect(success).toHaveTextContent('20 credits added');
    expect(success).toHaveTextContent('Your balance is now 23 credits.');
    stop();

    expect(fake.callsTo('POST', '/credits/checkout/payment-intents')).toHaveLength(1);
    expect(fake.callsTo('POST', '/credits/checkout/payment-intents')[0]!.body).toMatchObject({
      pack_id: 2,
      price_id: 'price_credits_20',
      billing: { name: 'Erika Mustermann', address: { country: 'US' }, is_business: false },
    });
    expect(fake.callsTo('POST', '/sandbox/stripe/confirm')[0]!.body).toEqual({
      payment_intent_id: 'pi_sandbox_cr',
      card_number: '4242424242424242',
    });
    expect(changed).toHaveBeenCalledExactlyOnceWith({ balance: 23 });
    expect(invalidate).toHaveBeenCalledWith(expect.objectContaining({ queryKey: queryKeys.creditsBalance }));
    expect(client.getQueryData(queryKeys.creditsBalance)).toMatchObject({ balance: 23 });

    await user.click(within(success).getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledWith(true);
  });

  it("shows the card's decline and lets the person try again; nothing is announced", async () => {
    const changed = vi.fn();
    const stop = onCreditEvent('creditsBalanceChanged', changed);
    const { user } = await readyToPay({
      'POST /credits/checkout/payment-intents': created,
      'POST /sandbox/stripe/confirm': () => json(402, { error: 'Your card was declined.', code: 'card_declined' }),
    });
    await user.click(screen.getByRole('button', { name: /^Pay/ }));
    expect(await screen.findByText('Your card was declined.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Pay/ })).toBeEnabled();
    expect(screen.queryByTestId('credits-purchase-success')).toBeNull();
    stop();
    expect(changed).not.toHaveBeenCalled();
  });

  it("shows the server's refusal of the order (a customer is not a team member)", async () => {
    const { user } = await readyToPay({
      'POST /credits/checkout/payment-intents': () =>
        json(403, { error: 'Credit packs are for team members only.', code: 'team_only' }),
    });
    await user.click(screen.getByRole('button', { name: /^Pay/ }));
    expect(await screen.findByText('Credit packs are for team members only.')).toBeInTheDocument();
  });

  it('closes without a purchase as not purchased', async () => {
    api();
    const { user, onClose } = renderDialog();
    await screen.findAllByTestId('credit-pack');
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledWith(false);
  });
});

describe('Buy Credits: PayPal', () => {
  it("asks for the billing details first ('Please fill in all billing information above to use PayPal')", async () => {
    api();
    const { user } = renderDialog();
    await user.click(await screen.findByRole('radio', { name: /Starter pack/ }));
    const section = await screen.findByTestId('paypal-section');
    expect(section).toHaveTextContent('Please fill in all billing information above to use PayPal');
    expect(within(section).queryByRole('button')).toBeNull();
  });

  it("creates the pack's PayPal order and goes to the approval page", async () => {
    const fake = api({
      'POST /credits/checkout/paypal/create-order': () =>
        json(200, {
          order: { id: '7PK12345' },
          approve_url: '/sandbox/paypal/checkout?token=7PK12345',
          quote: PACK_ORDER,
        }),
    });
    const { user } = renderDialog();
    await user.click(await screen.findByRole('radio', { name: /Starter pack/ }));
    await screen.findByLabelText('Card number');
    await fillBilling(user, 'US');
    await user.click(await screen.findByRole('button', { name: /Continue to PayPal/ }));
    await waitFor(() => expect(goToPaypalApproval).toHaveBeenCalledWith('/sandbox/paypal/checkout?token=7PK12345'));
    expect(fake.callsTo('POST', '/credits/checkout/paypal/create-order')[0]!.body).toMatchObject({
      pack_id: 1,
      price_id: 'price_credits_5',
      billing: { email: 'erika@example.com' },
    });
  });

  it("shows the wallet's error text when the order cannot be created", async () => {
    api({ 'POST /credits/checkout/paypal/create-order': () => json(500, null, 'Internal Server Error') });
    const { user } = renderDialog();
    await user.click(await screen.findByRole('radio', { name: /Starter pack/ }));
    await screen.findByLabelText('Card number');
    await fillBilling(user, 'US');
    await user.click(await screen.findByRole('button', { name: /Continue to PayPal/ }));
    expect(await screen.findByText('Failed to create PayPal order')).toBeInTheDocument();
  });
});
