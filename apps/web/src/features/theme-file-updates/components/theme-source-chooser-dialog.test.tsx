import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { at, LITE, PRO, REGULAR, renderRoutes } from '../test/fake-api';
import { ThemeSourceChooserDialog } from './theme-source-chooser-dialog';

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

const stored = (name: string) => JSON.parse(localStorage.getItem(name) ?? 'null') as unknown;

describe('Choose Theme Upgrade Source (§2 dialog 6)', () => {
  it('lists only higher tiers owned; nothing selected → the §8 text; a choice saves §3 storage, then goes', async () => {
    const user = userEvent.setup();
    const { router } = renderRoutes(
      [at('/', <ThemeSourceChooserDialog card={LITE} keys={[LITE, REGULAR, PRO]} onClose={() => undefined} />)],
      '/',
    );
    const dialog = await screen.findByRole('dialog', { name: 'Choose Theme Upgrade Source' });
    const radios = within(dialog).getAllByRole('radio');
    expect(radios.map((radio) => radio.getAttribute('value'))).toEqual(['REGULAR', 'PRO']);
    expect(within(dialog).getByText('Lite to Regular')).toBeInTheDocument();
    expect(within(dialog).getByText('Lite to Pro')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      /^Please select a license type to upgrade your theme from\.$/,
    );
    expect(router.state.location.pathname).toBe('/');

    await user.click(within(dialog).getByRole('radio', { name: /Lite to Pro/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/customer/upgrade_file/lite-to-pro'));
    expect(stored('themeUpgradeInfo')).toEqual({
      targetLicenseKey: PRO.api_key,
      targetLicenseType: 'PRO',
      sourceLicenseKey: LITE.api_key,
      sourceLicenseType: 'LITE',
      sourceLicenseVersion: null,
    });
    expect(stored('upgradeInfo')).toEqual({
      themeKey: LITE.api_key,
      type: 'lite-to-pro',
      currentLicenseType: 'LITE',
      targetLicenseType: 'PRO',
      storeInfo: { domain: 'harbor.myshopify.com', myshopify: 'harbor.myshopify.com', api_key: LITE.api_key },
    });
  });

  it('from REGULAR it offers only Upgrade to Pro (preselected) → reg-lite-to-pro', async () => {
    const user = userEvent.setup();
    const { router } = renderRoutes(
      [at('/', <ThemeSourceChooserDialog card={REGULAR} keys={[LITE, REGULAR, PRO]} onClose={() => undefined} />)],
      '/',
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getAllByRole('radio')).toHaveLength(1);
    expect(within(dialog).getByRole('radio', { name: /Upgrade to Pro/ })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/customer/upgrade_file/reg-lite-to-pro'));
  });

  it('with no higher tier it says so and offers Update Current Theme Files', async () => {
    const user = userEvent.setup();
    const { router } = renderRoutes(
      [at('/', <ThemeSourceChooserDialog card={LITE} keys={[LITE]} onClose={() => undefined} />)],
      '/',
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('status')).toHaveTextContent(
      /^No higher-tier licenses found\. You need a REGULAR or PRO license to upgrade LITE theme files\.$/,
    );
    expect(within(dialog).queryByRole('radio')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Update Current Theme Files' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/customer/update_file'));
    expect(router.state.location.search).toBe(`?target=${LITE.api_key}&source=${LITE.api_key}`);
  });
});
