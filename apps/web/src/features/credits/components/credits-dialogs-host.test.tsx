import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, json } from '../../../test/fake-api';
import { CREDIT_EVENTS, emitCreditEvent } from '../../../lib/credit-events';
import { queryKeys } from '../../../lib/query-keys';
import { openHistoryDialog, openRedeemDialog } from '../open-credits-dialog';
import { BALANCE, REGULAR_PRODUCT, renderWithClient } from '../test/render';
import { CreditsDialogsHost } from './credits-dialogs-host';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

function renderHost() {
  fakeApi({
    'GET /credits/balance': () => json(200, BALANCE),
    'GET /credits/redeem-products': () => json(200, { redeem_products: [REGULAR_PRODUCT], error: null }),
    'GET /credits/history': () => json(200, { entries: [] }),
  });
  const rendered = renderWithClient(<CreditsDialogsHost canBuyCredits={false} />);
  const refreshed = (key: readonly unknown[]) =>
    rendered.invalidate.mock.calls.filter(([filters]) => JSON.stringify(filters?.queryKey) === JSON.stringify(key))
      .length;
  return { ...rendered, refreshed };
}

describe('the credits dialogs’ host (§4 credit events, §9 timings)', () => {
  it('openReportDialog, from anywhere, opens dialog 10', async () => {
    renderHost();
    act(() => emitCreditEvent(CREDIT_EVENTS.openReportDialog));
    // The dialog's code loads on first open.
    expect(await screen.findByRole('dialog', { name: 'Earn 1 Free Credit' }, { timeout: 5_000 })).toBeInTheDocument();
  });

  it('the feature’s own entries open dialog 9', async () => {
    renderHost();
    act(() => openRedeemDialog());
    expect(
      await screen.findByRole('dialog', { name: 'Buy License with Credits' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(await screen.findByTestId('redeem-product')).toHaveTextContent('REGULAR License');
  });

  it('the menu’s Credit History opens the history', async () => {
    renderHost();
    act(() => openHistoryDialog());
    expect(await screen.findByRole('dialog', { name: 'Credit History' }, { timeout: 5_000 })).toBeInTheDocument();
    expect(await screen.findByText('No credit history yet.')).toBeInTheDocument();
  });

  const redeemEvents = {
    licenseRedeemed: () => emitCreditEvent(CREDIT_EVENTS.licenseRedeemed, { apiKey: 'REGL-1' }),
    creditsBalanceChanged: () => emitCreditEvent(CREDIT_EVENTS.creditsBalanceChanged, { balance: 1 }),
    'both, as a redeem sends them': () => {
      emitCreditEvent(CREDIT_EVENTS.licenseRedeemed, { apiKey: 'REGL-1' });
      emitCreditEvent(CREDIT_EVENTS.creditsBalanceChanged, { balance: 1 });
    },
  };

  it.each(Object.entries(redeemEvents))(
    '%s: the keys and the balance are fetched again 500 ms later, once',
    (_name, emit) => {
      const { refreshed } = renderHost();
      vi.useFakeTimers();
      act(emit);
      act(() => vi.advanceTimersByTime(499));
      expect(refreshed(queryKeys.keys)).toBe(0);
      expect(refreshed(queryKeys.creditsBalance)).toBe(0);
      act(() => vi.advanceTimersByTime(1));
      expect(refreshed(queryKeys.keys)).toBe(1);
      expect(refreshed(queryKeys.creditsBalance)).toBe(1);
      act(() => vi.advanceTimersByTime(1_000));
      expect(refreshed(queryKeys.keys)).toBe(1);
    },
  );

  it('a report refreshes 200 ms after it succeeds (its balance event joins that refresh)', async () => {
    const { refreshed, user } = renderHost();
    fakeApi({
      'GET /credits/balance': () => json(200, BALANCE),
      'POST /credits/report-store': () =>
        json(200, {
          ok: true,
          balance: 4,
          pending: 0,
          credit: 'available',
          validations: ['a.com', 'b.com', 'c.com', 'd.com', 'e.com'].map((domain) => ({
            domain,
            isValid: true,
            reason: 'Valid',
          })),
        }),
    });
    act(() => emitCreditEvent(CREDIT_EVENTS.openReportDialog));
    await screen.findByRole('dialog', { name: 'Earn 1 Free Credit' }, { timeout: 5_000 });
    await user.click(screen.getByLabelText('Store 1'));
    await user.paste('a.com b.com c.com d.com e.com');
    vi.useFakeTimers();
    act(() => screen.getByRole('button', { name: 'Submit Report' }).click());
    for (let round = 0; round < 20 && screen.queryByRole('dialog'); round++) {
      await act(() => vi.advanceTimersByTimeAsync(0));
    }
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const before = refreshed(queryKeys.keys);
    act(() => vi.advanceTimersByTime(199));
    expect(refreshed(queryKeys.keys)).toBe(before);
    act(() => vi.advanceTimersByTime(1));
    expect(refreshed(queryKeys.keys)).toBe(before + 1);
    act(() => vi.advanceTimersByTime(1_000));
    expect(refreshed(queryKeys.keys)).toBe(before + 1);
  });

  it('creditsDialogClosed refreshes the balance', () => {
    const { refreshed } = renderHost();
    act(() => emitCreditEvent(CREDIT_EVENTS.creditsDialogClosed, { purchased: true }));
    expect(refreshed(queryKeys.creditsBalance)).toBe(1);
  });
});
