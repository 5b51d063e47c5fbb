import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Key } from '@keyport/shared/contracts/keys';
import {
  COUNTRIES,
  deferred,
  fakeApi,
  json,
  LITE_KEY,
  LITE_TO_PRO,
  ORDER,
  PRO_KEY,
  REGULAR_KEY,
  REGULAR_TO_PRO,
  TO_REGULAR,
  vatAnswer,
  type Call,
} from '../test/fake-api';
import UpgradeDialog from './upgrade-dialog';
import { VAT_OTHER_COUNTRY } from './vat-id-field';
import { queryKeys } from '../../../lib/query-keys';
import { fill, fillBilling, fillCard, panelState, summary } from '../test/purchase-form';

const loadStripe = vi.hoisted(() => vi.fn());
vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe }));

// Typing a whole billing form takes a while on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

type Handlers = Parameters<typeof fakeApi>[0];

function api(overrides: Handlers = {}) {
  return fakeApi({
    'POST /upgrades/options': () => json(200, { key: LITE_KEY, options: [TO_REGULAR, LITE_TO_PRO] }),
    'GET /stripe/config': () => json(200, { publishableKey: 'pk_sandbox_keyport' }),
    'GET /stripe/paypal/config': () => json(200, { mode: 'sandbox', clientId: null }),
    'GET /countries': () => json(200, COUNTRIES),
    'POST /stripe/vat/calculate': (call: Call) => json(200, vatAnswer(call.body as Parameters<typeof vatAnswer>[0])),
    ...overrides,
  });
}

function renderDialog(licenseKey: Key = LITE_KEY) {
  const onClose = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const keysList: Key[] = [licenseKey];
  client.setQueryData(queryKeys.keys, keysList);
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <UpgradeDialog licenseKey={licenseKey} onClose={onClose} />
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return { onClose, client, user, dialog: () => screen.getByRole('dialog', { name: 'Upgrade License' }) };
}

