import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Key } from '@keyport/shared/contracts/keys';
import type { UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import {
  fakeApi,
  json,
  LITE_KEY,
  LITE_TO_PRO,
  PRO_KEY,
  REGULAR_KEY,
  REGULAR_TO_PRO,
  TO_REGULAR,
} from '../test/fake-api';
import type { PickerKeys } from './upgrade-picker-dialog';
import { UpgradePicker } from './upgrade-picker';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

// The Upgrade License dialog's stand-in: what the picker opened it with, and a way to complete a purchase.
vi.mock('./upgrade-dialog', () => ({
  default: (props: {
    licenseKey: Key;
    initialPath: UpgradePath | null;
    onPurchased?: () => void;
    onClose: () => void;
  }) => (
    <div role="dialog" aria-label="Upgrade License" data-key={props.licenseKey.api_key} data-path={props.initialPath}>
      <button type="button" onClick={props.onPurchased}>
        Complete purchase
      </button>
      <button type="button" onClick={props.onClose}>
        Close
      </button>
    </div>
  ),
}));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

const LITE_2: Key = { ...LITE_KEY, id: 17, api_key: 'LITE-2222-BBBB-CCCC', main_url: 'second-shop.com' };
const loaded = (data: Key[]): PickerKeys => ({ data, isPending: false, isError: false });

function renderPicker(keys: PickerKeys) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const invalidate = vi.spyOn(client, 'invalidateQueries');
  render(
    <QueryClientProvider client={client}>
      <UpgradePicker keys={keys} />
    </QueryClientProvider>,
  );
  return { user: userEvent.setup(), invalidate };
}

async function choose(user: ReturnType<typeof userEvent.setup>, name: RegExp) {
  await user.click(screen.getByRole('button', { name: 'Upgrade a License' }));
  const picker = await screen.findByRole('dialog', { name: 'Upgrade a License' });
  await user.click(within(picker).getByRole('button', { name }));
  return picker;
}

const licenseDialog = () => screen.findByRole('dialog', { name: 'Upgrade License' });

