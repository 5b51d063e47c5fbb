import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StaffCustomer } from '@keyport/shared/contracts/staff-customers';
import { fakeApi, json } from '../../../test/fake-api';
import { CustomerPage } from './customer-page';
import { CUSTOMER } from './test-data';

afterEach(() => vi.unstubAllGlobals());

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/staff/customers/7']}>
        <Routes>
          <Route path="/staff/customers/:id" element={<CustomerPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const section = (name: string) => screen.getByRole('region', { name });

async function confirmWithReason(user: ReturnType<typeof userEvent.setup>, confirm: string, reason: string) {
  const dialog = screen.getByRole('dialog');
  await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), reason);
  await user.click(within(dialog).getByRole('button', { name: confirm }));
}

describe('CustomerPage', () => {
  it('shows the keys, stores, orders, invoices, upgrades, credits and reports sections', async () => {
    fakeApi({ 'GET /staff/customers/7': () => json(200, CUSTOMER) });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'mia@example.com', level: 1 })).toBeTruthy();
    expect(within(section('Keys (1)')).getByText('AAAAA-BBBBB-CCCCC-DDDDD-EEEEE')).toBeTruthy();
    expect(within(section('Keys (1)')).getByText('https://mia-shop.com')).toBeTruthy();
    expect(within(section('Stores')).getByText('mia-shop.myshopify.com')).toBeTruthy();
    expect(within(section('Orders')).getByText('stripe · pi_123')).toBeTruthy();
    expect(within(section('Orders')).getByText('$59.50')).toBeTruthy();
    expect(within(section('Invoices')).getByText('2026-000003')).toBeTruthy();
    expect(within(section('Theme upgrades')).getByText('No theme upgrades.')).toBeTruthy();
    expect(within(section('Credits')).getByTestId('customer-credits-balance').textContent).toBe('Balance 3 credits');
    expect(within(section('Store reports')).getByText('No store reports.')).toBeTruthy();
  });

  it('says what is owed and what is pending review beside the balance', async () => {
    fakeApi({
      'GET /staff/customers/7': () => json(200, { ...CUSTOMER, credits: { ...CUSTOMER.credits, owed: 1, pending: 5 } }),
    });
    renderPage();
    expect((await screen.findByTestId('customer-credits-balance')).textContent).toBe(
      'Balance 3 credits · owes 1 credit · 5 credits pending review',
    );
  });

  it("never prints the stored 'None' (§3: it means empty) as a store domain, nor a domain twice", async () => {
    // The app's store is the myshopify domain again: said once.
    const connected = { ...CUSTOMER.keys[0]!, secondary_url: 'None', linked_app_store: 'mia-shop.myshopify.com' };
    const unconnected = {
      ...CUSTOMER.keys[0]!,
      id: 42,
      api_key: 'FFFFF-GGGGG-HHHHH-IIIII-JJJJJ',
      main_url: 'None',
      myshopify: ' none ',
      secondary_url: 'None',
      linked_app_store: null,
    };
    fakeApi({ 'GET /staff/customers/7': () => json(200, { ...CUSTOMER, keys: [connected, unconnected] }) });
    renderPage();
    const keys = await screen.findByRole('region', { name: 'Keys (2)' });
    expect(within(keys).queryByText(/none/i)).toBeNull();
    const rows = within(keys).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('https://mia-shop.com')).toBeTruthy();
    expect(within(rows[0]!).getAllByText('mia-shop.myshopify.com')).toHaveLength(1);
    expect(within(rows[1]!).getByText('Not connected')).toBeTruthy();
  });

  it('grants credits with a reason and shows the new balance', async () => {
    let current: StaffCustomer = CUSTOMER;
    const api = fakeApi({
      'GET /staff/customers/7': () => json(200, current),
      'POST /staff/credits': () => {
        current = { ...CUSTOMER, credits: { ...CUSTOMER.credits, balance: 8 } };
        return json(200, { user_id: 7, balance: 8, owed: 0, entry: CUSTOMER.credits.recent[0] });
      },
    });
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Grant or remove credits' }));
    await user.type(screen.getByRole('spinbutton', { name: 'Credits' }), '5');
    await confirmWithReason(user, 'Change balance', 'Beta tester');
    expect(api.callsTo('POST', '/staff/credits').map((call) => call.body)).toEqual([
      { email: 'mia@example.com', amount: 5, reason: 'Beta tester' },
    ]);
    expect(await screen.findByText('8 credits')).toBeTruthy();
  });

  it('refuses an amount of 0 in the dialog without calling the server', async () => {
    const api = fakeApi({ 'GET /staff/customers/7': () => json(200, CUSTOMER) });
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Grant or remove credits' }));
    await user.type(screen.getByRole('spinbutton', { name: 'Credits' }), '0');
    await confirmWithReason(user, 'Change balance', 'Nothing');
    expect(await screen.findByText(/Enter a whole number of credits/)).toBeTruthy();
    expect(api.callsTo('POST', '/staff/credits')).toEqual([]);
  });

  it('mints keys, releases a key and re-sends its email, each with the reason', async () => {
    const api = fakeApi({
      'GET /staff/customers/7': () => json(200, CUSTOMER),
      'POST /staff/customers/7/keys': () => json(201, { keys: CUSTOMER.keys }),
      'POST /staff/customers/7/keys/41/release': () => json(200, { released: true }),
      'POST /staff/customers/7/keys/41/resend-email': () => json(202, { sent_to: 'mia@example.com' }),
    });
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Mint keys' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Tier' }), 'PRO');
    const count = screen.getByRole('spinbutton', { name: 'How many' });
    await user.clear(count);
    await user.type(count, '2');
    await confirmWithReason(user, 'Mint keys', 'Lost order');
    expect(api.callsTo('POST', '/staff/customers/7/keys').map((call) => call.body)).toEqual([
      { tier: 'PRO', count: 2, reason: 'Lost order' },
    ]);

    const keys = section('Keys (1)');
    await user.click(within(keys).getByRole('button', { name: 'Release' }));
    expect(screen.getByRole('dialog').textContent).toContain('store connection and theme token are cleared');
    await confirmWithReason(user, 'Release key', 'Sold the store');
    expect(api.callsTo('POST', '/staff/customers/7/keys/41/release').map((call) => call.body)).toEqual([
      { reason: 'Sold the store' },
    ]);

    await user.click(within(section('Keys (1)')).getByRole('button', { name: 'Re-send email' }));
    await confirmWithReason(user, 'Send email', 'Lost the email');
    expect(api.callsTo('POST', '/staff/customers/7/keys/41/resend-email').map((call) => call.body)).toEqual([
      { reason: 'Lost the email' },
    ]);
  });

  it('says when the customer does not exist', async () => {
    fakeApi({
      'GET /staff/customers/7': () => json(404, { error: 'Customer not found.', code: 'customer_not_found' }),
    });
    renderPage();
    expect(await screen.findByText('Customer not found.')).toBeTruthy();
  });
});