describe('Upgrade License dialog: options, summary and empty states (§2 dialog 4)', () => {
  it('shows the current license and the options as cards; nothing is selected when there are two', async () => {
    api();
    const { dialog } = renderDialog();
    const options = await within(dialog()).findAllByTestId('upgrade-option');
    expect(options.map((option) => option.textContent)).toEqual([
      expect.stringMatching(/Upgrade to REGULAR.*From LITE.*\$120\.00/),
      expect.stringMatching(/Upgrade to PRO.*From LITE.*\$320\.00/),
    ]);
    expect(within(dialog()).getByLabelText('Current license')).toHaveTextContent('LITE-AAAA-BBBB-CCCC');
    expect(within(dialog()).getByLabelText('Current license')).toHaveTextContent('LITE');
    expect(panelState()).toHaveTextContent('Select an Upgrade');
    expect(screen.queryByTestId('order-summary')).toBeNull();
  });

  it('auto-selects the only option and shows the billing form once the payment configuration loaded', async () => {
    const config = deferred();
    api({
      'POST /upgrades/options': () => json(200, { key: REGULAR_KEY, options: [REGULAR_TO_PRO] }),
      'GET /stripe/config': () => config.promise,
    });
    renderDialog(REGULAR_KEY);
    expect(await screen.findByRole('radio', { name: /Upgrade to PRO/ })).toBeChecked();
    expect(panelState()).toHaveTextContent('Loading Payment');
    config.resolve(json(200, { publishableKey: 'pk_sandbox_keyport' }));
    expect(await screen.findByLabelText('Card number')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Pay/ })).toBeDisabled();
    expect(summary()).toHaveTextContent('Subtotal$220.00');
  });

  it("shows 'You're all set!' for a PRO license", async () => {
    api({ 'POST /upgrades/options': () => json(200, { key: PRO_KEY, options: [] }) });
    renderDialog(PRO_KEY);
    expect(await screen.findByText("You're all set!")).toBeInTheDocument();
  });

  it("says 'Failed to load upgrade options' when the options cannot be fetched", async () => {
    api({ 'POST /upgrades/options': () => json(500, { error: 'boom', code: 'internal' }) });
    renderDialog();
    expect(await screen.findByText('Failed to load upgrade options')).toBeInTheDocument();
  });

  it('says which tier has no price id when an option cannot be bought by card', async () => {
    api({ 'POST /upgrades/options': () => json(200, { key: LITE_KEY, options: [{ ...TO_REGULAR, priceId: null }] }) });
    renderDialog();
    await waitFor(() =>
      expect(panelState()).toHaveTextContent(
        'Payment ErrorNo Price ID configured for upgrade to REGULAR. Please contact support.',
      ),
    );
  });

  it.each([
    [
      'the configuration call fails',
      () => json(500, {}, 'Internal Server Error'),
      'Failed to load Stripe configuration: 500',
    ],
    [
      'the configuration has no publishable key',
      () => json(200, { publishableKey: '' }),
      'Stripe publishable key not found in the configuration response.',
    ],
  ])('shows a Payment Error box when %s', async (_case, config, message) => {
    api({ 'GET /stripe/config': config });
    const { user } = renderDialog();
    await user.click(await screen.findByRole('radio', { name: /Upgrade to REGULAR/ }));
    await waitFor(() => expect(panelState()).toHaveTextContent(`Payment Error${message}`));
    expect(screen.queryByLabelText('Card number')).toBeNull();
  });

  it("gives 'Could not initialize payment provider…' when Stripe's code does not load for a real key", async () => {
    loadStripe.mockRejectedValue(new Error('Failed to load Stripe.js'));
    api({ 'GET /stripe/config': () => json(200, { publishableKey: 'pk_test_51abc' }) });
    const { user } = renderDialog();
    await user.click(await screen.findByRole('radio', { name: /Upgrade to REGULAR/ }));
    expect(await screen.findByText('Could not initialize payment provider. Please try again later.')).toBeVisible();
    expect(loadStripe).toHaveBeenCalledWith('pk_test_51abc');
  });

  it('never loads Stripe with the sandbox key', async () => {
    api();
    const { user } = renderDialog();
    await user.click(await screen.findByRole('radio', { name: /Upgrade to REGULAR/ }));
    expect(await screen.findByLabelText('Card number')).toBeInTheDocument();
    expect(loadStripe).not.toHaveBeenCalled();
  });

  it('computes VAT in the browser at once, then shows the server’s answer when it arrives', async () => {
    const answers: ReturnType<typeof deferred>[] = [];
    api({
      'POST /stripe/vat/calculate': () => {
        const answer = deferred();
        answers.push(answer);
        return answer.promise;
      },
    });
    const { user } = renderDialog();
    await user.click(await screen.findByRole('radio', { name: /Upgrade to REGULAR/ }));
    expect(summary()).toHaveTextContent('Subtotal$120.00VAT (0%)$0.00Total$120.00');
    await fillBilling(user, 'DE');
    // Germany, 19%, before the server answered.
    expect(summary()).toHaveTextContent('Subtotal$120.00VAT (19%)$22.80Total$142.80');
    // The server's figure wins (here it differs on purpose, to show whose figure is on screen).
    await act(async () =>
      answers
        .at(-1)!
        .resolve(
          json(200, { base_amount: 12000, vat_amount: 2400, total_amount: 14400, vat_rate: 20, reverse_charge: false }),
        ),
    );
    await waitFor(() => expect(summary()).toHaveTextContent('VAT (20%)$24.00Total$144.00'));
  });

  it('switches the payment column to Token Redemption while the Use Token box is open', async () => {
    api();
    const { user } = renderDialog();
    await user.click(await screen.findByRole('radio', { name: /Upgrade to REGULAR/ }));
    await user.click(screen.getByRole('button', { name: 'Use Token' }));
    expect(panelState()).toHaveTextContent('Token Redemption');
    await user.click(screen.getByRole('button', { name: 'Pay by card instead' }));
    expect(await screen.findByLabelText('Card number')).toBeInTheDocument();
  });
});