describe('the dashboard’s paid upgrade picker (§2 dialog 3, §4)', () => {
  it('lite-to-reg with one LITE key: checks its options, then opens Upgrade License with REGULAR selected', async () => {
    const api = fakeApi({
      'POST /upgrades/options': () => json(200, { key: LITE_KEY, options: [TO_REGULAR, LITE_TO_PRO] }),
    });
    const { user } = renderPicker(loaded([LITE_KEY, PRO_KEY]));
    await choose(user, /^LITE to REGULAR/);
    const dialog = await licenseDialog();
    expect(dialog).toHaveAttribute('data-key', LITE_KEY.api_key);
    expect(dialog).toHaveAttribute('data-path', 'LITE_TO_REGULAR');
    expect(api.callsTo('POST', '/upgrades/options')[0]!.body).toEqual({ key: LITE_KEY.api_key });
    expect(screen.queryByRole('dialog', { name: 'Upgrade a License' })).toBeNull();
  });

  it('reg-lite-to-pro with a LITE and a REGULAR key lets the person choose, then selects REGULAR to PRO', async () => {
    fakeApi({ 'POST /upgrades/options': () => json(200, { key: REGULAR_KEY, options: [REGULAR_TO_PRO] }) });
    const { user } = renderPicker(loaded([LITE_KEY, REGULAR_KEY]));
    const picker = await choose(user, /LITE or REGULAR to PRO/);
    expect(within(picker).getAllByTestId('picker-key')).toHaveLength(2);
    const cont = within(picker).getByRole('button', { name: 'Continue' });
    expect(cont).toBeDisabled();
    await user.click(within(picker).getByRole('radio', { name: /REGL-AAAA-BBBB-CCCC/ }));
    await user.click(cont);
    const dialog = await licenseDialog();
    expect(dialog).toHaveAttribute('data-key', REGULAR_KEY.api_key);
    expect(dialog).toHaveAttribute('data-path', 'REGULAR_TO_PRO');
  });

  it('two LITE keys for lite-to-reg: both are offered; Back returns to the two choices', async () => {
    fakeApi({});
    const { user } = renderPicker(loaded([LITE_KEY, LITE_2]));
    const picker = await choose(user, /^LITE to REGULAR/);
    expect(
      within(picker)
        .getAllByTestId('picker-key')
        .map((row) => row.textContent),
    ).toEqual([expect.stringContaining('LITE-AAAA-BBBB-CCCC'), expect.stringContaining('LITE-2222-BBBB-CCCC')]);
    await user.click(within(picker).getByRole('button', { name: 'Back' }));
    expect(within(picker).getAllByTestId('picker-choice')).toHaveLength(2);
  });

  it.each([
    [
      'lite-to-reg with no LITE key',
      [REGULAR_KEY, PRO_KEY],
      /^LITE to REGULAR/,
      'No eligible key found for this upgrade',
    ],
    ['every key PRO', [PRO_KEY], /LITE or REGULAR to PRO/, 'No upgrade available for your license level'],
  ])('%s: "%s"', async (_, keys, choice, text) => {
    const api = fakeApi({});
    const { user } = renderPicker(loaded(keys));
    const picker = await choose(user, choice);
    expect(await within(picker).findByRole('alert')).toHaveTextContent(new RegExp(`^${text}$`));
    expect(api.calls).toHaveLength(0);
  });

  it('"Failed to check upgrade status. Please refresh the page." when the keys could not be read', async () => {
    const { user } = renderPicker({ data: undefined, isPending: false, isError: true });
    const picker = await choose(user, /^LITE to REGULAR/);
    expect(await within(picker).findByRole('alert')).toHaveTextContent(
      /^Failed to check upgrade status\. Please refresh the page\.$/,
    );
  });

  it('"Failed to fetch upgrade options." when POST /upgrades/options fails for the key', async () => {
    fakeApi({ 'POST /upgrades/options': () => json(500, { error: 'Internal Server Error', code: 'internal' }) });
    const { user } = renderPicker(loaded([LITE_KEY]));
    const picker = await choose(user, /^LITE to REGULAR/);
    expect(await within(picker).findByRole('alert')).toHaveTextContent(/^Failed to fetch upgrade options\.$/);
    expect(screen.queryByRole('dialog', { name: 'Upgrade License' })).toBeNull();
  });

  it('"No upgrade available for your license level" when the server no longer offers the path (upgraded elsewhere)', async () => {
    fakeApi({ 'POST /upgrades/options': () => json(200, { key: PRO_KEY, options: [] }) });
    const { user } = renderPicker(loaded([LITE_KEY]));
    const picker = await choose(user, /^LITE to REGULAR/);
    expect(await within(picker).findByRole('alert')).toHaveTextContent(/^No upgrade available for your license level$/);
  });

  it('waits for the keys: the choices are disabled while they load', async () => {
    const { user } = renderPicker({ data: undefined, isPending: true, isError: false });
    await user.click(screen.getByRole('button', { name: 'Upgrade a License' }));
    const picker = await screen.findByRole('dialog', { name: 'Upgrade a License' });
    within(picker)
      .getAllByTestId('picker-choice')
      .forEach((choice) => expect(choice).toBeDisabled());
    expect(within(picker).getByRole('status')).toHaveTextContent('Checking your licenses…');
  });

  it('after a purchase: "Upgrade completed" and every query of the dashboard fetched again', async () => {
    fakeApi({ 'POST /upgrades/options': () => json(200, { key: LITE_KEY, options: [TO_REGULAR] }) });
    const { user, invalidate } = renderPicker(loaded([LITE_KEY]));
    await choose(user, /^LITE to REGULAR/);
    const dialog = await licenseDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Complete purchase' }));
    expect(toast.success).toHaveBeenCalledWith('Upgrade completed');
    expect(invalidate).toHaveBeenCalledWith();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
