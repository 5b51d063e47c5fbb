import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import type { CreditsBalance, RedeemProduct } from '@keyport/shared/contracts/credits';

/** Renders with a fresh query client (no retries), and a user; `invalidate` spies on the refreshes. */
export function renderWithClient(ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const invalidate = vi.spyOn(client, 'invalidateQueries');
  const result = render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
  return { ...result, client, invalidate, user: userEvent.setup() };
}

export const BALANCE: CreditsBalance = { balance: 3, owed: 0, pending: 0, can_report: true };

export const REGULAR_PRODUCT: RedeemProduct = {
  id: 1,
  name: 'REGULAR License',
  description: 'A new REGULAR license key',
  grant_type: 'license_level',
  grant_value: 'REGULAR',
  cost_credits: 2,
};
export const PRO_PRODUCT: RedeemProduct = {
  id: 2,
  name: 'PRO License',
  description: 'A new PRO license key',
  grant_type: 'license_level',
  grant_value: 'pro',
  cost_credits: 5,
};
