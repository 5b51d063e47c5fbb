import { lazy, Suspense, useState } from 'react';
import type { Key } from '@keyport/shared/contracts/keys';
import { UpgradeLicenseAction } from '../features/upgrades/components/upgrade-license-action';
import { useUrlDialog } from '../lib/url-dialog';

// The theme-file-update dialogs load when first opened, from one chunk: the dashboard's initial bundle stays within budget.
const loadEntry = () => import('../features/theme-file-updates/entry');
const ThemeFileUpdateLauncher = lazy(() => loadEntry().then((m) => ({ default: m.ThemeFileUpdateLauncher })));
const UpgradeThemeFileDialog = lazy(() => loadEntry().then((m) => ({ default: m.UpgradeThemeFileDialog })));

/** The card's Upgrade button, with Upgrade Options' "Upgrade Theme" handed to the theme-file-updates feature. */
export function CardUpgradeAction({ licenseKey }: { licenseKey: Key }) {
  const [launching, setLaunching] = useState(false);
  return (
    <>
      <UpgradeLicenseAction licenseKey={licenseKey} onUpgradeTheme={() => setLaunching(true)} />
      {launching ? (
        <Suspense fallback={null}>
          <ThemeFileUpdateLauncher card={licenseKey} onDone={() => setLaunching(false)} />
        </Suspense>
      ) : null}
    </>
  );
}

/**
 * Quick Actions "Upgrade Files": 'Upgrade your theme file' (§2 dialog 7), loaded when opened. It lives in the URL
 * (`?dialog=upgrade-files`), so the user menu's "Upgrade Files" (below xl) is a link to it from any page.
 */
export function useUpgradeFilesDialog() {
  const dialog = useUrlDialog();
  const element = dialog.isOpen('upgrade-files') ? (
    <Suspense fallback={null}>
      <UpgradeThemeFileDialog onClose={dialog.close} />
    </Suspense>
  ) : null;
  return { open: () => dialog.open('upgrade-files'), element };
}
