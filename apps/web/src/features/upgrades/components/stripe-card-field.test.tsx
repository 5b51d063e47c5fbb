import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  COUNTRIES,
  fakeApi,
  json,
  LITE_KEY,
  ORDER,
  REGULAR_KEY,
  REGULAR_TO_PRO,
  vatAnswer,
  type Call,
} from '../test/fake-api';
import UpgradeDialog from './upgrade-dialog';

// Stripe's script cannot load in a test: a stand-in with Stripe.js's shapes (the card element reports completeness
// through onChange; confirmCardPayment answers like Stripe.js does).
const stripe = vi.hoisted(() => ({ confirmCardPayment: vi.fn() }));
const cardElement = vi.hoisted(() => ({ id: 'card-element' }));
const elements = vi.hoisted(() => ({ getElement: vi.fn<() => object | null>(() => cardElement) }));
vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe: vi.fn(async () => stripe) }));
vi.mock('@stripe/react-stripe-js', () => ({
  Elements: ({ children }: { children: ReactNode }) => children,
  useStripe: () => stripe,
  useElements: () => elements,
  CardElement: ({
    options,
    onChange,
  }: {
    options: { hidePostalCode: boolean };
    onChange: (event: { complete: boolean; error?: { message: string } }) => void;
  }) => (
    <div data-testid="stripe-card" data-hide-postal-code={String(options.hidePostalCode)}>
      <button
        type="button"
        onClick={() => onChange({ complete: false, error: { message: 'Your card number is invalid.' } })}
      >
        type a wrong card
      </button>
      <button type="button" onClick={() => onChange({ complete: true })}>
        type a good card
      </button>
    </div>
  ),
}));

vi.setConfig({ testTimeout: 30_000 });
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

function setup() {
  const fake = fakeApi({
    'POST /upgrades/options': () => json(200, { key: REGULAR_KEY, options: [REGULAR_TO_PRO] }),
    'GET /stripe/config': () => json(200, { publishableKey: 'pk_test_51abc' }),
    'GET /stripe/paypal/config': () => json(200, { mode: 'sandbox', clientId: null }),
    'GET /countries': () => json(200, COUNTRIES),
    'POST /stripe/vat/calculate': (call: Call) => json(200, vatAnswer(call.body as Parameters<typeof vatAnswer>[0])),
    'POST /stripe/payment-intents': () =>
      json(200, { payment_intent: { id: 'pi_123', client_secret: 'pi_123_secret_456' }, order: ORDER }),
    'POST /stripe/payment-intents/pi_123/sync': () =>
      json(200, {
        order: { ...ORDER, status: 'completed', from: 'REGULAR', to: 'PRO' },
        key: { ...LITE_KEY, pro: true },
      }),
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <UpgradeDialog licenseKey={REGULAR_KEY} onClose={() => undefined} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { fake, user };
}

async function fillBilling(user: ReturnType<typeof userEvent.setup>) {
  for (const [label, text] of [
    ['Full name', 'Ada Lovelace'],
    ['Email', 'ada@example.com'],
    ['Address line 1', '1 Main St'],
    ['City', 'Springfield'],
    ['Postal code', '12345'],
  ] as const) {
    await user.click(screen.getByLabelText(label));
    await user.paste(text);
  }
}

describe('the card form with a real publishable key (Stripe Elements)', () => {
  it('hides the postal code, shows the element’s errors under the box and confirms with the client secret', async () => {
    const { user } = setup();
    expect(await screen.findByTestId('stripe-card')).toHaveAttribute('data-hide-postal-code', 'true');
    await fillBilling(user);
    await user.click(screen.getByRole('button', { name: 'type a wrong card' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Your card number is invalid.');
    expect(screen.getByRole('button', { name: /^Pay/ })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'type a good card' }));
    // Manual capture (issue 19): Stripe.js answers the authorized intent; the server's sync captures it.
    stripe.confirmCardPayment.mockResolvedValue({ paymentIntent: { id: 'pi_123', status: 'requires_capture' } });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Pay $220.00' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Pay $220.00' }));
    expect(await screen.findByText('License Upgrade Complete!')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade Theme Files' })).toHaveAttribute(
      'href',
      '/customer/upgrade_file/reg-lite-to-pro',
    );
    expect(stripe.confirmCardPayment).toHaveBeenCalledWith('pi_123_secret_456', {
      payment_method: {
        card: cardElement,
        billing_details: {
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          address: {
            line1: '1 Main St',
            line2: undefined,
            city: 'Springfield',
            state: undefined,
            postal_code: '12345',
            country: 'US',
          },
        },
      },
    });
  });

  it.each([
    [
      "the provider's message",
      { error: { message: 'Your card has insufficient funds.' } },
      'Your card has insufficient funds.',
    ],
    ['no message', { error: {} }, 'Payment confirmation failed. Please try again.'],
    [
      'an intent that did not succeed',
      { paymentIntent: { status: 'requires_payment_method' } },
      'Payment confirmation failed. Please try again.',
    ],
  ])('shows what Stripe said when the confirmation fails: %s', async (_case, answer, message) => {
    const { user, fake } = setup();
    await screen.findByTestId('stripe-card');
    await fillBilling(user);
    await user.click(screen.getByRole('button', { name: 'type a good card' }));
    stripe.confirmCardPayment.mockResolvedValue(answer);
    await waitFor(() => expect(screen.getByRole('button', { name: /^Pay/ })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: /^Pay/ }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(fake.callsTo('POST', '/stripe/payment-intents/pi_123/sync')).toHaveLength(0);
  });

  it("says 'Card details are not available…' when the card element is gone", async () => {
    const { user } = setup();
    await screen.findByTestId('stripe-card');
    await fillBilling(user);
    await user.click(screen.getByRole('button', { name: 'type a good card' }));
    elements.getElement.mockReturnValueOnce(null);
    await waitFor(() => expect(screen.getByRole('button', { name: /^Pay/ })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: /^Pay/ }));
    expect(
      await screen.findByText('Card details are not available. Please refresh and try again.'),
    ).toBeInTheDocument();
    expect(stripe.confirmCardPayment).not.toHaveBeenCalled();
  });

  it("says 'An unexpected error occurred during payment.' when Stripe.js throws", async () => {
    const { user } = setup();
    await screen.findByTestId('stripe-card');
    await fillBilling(user);
    await user.click(screen.getByRole('button', { name: 'type a good card' }));
    stripe.confirmCardPayment.mockRejectedValue(new Error('network down'));
    await waitFor(() => expect(screen.getByRole('button', { name: /^Pay/ })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: /^Pay/ }));
    expect(await screen.findByText('An unexpected error occurred during payment.')).toBeInTheDocument();
  });
});
