import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onCreditEvent } from '../../../lib/credit-events';
import { COUNTRIES, fakeApi, json } from '../test/fake-api';
import { CreditsCheckoutHost } from './credits-checkout-host';

afterEach(() => {
  vi.unstubAllGlobals();
  delete window.openCreditsDialog;
});

function renderHost(enabled: boolean) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <CreditsCheckoutHost enabled={enabled} />
    </QueryClientProvider>,
  );
}

describe('window.openCreditsDialog (§4): team members only', () => {
  it('is never set for a customer, and nothing is fetched', () => {
    const fake = fakeApi({});
    renderHost(false);
    expect(window.openCreditsDialog).toBeUndefined();
    expect(fake.calls).toHaveLength(0);
  });

  it('opens Buy Credits for a team member; closing emits creditsDialogClosed {purchased: false}', async () => {
    fakeApi({
      'GET /credits/packs': () => json(200, { packs: [] }),
      'GET /credits/balance': () => json(200, { balance: 0, owed: 0, can_report: true }),
      'GET /stripe/config': () => json(200, { publishableKey: 'pk_sandbox_keyport' }),
      'GET /countries': () => json(200, COUNTRIES),
    });
    const closed = vi.fn();
    const stop = onCreditEvent('creditsDialogClosed', closed);
    renderHost(true);
    expect(window.openCreditsDialog).toBeTypeOf('function');
    act(() => window.openCreditsDialog!());
    expect(await screen.findByRole('dialog', { name: 'Buy Credits' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    stop();
    expect(closed).toHaveBeenCalledExactlyOnceWith({ purchased: false });
  });

  it('is deleted when the dashboard unmounts, or the person stops being a team member', () => {
    const view = renderHost(true);
    expect(window.openCreditsDialog).toBeTypeOf('function');
    view.rerender(
      <QueryClientProvider client={new QueryClient()}>
        <CreditsCheckoutHost enabled={false} />
      </QueryClientProvider>,
    );
    expect(window.openCreditsDialog).toBeUndefined();
    view.rerender(
      <QueryClientProvider client={new QueryClient()}>
        <CreditsCheckoutHost enabled />
      </QueryClientProvider>,
    );
    expect(window.openCreditsDialog).toBeTypeOf('function');
    view.unmount();
    expect(window.openCreditsDialog).toBeUndefined();
  });
});