describe('Billing form (§5)', () => {
  it('sorts the countries by name and defaults to the US', async () => {
    api();
    const { user } = renderDialog();
    await user.click(await screen.findByRole('radio', { name: /Upgrade to REGULAR/ }));
    const select = await screen.findByLabelText('Country');
    await waitFor(() => expect(select).toBeEnabled());
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Austria', 'Germany', 'United Kingdom', 'United States']);
    expect(select).toHaveValue('US');
  });

  it("falls back to the built-in 23 countries with 'Failed to load countries. Using default options.'", async () => {
    api({ 'GET /countries': () => json(500, { error: 'down', code: 'internal' }) });
    const { user } = renderDialog();
    await user.click(await screen.findByRole('radio', { name: /Upgrade to REGULAR/ }));
    expect(await screen.findByText('Failed to load countries. Using default options.')).toBeInTheDocument();
    expect(within(screen.getByLabelText('Country')).getAllByRole('option')).toHaveLength(23);
  });

  it('keeps Pay disabled until billing and card are complete; a business needs its company name', async () => {
    api();
    const { user } = renderDialog();
    await user.click(await screen.findByRole('radio', { name: /Upgrade to REGULAR/ }));
    const pay = await screen.findByRole('button', { name: /^Pay/ });
    await fillCard(user);
    expect(pay).toBeDisabled();
    await fillBilling(user, 'US');
    expect(pay).toBeEnabled();
    expect(pay).toHaveTextContent('Pay $120.00');

    await user.click(screen.getByLabelText("I'm purchasing as a business"));
    expect(pay).toBeDisabled();
    await user.click(screen.getByLabelText('Company name'));
    await user.tab();
    expect(screen.getByText('Enter your company name')).toBeInTheDocument();
    await fill(user, 'Company name', 'Mustermann GmbH');
    expect(pay).toBeEnabled();
  });

  it('shows a billing field’s error once it is left, not while typing, and takes it away as it is corrected', async () => {
    api();
    const { user } = renderDialog();
    await user.click(await screen.findByRole('radio', { name: /Upgrade to REGULAR/ }));
    const email = await screen.findByLabelText('Email');
    await user.type(email, 'erika@');
    expect(screen.queryByText('Enter a valid email address')).toBeNull();
    expect(screen.queryByText('Enter your name')).toBeNull(); // never visited
    await user.tab();
    expect(screen.getByText('Enter a valid email address')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Enter your name')).toBeNull();
    await user.type(email, 'example.com');
    expect(screen.queryByText('Enter a valid email address')).toBeNull();
    expect(email).not.toHaveAttribute('aria-invalid');
  });

  it('shows an incomplete card’s error under the card box once it is left', async () => {
    api();
    const { user } = renderDialog();
    await user.click(await screen.findByRole('radio', { name: /Upgrade to REGULAR/ }));
    await user.type(await screen.findByLabelText('Card number'), '4242 4242');
    expect(screen.queryByText('Your card number is incomplete.')).toBeNull();
    await user.click(screen.getByLabelText('Full name'));
    expect(screen.getByRole('alert')).toHaveTextContent('Your card number is incomplete.');
  });
});

describe('VAT ID verification (§4)', () => {
  async function business(handlers: Handlers) {
    const fake = api(handlers);
    const rendered = renderDialog();
    const { user } = rendered;
    await user.click(await screen.findByRole('radio', { name: /Upgrade to REGULAR/ }));
    await fillBilling(user, 'DE');
    await user.click(screen.getByLabelText("I'm purchasing as a business"));
    return {
      ...rendered,
      fake,
      vatField: screen.getByLabelText(/VAT ID/),
      status: () => screen.getByTestId('vat-status'),
    };
  }

  const valid = () =>
    json(200, {
      valid: true,
      message: 'VAT number is valid',
      error: null,
      vat_number: 'DE123456789',
      country_code: 'DE',
      company_name: 'Mustermann GmbH',
      company_address: 'Unter den Linden 1, 10117 Berlin',
    });

  it('verifies 1 second after typing pauses once the ID has 8 characters; valid shows the company and reverse charge', async () => {
    const { fake, vatField, status, user } = await business({ 'POST /stripe/vat/verify': valid });
    const verifyCalls = () => fake.callsTo('POST', '/stripe/vat/verify');
    // The clock is the test's from here: the debounce is checked by moving it, not by waiting.
    vi.useFakeTimers();
    fireEvent.change(vatField, { target: { value: 'DE12345' } });
    act(() => vi.advanceTimersByTime(5_000));
    expect(verifyCalls()).toHaveLength(0); // 7 characters: never

    fireEvent.change(vatField, { target: { value: 'DE1234567' } });
    act(() => vi.advanceTimersByTime(600));
    fireEvent.change(vatField, { target: { value: 'DE123456789' } }); // still typing: the second starts again
    act(() => vi.advanceTimersByTime(999));
    expect(verifyCalls()).toHaveLength(0);
    act(() => vi.advanceTimersByTime(1));
    expect(verifyCalls()).toEqual([expect.objectContaining({ body: { vat_number: 'DE123456789' } })]);
    expect(status()).toHaveAttribute('data-status', 'verifying');
    vi.useRealTimers();

    await waitFor(() => expect(status()).toHaveAttribute('data-status', 'valid'));
    expect(status()).toHaveTextContent('Mustermann GmbH');
    expect(status()).toHaveTextContent('Unter den Linden 1, 10117 Berlin');
    await waitFor(() => expect(summary()).toHaveTextContent('VATReverse ChargeTotal$120.00'));

    // Any edit resets it to idle (and the summary charges VAT again).
    await user.type(vatField, '0');
    expect(status()).toHaveAttribute('data-status', 'idle');
    expect(summary()).toHaveTextContent('VAT (19%)$22.80');
  });

  it('a number verified for one country is not shown as verified once the billing country changes', async () => {
    const { fake, vatField, status, user } = await business({ 'POST /stripe/vat/verify': valid });
    await user.type(vatField, 'DE123456789');
    await waitFor(() => expect(status()).toHaveTextContent('VAT number verified'), { timeout: 3_000 });

    await user.selectOptions(screen.getByLabelText('Country'), 'AT');
    expect(status()).not.toHaveTextContent('VAT number verified');
    expect(status()).toHaveTextContent(VAT_OTHER_COUNTRY('Germany'));
    await waitFor(() => expect(summary()).toHaveTextContent('VAT (20%)$24.00'));

    // Back to the number's own country: verified again, without asking VIES a second time.
    await user.selectOptions(screen.getByLabelText('Country'), 'DE');
    expect(status()).toHaveTextContent('VAT number verified');
    expect(fake.callsTo('POST', '/stripe/vat/verify')).toHaveLength(1);
  });

  it("shows 'VAT number is not valid' and 'Failed to verify VAT number. Please try again.'", async () => {
    let answer = () =>
      json(200, {
        valid: false,
        message: 'x',
        error: null,
        vat_number: null,
        country_code: null,
        company_name: null,
        company_address: null,
      });
    const { vatField, status, user } = await business({ 'POST /stripe/vat/verify': () => answer() });
    await user.type(vatField, 'DE000000000');
    await waitFor(() => expect(status()).toHaveTextContent('VAT number is not valid'), { timeout: 3_000 });
    expect(status()).toHaveAttribute('data-status', 'invalid');

    answer = () => json(503, { error: 'Failed to verify VAT number. Please try again.', code: 'vies_unavailable' });
    await user.type(vatField, '1');
    await waitFor(() => expect(status()).toHaveAttribute('data-status', 'error'), { timeout: 3_000 });
    expect(status()).toHaveTextContent('Failed to verify VAT number. Please try again.');
  });

  it("asks for a VAT number when Verify is pressed with none ('Please enter a VAT number')", async () => {
    const { fake, status, user } = await business({ 'POST /stripe/vat/verify': valid });
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(status()).toHaveTextContent('Please enter a VAT number');
    expect(fake.callsTo('POST', '/stripe/vat/verify')).toHaveLength(0);
  });
});

describe('Paying by card (§4 Payment, §8 card texts)', () => {
  async function readyToPay(handlers: Handlers, card = '4242424242424242') {
    const fake = api(handlers);
    const rendered = renderDialog();
    const { user } = rendered;
    await user.click(await screen.findByRole('radio', { name: /Upgrade to REGULAR/ }));
    await fillBilling(user, 'DE');
    await fillCard(user, card);
    await waitFor(() => expect(screen.getByRole('button', { name: /^Pay/ })).toBeEnabled());
    return { ...rendered, fake, pay: () => user.click(screen.getByRole('button', { name: /^Pay/ })) };
  }

  const created = () =>
    json(200, { payment_intent: { id: 'pi_sandbox_abc', client_secret: 'pi_sandbox_abc_secret_x' }, order: ORDER });
  const confirmed = () => json(200, { status: 'succeeded' });
  const synced = () => json(200, { order: { ...ORDER, status: 'completed' }, key: { ...LITE_KEY, lite: false } });

  it('creates the intent, confirms it with the sandbox card, syncs it and shows the success screen', async () => {
    const { fake, client, user } = await readyToPay({
      'POST /stripe/payment-intents': created,
      'POST /sandbox/stripe/confirm': confirmed,
      'POST /stripe/payment-intents/pi_sandbox_abc/sync': synced,
    });
    await user.dblClick(screen.getByRole('button', { name: /^Pay/ })); // pressed twice: paid once
    expect(await screen.findByRole('heading', { name: 'License Upgrade Complete!' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade Theme Files' })).toHaveAttribute(
      'href',
      '/customer/upgrade_file/lite-to-reg',
    );
    expect(within(screen.getByTestId('upgrade-success')).getByRole('button', { name: 'Close' })).toBeVisible();

    expect(fake.callsTo('POST', '/stripe/payment-intents')).toHaveLength(1);
    const [intent] = fake.callsTo('POST', '/stripe/payment-intents');
    expect(intent!.body).toMatchObject({
      price_id: 'price_lite_regular',
      theme_type: 'REGULAR',
      key: 'LITE-AAAA-BBBB-CCCC',
      billing: {
        name: 'Erika Mustermann',
        email: 'erika@example.com',
        address: { line1: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117', country: 'DE' },
        is_business: false,
      },
    });
    expect(fake.callsTo('POST', '/sandbox/stripe/confirm')[0]!.body).toEqual({
      payment_intent_id: 'pi_sandbox_abc',
      card_number: '4242424242424242',
    });
    // The card shows its new tier: the keys list holds the upgraded key.
    expect(client.getQueryData<Key[]>(queryKeys.keys)).toEqual([{ ...LITE_KEY, lite: false }]);
  });

  it("shows the card's decline ('Your card was declined.') and lets the person try again", async () => {
    const { pay } = await readyToPay(
      {
        'POST /stripe/payment-intents': created,
        'POST /sandbox/stripe/confirm': () => json(402, { error: 'Your card was declined.', code: 'card_declined' }),
      },
      '4000000000000002',
    );
    await pay();
    expect(await screen.findByText('Your card was declined.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Pay/ })).toBeEnabled();
  });

  it("'Your card was declined.' goes as soon as the person starts typing another card", async () => {
    const { pay, user } = await readyToPay(
      {
        'POST /stripe/payment-intents': created,
        'POST /sandbox/stripe/confirm': () => json(402, { error: 'Your card was declined.', code: 'card_declined' }),
      },
      '4000000000000002',
    );
    await pay();
    expect(await screen.findByText('Your card was declined.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Card number'));
    await user.type(screen.getByLabelText('Card number'), '4242');
    expect(screen.queryByText('Your card was declined.')).toBeNull();
  });

  it.each([
    ['no error body', () => json(502, null, 'Bad Gateway'), 'Failed to create payment intent: Bad Gateway'],
    [
      "the server's message",
      () => json(409, { error: 'This license is no longer LITE.', code: 'tier_changed' }),
      'This license is no longer LITE.',
    ],
    [
      'no client secret',
      () => json(200, { payment_intent: { id: 'pi_sandbox_abc', client_secret: '' }, order: ORDER }),
      'Invalid payment intent response - missing client_secret',
    ],
  ])('says why the payment intent failed: %s', async (_case, answer, message) => {
    const { pay, fake } = await readyToPay({ 'POST /stripe/payment-intents': answer });
    await pay();
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(fake.callsTo('POST', '/sandbox/stripe/confirm')).toHaveLength(0);
  });

  it("falls back to 'Payment confirmation failed. Please try again.' when the confirmation fails without a message", async () => {
    const { pay } = await readyToPay({
      'POST /stripe/payment-intents': created,
      'POST /sandbox/stripe/confirm': () => json(500, null, 'Internal Server Error'),
    });
    await pay();
    expect(await screen.findByText('Payment confirmation failed. Please try again.')).toBeInTheDocument();
  });

  it('sends a business with a verified VAT ID as such, and the summary shows Reverse Charge', async () => {
    const fake = api({
      'POST /stripe/vat/verify': () =>
        json(200, {
          valid: true,
          message: 'ok',
          error: null,
          vat_number: 'DE123456789',
          country_code: 'DE',
          company_name: 'Mustermann GmbH',
          company_address: 'Berlin',
        }),
      'POST /stripe/payment-intents': created,
      'POST /sandbox/stripe/confirm': confirmed,
      'POST /stripe/payment-intents/pi_sandbox_abc/sync': synced,
    });
    const { user } = renderDialog();
    await user.click(await screen.findByRole('radio', { name: /Upgrade to REGULAR/ }));
    await fillBilling(user, 'DE');
    await user.click(screen.getByLabelText("I'm purchasing as a business"));
    await fill(user, 'Company name', 'Mustermann GmbH');
    await user.type(screen.getByLabelText(/VAT ID/), 'DE 123 456 789');
    await waitFor(() => expect(summary()).toHaveTextContent('Reverse ChargeTotal$120.00'), { timeout: 3_000 });
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: 'Pay $120.00' }));
    await screen.findByText('License Upgrade Complete!');
    expect(fake.callsTo('POST', '/stripe/payment-intents')[0]!.body).toMatchObject({
      billing: { is_business: true, company_name: 'Mustermann GmbH', vat_id: 'DE123456789' },
    });
  });
});

describe('Use Token (§5, §8)', () => {
  it('checks the token and the selection, redeems it, toasts and closes', async () => {
    const fake = api({
      'POST /keys/upgrade/regular': () =>
        json(200, { success: true, error: null, message: 'ok', key: { ...LITE_KEY, lite: false } }),
    });
    const { user, onClose } = renderDialog();
    await user.click(await screen.findByRole('button', { name: 'Use Token' }));
    const redeem = screen.getByRole('button', { name: 'Redeem Token' });
    await user.type(screen.getByLabelText('Upgrade token'), '   ');
    await user.click(redeem);
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter your upgrade token');
    await user.type(screen.getByLabelText('Upgrade token'), ' UPG-1234 ');
    expect(screen.getByLabelText('Upgrade token')).toHaveValue('UPG-1234'); // §5: the token is trimmed, in the box too
    await user.click(redeem);
    expect(screen.getByRole('alert')).toHaveTextContent('Please select an upgrade type first');

    await user.click(screen.getByRole('radio', { name: /Upgrade to REGULAR/ }));
    await user.click(redeem);
    expect(await screen.findByText('Successfully upgraded LITE to REGULAR!')).toBeInTheDocument();
    expect(onClose).toHaveBeenCalled();
    expect(fake.callsTo('POST', '/keys/upgrade/regular')[0]!.body).toEqual({
      upgradeKey: 'UPG-1234',
      licenseKey: 'LITE-AAAA-BBBB-CCCC',
    });
  });

  it("refuses an option that is no upgrade path ('Invalid upgrade path for token redemption')", async () => {
    const fake = api({
      'POST /upgrades/options': () =>
        json(200, { key: LITE_KEY, options: [{ ...TO_REGULAR, from: 'REGULAR', to: 'REGULAR' }] }),
    });
    const { user } = renderDialog();
    await user.click(await screen.findByRole('button', { name: 'Use Token' }));
    await user.type(screen.getByLabelText('Upgrade token'), 'UPG-1');
    await user.click(screen.getByRole('button', { name: 'Redeem Token' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid upgrade path for token redemption');
    expect(fake.calls.filter((call) => call.path.startsWith('/keys/upgrade/'))).toEqual([]);
  });

  it("says 'An unexpected error occurred' when the answer cannot be read", async () => {
    api({ 'POST /keys/upgrade/regular': () => new Response('<html>', { status: 200 }) });
    const { user } = renderDialog();
    await user.click(await screen.findByRole('radio', { name: /Upgrade to REGULAR/ }));
    await user.click(screen.getByRole('button', { name: 'Use Token' }));
    await user.type(screen.getByLabelText('Upgrade token'), 'UPG-1');
    await user.click(screen.getByRole('button', { name: 'Redeem Token' }));
    expect(await screen.findByText('An unexpected error occurred')).toBeInTheDocument();
  });

  it.each([
    [
      'the server’s message',
      () => json(400, { error: 'This token has already been used.', code: 'token_used' }),
      'This token has already been used.',
    ],
    ['no message', () => json(500, null, 'Internal Server Error'), 'Failed to upgrade with token'],
  ])('shows why a redemption failed: %s', async (_case, answer, message) => {
    api({ 'POST /keys/upgrade/l2p': answer });
    const { user, onClose } = renderDialog();
    await user.click(await screen.findByRole('radio', { name: /Upgrade to PRO/ }));
    await user.click(screen.getByRole('button', { name: 'Use Token' }));
    await user.type(screen.getByLabelText('Upgrade token'), 'UPG-1');
    await user.click(screen.getByRole('button', { name: 'Redeem Token' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});
