import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred, fakeApi, json } from '../../../test/fake-api';
import { CREDIT_EVENTS, onCreditEvent } from '../../../lib/credit-events';
import { BALANCE, PRO_PRODUCT, REGULAR_PRODUCT, renderWithClient } from '../test/render';
import BuyWithCreditsDialog from './buy-with-credits-dialog';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  delete window.openCreditsDialog;
});

const NO_STORE = { linked_app_store: null, main_url: null, myshopify: null, secondary_url: null };
const NEW_KEY = { id: 99, api_key: 'REGL-NEW1-NEW2-NEW3', pro: false, lite: false, ...NO_STORE };

const products =
  (list = [PRO_PRODUCT, REGULAR_PRODUCT]) =>
  () =>
    json(200, { redeem_products: list, error: null });

function renderDialog(handlers: Parameters<typeof fakeApi>[0], { canBuyCredits = true } = {}) {
  const api = fakeApi({ 'GET /credits/balance': () => json(200, BALANCE), ...handlers });
  const onClose = vi.fn();
  const rendered = renderWithClient(<BuyWithCreditsDialog onClose={onClose} canBuyCredits={canBuyCredits} />);
  return { ...rendered, api, onClose, dialog: () => screen.getByRole('dialog', { name: 'Buy License with Credits' }) };
}

/** With the clock stopped: lets the answer arrive and render (timers due now run; the 150 ms one does not). */
async function settle(done: () => boolean) {
  for (let round = 0; round < 20 && !done(); round++) await act(() => vi.advanceTimersByTimeAsync(0));
}

const insufficient = () =>
  json(402, { error: 'Insufficient credits: this license costs 2 and you have 0', code: 'insufficient_credits' });

/** Buys with too few credits, then stops the clock once 'Not enough credits…' is on screen. */
async function buyWithTooFewCredits() {
  const rendered = renderDialog({ 'GET /credits/redeem-products': products(), 'POST /credits/redeem': insufficient });
  const buy = await screen.findByRole('button', { name: 'Buy REGULAR License for 2 credits' });
  vi.useFakeTimers();
  fireEvent.click(buy);
  await settle(() => screen.queryByText('Not enough credits. Opening credits checkout...') !== null);
  expect(screen.getByText('Not enough credits. Opening credits checkout...')).toBeInTheDocument();
  return rendered;
}

