import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StaffUpgradeToken } from '@keyport/shared/contracts/upgrades';
import { fakeApi, json } from '../../../test/fake-api';
import { renderStaffPage } from '../../../test/render-staff-page';
import { UpgradeTokensPage } from './upgrade-tokens-page';

const UNUSED: StaffUpgradeToken = {
  id: 12,
  path: 'LITE_TO_REGULAR',
  hint: '7QX2K',
  status: 'unused',
  created_at: '2026-11-20T09:00:00.000Z',
  created_by_email: 'staff@example.com',
  used_at: null,
  used_by_email: null,
  revoked_at: null,
};
const USED: StaffUpgradeToken = {
  ...UNUSED,
  id: 11,
  status: 'used',
  used_at: '2026-11-21T10:00:00.000Z',
  used_by_email: 'ann@example.com',
};
const REVOKED: StaffUpgradeToken = {
  ...UNUSED,
  id: 10,
  hint: null, // minted before hints were kept
  status: 'revoked',
  revoked_at: '2026-11-21T11:00:00.000Z',
};

const renderPage = (url: string) => renderStaffPage('/staff/upgrade-tokens', <UpgradeTokensPage />, url);

describe('the upgrade tokens page', () => {
  beforeEach(() => {
    // jsdom has no object URLs: the minted batch's CSV link needs one.
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:csv'), revokeObjectURL: vi.fn() }));
  });
  afterEach(() => vi.unstubAllGlobals());

  it('lists tokens with who minted and who used them; only an unused token can be revoked', async () => {
    fakeApi({ 'GET /staff/upgrade-tokens': () => json(200, { tokens: [UNUSED, USED, REVOKED], next_cursor: null }) });
    renderPage('/staff/upgrade-tokens');
    const table = await screen.findByRole('table', { name: 'Upgrade tokens' });
    await within(table).findByText('ann@example.com');
    const [unused, used, revoked] = within(table).getAllByRole('row').slice(1);
    // A token is told apart by its ending, as on the CSV (the id alone says nothing to a person holding a token).
    expect(within(unused!).getAllByRole('cell')[0]).toHaveTextContent(/^UPG-…-7QX2K#12$/);
    expect(within(revoked!).getAllByRole('cell')[0]).toHaveTextContent(/^#10$/);
    expect(unused).toHaveTextContent('LITE to REGULAR');
    expect(unused).toHaveTextContent('staff@example.com');
    expect(within(unused!).getByRole('button', { name: 'Revoke' })).toBeTruthy();
    expect(used).toHaveTextContent('ann@example.com');
    expect(within(used!).queryByRole('button', { name: 'Revoke' })).toBeNull();
    expect(revoked).toHaveTextContent('Revoked');
    expect(within(revoked!).queryByRole('button', { name: 'Revoke' })).toBeNull();
  });

  it('revoking says it cannot be undone and sends the reason', async () => {
    const api = fakeApi({
      'GET /staff/upgrade-tokens': () => json(200, { tokens: [UNUSED], next_cursor: null }),
      'POST /staff/upgrade-tokens/12/revoke': () => json(200, { token: { ...UNUSED, status: 'revoked' } }),
    });
    const user = renderPage('/staff/upgrade-tokens');
    await user.click(await screen.findByRole('button', { name: 'Revoke' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke token UPG-…-7QX2K (#12)?' });
    expect(dialog).toHaveTextContent(
      'The token stops working at once: nobody can redeem it any more. This cannot be undone.',
    );
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Leaked in a forum');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke token' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', '/staff/upgrade-tokens/12/revoke').map((call) => call.body)).toEqual([
      { reason: 'Leaked in a forum' },
    ]);
  });

  it('mints a batch for the chosen path and shows its tokens once, with a CSV to keep them', async () => {
    const api = fakeApi({
      'GET /staff/upgrade-tokens': () => json(200, { tokens: [], next_cursor: null }),
      'POST /staff/upgrade-tokens': () =>
        json(201, { path: 'REGULAR_TO_PRO', tokens: ['UPG-AAAA-1111', 'UPG-BBBB-2222'] }),
    });
    const user = renderPage('/staff/upgrade-tokens');
    expect(await screen.findByText('No upgrade tokens match.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Mint tokens' }));
    const dialog = screen.getByRole('dialog', { name: 'Mint upgrade tokens' });
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Path' }), 'REGULAR_TO_PRO');
    const count = within(dialog).getByRole('spinbutton', { name: 'How many' });
    await user.clear(count);
    await user.type(count, '2');
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Agency bundle');
    await user.click(within(dialog).getByRole('button', { name: 'Mint' }));

    const batch = await screen.findByRole('region', { name: '2 REGULAR to PRO tokens minted' });
    expect(within(batch).getByRole('list', { name: 'Minted tokens' })).toHaveTextContent('UPG-AAAA-1111UPG-BBBB-2222');
    const csv = within(batch).getByRole('link', { name: 'Download CSV' });
    expect(csv.getAttribute('href')).toBe('blob:csv');
    expect(csv.getAttribute('download')).toMatch(/^upgrade-tokens-REGULAR_TO_PRO-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.csv$/);
    expect(api.callsTo('POST', '/staff/upgrade-tokens').map((call) => call.body)).toEqual([
      { path: 'REGULAR_TO_PRO', count: 2, reason: 'Agency bundle' },
    ]);
  });
});
