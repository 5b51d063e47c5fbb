import type { Key } from '@keyport/shared/contracts/keys';
import { deriveStoreCard } from '@keyport/shared/domain/store-card';
import { tierFromFlags } from '@keyport/shared/domain/tiers';
import { paths, updateFilePath } from '../../lib/paths';
import type { UpgradeFileSlug } from './routing/route-theme-file-update';
import { writeThemeFileUpdateInfo, writeUpgradeInfo } from './upgrade-storage';

/**
 * Writes §3 `themeUpgradeInfo` and `upgradeInfo` for a chosen upgrade and gives the page to go to. Called before
 * navigating, so the page (and a reload of it) finds them.
 */
export function saveUpgradeChoice(input: {
  slug: UpgradeFileSlug | 'update';
  source: Key;
  target: Key;
  sourceVersion?: string | null;
}): string {
  const sourceType = tierFromFlags(input.source);
  const targetType = tierFromFlags(input.target);
  const card = deriveStoreCard(input.source);
  writeThemeFileUpdateInfo({
    targetLicenseKey: input.target.api_key,
    targetLicenseType: targetType,
    sourceLicenseKey: input.source.api_key,
    sourceLicenseType: sourceType,
    sourceLicenseVersion: input.sourceVersion ?? null,
  });
  writeUpgradeInfo({
    themeKey: input.source.api_key,
    type: input.slug,
    currentLicenseType: sourceType,
    targetLicenseType: targetType,
    storeInfo: { domain: card.domain, myshopify: card.myshopify, api_key: input.source.api_key },
  });
  return input.slug === 'update'
    ? updateFilePath(input.target.api_key, input.source.api_key)
    : paths.upgradeFile(input.slug);
}
