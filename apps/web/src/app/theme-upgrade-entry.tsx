import { lazy, Suspense, useState } from 'react';
import type { Key } from '@keyport/shared/contracts/keys';
import { UpgradeLicenseAction } from '../features/upgrades/components/upgrade-license-action';

// The theme-upgrade dialogs load when first opened, from one chunk: the dashboard's initial bundle stays within budget.
const loadEntry = () => import('../features/theme-upgrades/entry');
const ThemeUpgradeLauncher = lazy(() => loadEntry().then((m) => ({ default: m.ThemeUpgradeLauncher })));
const UpgradeThemeFileDialog = lazy(() => loadEntry().then((m) => ({ default: m.UpgradeThemeFileDialog })));

/** The card's Upgrade button, with Upgrade Options' "Upgrade Theme" handed to the theme-upgrades feature. */
export function CardUpgradeAction({ licenseKey }: { licenseKey: Key }) {
  const [launching, setLaunching] = useState(false);
  return (
    <>
      <UpgradeLicenseAction licenseKey={licenseKey} onUpgradeTheme={() => setLaunching(true)} />
      {launching ? (
        <Suspense fallback={null}>
          <ThemeUpgradeLauncher card={licenseKey} onDone={() => setLaunching(false)} />
        </Suspense>
      ) : null}
    </>
  );
}

/** Quick Actions "Upgrade Files": 'Upgrade your theme file' (§2 dialog 7), loaded when opened. */
export function useUpgradeFilesDialog() {
  const [open, setOpen] = useState(false);
  const element = open ? (
    <Suspense fallback={null}>
      <UpgradeThemeFileDialog onClose={() => setOpen(false)} />
    </Suspense>
  ) : null;
  return { open: () => setOpen(true), element };
}
