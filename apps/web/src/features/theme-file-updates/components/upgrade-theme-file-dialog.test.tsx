import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { at, fakeApi, json, LITE, PRO, REGULAR, renderRoutes } from '../test/fake-api';
import { UpgradeThemeFileDialog } from './upgrade-theme-file-dialog';

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

const open = () => renderRoutes([at('/', <UpgradeThemeFileDialog onClose={() => undefined} />)], '/');

describe("'Upgrade your theme file' (§2 dialog 7, §5 upgrade file options)", () => {
  it('enables only the options GET /keys/list_keys_upgrade lists; the other says which key is needed', async () => {
    fakeApi({
      'GET /keys/': () => json(200, [LITE, REGULAR]),
      'GET /keys/list_keys_upgrade': () =>
        json(200, { upgradable_keys: [{ key: REGULAR.api_key, upgrade_status: 'Lite to Regular' }], error: null }),
    });
    const user = userEvent.setup();
    const { router } = open();
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade your theme file' });
    const toPro = await within(dialog).findByRole('button', { name: /Upgrade to Pro/ });
    expect(toPro).toBeDisabled();
    expect(toPro).toHaveAccessibleDescription('You need a Pro key to perform this upgrade');
    const toRegular = within(dialog).getByRole('button', { name: /Upgrade LITE to Regular/ });
    expect(toRegular).toBeEnabled();
    await user.click(toRegular);
    await waitFor(() => expect(router.state.location.pathname).toBe('/customer/upgrade_file/lite-to-reg'));
    expect(JSON.parse(localStorage.getItem('themeUpgradeInfo')!)).toMatchObject({
      sourceLicenseKey: LITE.api_key,
      targetLicenseKey: REGULAR.api_key,
    });
  });

  it('with none listed both are disabled, with the Regular-key and Pro-key messages', async () => {
    fakeApi({
      'GET /keys/': () => json(200, [LITE]),
      'GET /keys/list_keys_upgrade': () => json(200, { upgradable_keys: [], error: null }),
    });
    open();
    const dialog = await screen.findByRole('dialog');
    const toRegular = await within(dialog).findByRole('button', { name: /Upgrade LITE to Regular/ });
    expect(toRegular).toBeDisabled();
    expect(toRegular).toHaveAccessibleDescription('You need a Regular key to perform this upgrade');
    expect(within(dialog).getByRole('button', { name: /Upgrade to Pro/ })).toHaveAccessibleDescription(
      'You need a Pro key to perform this upgrade',
    );
  });

  it('with several stores that could take the upgrade, the person picks one', async () => {
    fakeApi({
      'GET /keys/': () => json(200, [LITE, REGULAR, PRO]),
      'GET /keys/list_keys_upgrade': () =>
        json(200, { upgradable_keys: [{ key: PRO.api_key, upgrade_status: 'Regular to Pro' }], error: null }),
    });
    const user = userEvent.setup();
    const { router } = open();
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: /Upgrade to Pro/ }));
    await user.click(within(dialog).getByRole('button', { name: new RegExp(REGULAR.api_key) }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/customer/upgrade_file/reg-lite-to-pro'));
  });

  it('the person picks the target key; one that licenses another store is named, with what it means', async () => {
    const otherRegular = { ...REGULAR, id: 7, api_key: 'REGL-7777', myshopify: 'second-shop.myshopify.com' };
    fakeApi({
      'GET /keys/': () => json(200, [LITE, REGULAR, otherRegular]),
      'GET /keys/list_keys_upgrade': () =>
        json(200, {
          upgradable_keys: [
            { key: REGULAR.api_key, upgrade_status: 'Lite to Regular' },
            { key: otherRegular.api_key, upgrade_status: 'Lite to Regular' },
          ],
          error: null,
        }),
    });
    const user = userEvent.setup();
    const { router } = open();
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: /Upgrade LITE to Regular/ }));
    // No key was picked for the person: both are offered.
    expect(router.state.location.pathname).toBe('/');
    expect(within(dialog).getByText('Which REGULAR key should license harbor?')).toBeInTheDocument();
    const free = within(dialog).getByRole('button', { name: new RegExp(REGULAR.api_key) });
    expect(free).toHaveAccessibleDescription('No store connected');
    const taken = within(dialog).getByRole('button', { name: new RegExp(otherRegular.api_key) });
    expect(taken).toHaveAccessibleDescription(
      'Licenses second-shop.myshopify.com now: second-shop.myshopify.com will lose its license if you use this key.',
    );
    await user.click(taken);
    await waitFor(() => expect(router.state.location.pathname).toBe('/customer/upgrade_file/lite-to-reg'));
    expect(JSON.parse(localStorage.getItem('themeUpgradeInfo')!)).toMatchObject({
      sourceLicenseKey: LITE.api_key,
      targetLicenseKey: otherRegular.api_key,
    });
  });

  it("says 'Failed to load upgrade options' when the list cannot be read", async () => {
    fakeApi({
      'GET /keys/': () => json(200, [LITE]),
      'GET /keys/list_keys_upgrade': () => json(500, { error: 'Internal Server Error', code: 'internal' }),
    });
    open();
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Failed to load upgrade options$/);
  });
});
