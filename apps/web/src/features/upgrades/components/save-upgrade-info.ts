import type { Key } from '@keyport/shared/contracts/keys';
import { deriveStoreCard } from '@keyport/shared/domain/store-card';
import { dashboardPickerSlug, UPGRADE_PATH_TIERS, type UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import { STORAGE_KEYS } from '../../../lib/storage-keys';

/**
 * §3 `upgradeInfo`, saved before the success screen's 'Upgrade Theme Files' leaves for the upgrade file page (the
 * card's payment, and the PayPal return's success screen).
 */
export function saveUpgradeInfo(licenseKey: Key, path: UpgradePath) {
  const card = deriveStoreCard(licenseKey);
  const { from, to } = UPGRADE_PATH_TIERS[path];
  localStorage.setItem(
    STORAGE_KEYS.upgradeInfo,
    JSON.stringify({
      themeKey: licenseKey.api_key,
      type: dashboardPickerSlug(path),
      currentLicenseType: from,
      targetLicenseType: to,
      storeInfo: { domain: card.domain, myshopify: card.myshopify, api_key: licenseKey.api_key },
    }),
  );
}
