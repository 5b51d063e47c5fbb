import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { Toaster } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isMoneyProperty } from '@keyport/shared/contracts/analytics';
import { setSessionToken } from '../../../lib/session-token';
import {
  COUNTRIES,
  fakeApi,
  json,
  LITE_KEY,
  LITE_TO_PRO,
  ORDER,
  TO_REGULAR,
  vatAnswer,
  type Call,
} from '../test/fake-api';
import UpgradeDialog from './upgrade-dialog';

const loadStripe = vi.hoisted(() => vi.fn());
vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe }));
vi.setConfig({ testTimeout: 30_000 });

beforeEach(() => setSessionToken('session-token-0123456789abcdef'));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

type User = ReturnType<typeof userEvent.setup>;
async function fill(user: User, label: string, text: string) {
  await user.click(screen.getByLabelText(label));
  await user.paste(text);
}

interface Tracked {
  eventName: string;
  properties: Record<string, unknown>;
  unique_id?: string;
  value?: number;
}

function setUp(trackAnswer: () => Response | Promise<Response> = () => json(202, { queued: true })) {
  const fake = fakeApi({
    'POST /upgrades/options': () => json(200, { key: LITE_KEY, options: [TO_REGULAR, LITE_TO_PRO] }),
    'GET /stripe/config': () => json(200, { publishableKey: 'pk_sandbox_keyport' }),
    'GET /countries': () => json(200, COUNTRIES),
    'POST /stripe/vat/calculate': (call: Call) => json(200, vatAnswer(call.body as Parameters<typeof vatAnswer>[0])),
    'POST /stripe/payment-intents': () =>
      json(200, { payment_intent: { id: 'pi_sandbox_abc', client_secret: 'pi_sandbox_abc_secret_x' }, order: ORDER }),
    'POST /sandbox/stripe/confirm': () => json(200, { status: 'succeeded' }),
    'POST /stripe/payment-intents/pi_sandbox_abc/sync': () =>
      json(200, { order: { ...ORDER, status: 'completed' }, key: { ...LITE_KEY, lite: false } }),
    'POST /api/klaviyo/track': trackAnswer,
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <UpgradeDialog licenseKey={LITE_KEY} onClose={() => {}} />
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  const tracked = () => fake.callsTo('POST', '/api/klaviyo/track').map((call) => call.body as Tracked);
  return { fake, user, tracked };
}

async function payForRegular(user: User) {
  await user.click(await screen.findByRole('radio', { name: /Upgrade to REGULAR/ }));
  await fill(user, 'Full name', 'Erika Mustermann');
  await fill(user, 'Email', 'erika@example.com');
  await fill(user, 'Address line 1', 'Unter den Linden 1');
  await fill(user, 'City', 'Berlin');
  await fill(user, 'Postal code', '10117');
  await waitFor(() => expect(screen.getByLabelText('Country')).toBeEnabled());
  await user.selectOptions(screen.getByLabelText('Country'), 'DE');
  await fill(user, 'Card number', '4242424242424242');
  await fill(user, 'Expiration date (MM / YY)', '1234');
  await fill(user, 'CVC', '123');
  await waitFor(() => expect(screen.getByRole('button', { name: /^Pay/ })).toBeEnabled());
  await user.click(screen.getByRole('button', { name: /^Pay/ }));
  expect(await screen.findByRole('heading', { name: 'License Upgrade Complete!' })).toBeInTheDocument();
}

describe('Upgrade License dialog analytics (§3 events)', () => {
  it('tracks viewed, selected and started; the purchase is the server’s event, without amounts from here', async () => {
    const { tracked, user } = setUp();
    await payForRegular(user);
    const events = tracked();
    expect(events.map((event) => event.eventName)).toEqual([
      'Viewed Upgrade Options',
      'Selected Upgrade',
      'Started Upgrade Checkout',
    ]);
    expect(events[0]!.properties).toMatchObject({
      license_key: LITE_KEY.api_key,
      upgrade_options: ['LITE_TO_REGULAR', 'LITE_TO_PRO'],
    });
    expect(events[1]!.properties).toMatchObject({
      upgrade_from: 'LITE',
      upgrade_to: 'REGULAR',
      sku: 'upgrade-lite-to-regular',
    });
    expect(events[2]!.properties).toMatchObject({
      payment_method: 'card',
      is_business: false,
      billing_country: 'DE',
      billing_email: 'erika@example.com',
    });
    // Issue 19: no value and no money property leaves the browser (the server would drop them).
    expect(events.some((event) => 'value' in event)).toBe(false);
    expect(events.flatMap((event) => Object.keys(event.properties)).filter(isMoneyProperty)).toEqual([]);
    expect(events.some((event) => 'email' in event)).toBe(false);
  });

  it('never holds the payment back: the purchase completes while the analytics calls never answer', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { tracked, user } = setUp(() => new Promise<Response>(() => {}));
    await payForRegular(user);
    expect(tracked().map((event) => event.eventName)).toContain('Started Upgrade Checkout');
    expect(warn).not.toHaveBeenCalled();
  });

  it('a failing analytics route is only a warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error');
    const { user } = setUp(() => json(503, { error: 'down', code: 'unavailable' }));
    await payForRegular(user);
    await waitFor(() => expect(warn).toHaveBeenCalled());
    expect(error).not.toHaveBeenCalled();
  });
});
