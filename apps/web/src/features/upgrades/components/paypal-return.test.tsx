import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../../lib/storage-keys';
import { fakeApi, json, LITE_KEY, ORDER } from '../test/fake-api';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

const PRO = { ...LITE_KEY, lite: false, pro: true };

beforeEach(() => {
  sessionStorage.clear();
  vi.clearAllMocks();
  vi.resetModules();
});
afterEach(() => vi.unstubAllGlobals());

async function loadReturn(url: string) {
  const { default: PaypalReturn } = await import('./paypal-return');
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <PaypalReturn />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

describe('back from PayPal with a paid upgrade', () => {
  it("shows the card path's 'License Upgrade Complete!' screen, with Upgrade Theme Files and Close", async () => {
    fakeApi({
      'POST /stripe/paypal/capture-order': () =>
        json(200, { order: { ...ORDER, to: 'PRO', status: 'completed' }, key: PRO }),
    });
    const user = await loadReturn('/customer/my-keys?paypalReturn=true&token=5O190127TN364715T');
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade License' });
    expect(dialog).toHaveAccessibleDescription('Payment completed. Your license was upgraded.');
    expect(within(dialog).getByRole('heading', { name: 'License Upgrade Complete!' })).toBeInTheDocument();
    expect(within(dialog).getByText(/Your license is now PRO \(it was LITE\)/)).toBeInTheDocument();
    const themeFiles = within(dialog).getByRole('link', { name: 'Upgrade Theme Files' });
    expect(themeFiles).toHaveAttribute('href', '/customer/upgrade_file/reg-lite-to-pro');
    expect(toast.success).not.toHaveBeenCalled();

    await user.click(within(dialog).getAllByRole('button', { name: 'Close' })[0]!); // the screen's own Close
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('Upgrade Theme Files saves upgradeInfo for the upgraded key (§3)', async () => {
    fakeApi({
      'POST /stripe/paypal/capture-order': () =>
        json(200, { order: { ...ORDER, to: 'PRO', status: 'completed' }, key: PRO }),
    });
    const user = await loadReturn('/customer/my-keys?paypalReturn=true&token=5O190127TN364715T');
    await user.click(await screen.findByRole('link', { name: 'Upgrade Theme Files' }));
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.upgradeInfo)!)).toMatchObject({
      themeKey: LITE_KEY.api_key,
      type: 'reg-lite-to-pro',
      currentLicenseType: 'LITE',
      targetLicenseType: 'PRO',
    });
  });
});