describe('§2 dialog 9 Buy License with Credits', () => {
  it('shows the balance and the license products, REGULAR first, each with its cost and a Buy button', async () => {
    renderDialog({ 'GET /credits/redeem-products': products() });
    const rows = await screen.findAllByTestId('redeem-product');
    expect(rows.map((row) => within(row).getByText(/License$/).textContent)).toEqual([
      'REGULAR License',
      'PRO License',
    ]);
    expect(rows[0]).toHaveTextContent('A new REGULAR license key');
    expect(rows[0]).toHaveTextContent('2 credits');
    expect(rows[1]).toHaveTextContent('5 credits');
    expect(within(rows[0]!).getByRole('button', { name: 'Buy REGULAR License for 2 credits' })).toBeEnabled();
    expect(await screen.findByTestId('credits-balance')).toHaveTextContent('Credits: 3');
  });

  it('shows a loading state while the products load', async () => {
    const pending = deferred();
    renderDialog({ 'GET /credits/redeem-products': () => pending.promise });
    expect(screen.getByRole('status', { name: 'Loading licenses' })).toBeInTheDocument();
    pending.resolve(json(200, { redeem_products: [REGULAR_PRODUCT], error: null }));
    expect(await screen.findByTestId('redeem-product')).toBeInTheDocument();
  });

  it("'Error Loading' with the server's message and Try Again, which loads again", async () => {
    let fail = true;
    const { user, api } = renderDialog({
      'GET /credits/redeem-products': () =>
        fail ? json(503, { error: 'The catalogue is resting', code: 'unavailable' }) : products()(),
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error Loading');
    expect(alert).toHaveTextContent('The catalogue is resting');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findAllByTestId('redeem-product')).toHaveLength(2);
    expect(api.callsTo('GET', '/credits/redeem-products')).toHaveLength(2);
  });

  it("'Failed to load' when the failure carries no message (the connection dropped)", async () => {
    renderDialog({});
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error Loading');
    expect(alert).toHaveTextContent('Failed to load');
  });

  it("'No Licenses Available' when no product is a REGULAR or PRO license", async () => {
    renderDialog({
      'GET /credits/redeem-products': products([{ ...REGULAR_PRODUCT, grant_value: 'LITE' }]),
    });
    expect(await screen.findByText('No Licenses Available')).toBeInTheDocument();
    expect(screen.queryByTestId('redeem-product')).not.toBeInTheDocument();
  });

  it('buys once: every Buy button is disabled while the purchase runs; success toasts, announces and closes', async () => {
    const answer = deferred();
    const { user, api, onClose } = renderDialog({
      'GET /credits/redeem-products': products(),
      'POST /credits/redeem': () => answer.promise,
    });
    const redeemed = vi.fn();
    const balanceChanged = vi.fn();
    const stops = [
      onCreditEvent(CREDIT_EVENTS.licenseRedeemed, redeemed),
      onCreditEvent(CREDIT_EVENTS.creditsBalanceChanged, balanceChanged),
    ];
    const buy = await screen.findByRole('button', { name: 'Buy REGULAR License for 2 credits' });
    await user.click(buy);
    fireEvent.click(buy);
    await waitFor(() => expect(buy).toBeDisabled());
    expect(screen.getByRole('button', { name: 'Buy PRO License for 5 credits' })).toBeDisabled();
    expect(api.callsTo('POST', '/credits/redeem')).toEqual([
      expect.objectContaining({ body: { redeem_product_id: 1 } }),
    ]);

    answer.resolve(json(200, { error: null, key: NEW_KEY, balance: 1 }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(toast.success).toHaveBeenCalledWith('License purchased with credits. Check your email for the key.');
    expect(redeemed).toHaveBeenCalledWith({ apiKey: NEW_KEY.api_key });
    expect(balanceChanged).toHaveBeenCalledWith({ balance: 1 });
    expect(api.callsTo('POST', '/credits/redeem')).toHaveLength(1);
    stops.forEach((stop) => stop());
  });

  it("shows the server's error, and lets the person try again", async () => {
    const { user, onClose } = renderDialog({
      'GET /credits/redeem-products': products(),
      'POST /credits/redeem': () =>
        json(404, { error: 'That license is no longer offered', code: 'redeem_product_not_found' }),
    });
    const buy = await screen.findByRole('button', { name: 'Buy PRO License for 5 credits' });
    await user.click(buy);
    expect(await screen.findByRole('alert')).toHaveTextContent('That license is no longer offered');
    expect(buy).toBeEnabled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it("'Redeem failed' when the failure carries no message", async () => {
    const { user } = renderDialog({
      'GET /credits/redeem-products': products(),
      'POST /credits/redeem': () => new Response('<html>Bad gateway</html>', { status: 502 }),
    });
    await user.click(await screen.findByRole('button', { name: 'Buy PRO License for 5 credits' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Redeem failed$/);
  });

  it("insufficient credits for someone who cannot buy credits: the server's reason, no checkout promised, Earn 1 Free Credit", async () => {
    const reason =
      'Insufficient credits: this license costs 2 credits and you have 0. 1 credit is pending review: it can be spent once our team approves your store report.';
    const { onClose, dialog } = renderDialog(
      {
        'GET /credits/redeem-products': products(),
        'POST /credits/redeem': () => json(402, { error: reason, code: 'insufficient_credits' }),
      },
      { canBuyCredits: false },
    );
    window.openCreditsDialog = vi.fn();
    const buy = await screen.findByRole('button', { name: 'Buy REGULAR License for 2 credits' });
    vi.useFakeTimers();
    fireEvent.click(buy);
    await settle(() => screen.queryByText(reason) !== null);
    expect(screen.getByRole('status')).toHaveTextContent(reason);
    // Past the 150 ms a checkout would have taken: nothing opens, nothing promises one.
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.getByText(reason)).toBeInTheDocument();
    expect(screen.queryByText('Not enough credits. Opening credits checkout...')).not.toBeInTheDocument();
    expect(screen.queryByText('Please open the menu to buy credits.')).not.toBeInTheDocument();
    expect(window.openCreditsDialog).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    expect(within(dialog()).getByRole('button', { name: 'Earn 1 Free Credit' })).toBeEnabled();
    expect(buy).toBeEnabled();
  });

  it('insufficient credits with a credits checkout: says so, then 150 ms later closes and opens the checkout', async () => {
    const openCredits = vi.fn();
    window.openCreditsDialog = openCredits;
    const { onClose } = await buyWithTooFewCredits();
    act(() => vi.advanceTimersByTime(148));
    expect(openCredits).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(2));
    expect(openCredits).toHaveBeenCalledTimes(1);
    expect(onClose).toHaveBeenCalled();
    expect(screen.queryByText('Please open the menu to buy credits.')).not.toBeInTheDocument();
  });

  it("insufficient credits, the checkout not reachable from here: 'Please open the menu to buy credits.' and the dialog stays", async () => {
    const { onClose } = await buyWithTooFewCredits();
    act(() => vi.advanceTimersByTime(150));
    expect(screen.getByText('Please open the menu to buy credits.')).toBeInTheDocument();
    expect(screen.queryByText('Not enough credits. Opening credits checkout...')).not.toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('Earn 1 Free Credit closes this dialog and asks for dialog 10 150 ms later', async () => {
    const { onClose, dialog } = renderDialog({ 'GET /credits/redeem-products': products() });
    await screen.findAllByTestId('redeem-product');
    const openReport = vi.fn();
    const stop = onCreditEvent(CREDIT_EVENTS.openReportDialog, openReport);
    vi.useFakeTimers();
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Earn 1 Free Credit' }));
    expect(onClose).toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(149));
    expect(openReport).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(openReport).toHaveBeenCalledTimes(1);
    stop();
  });
});
