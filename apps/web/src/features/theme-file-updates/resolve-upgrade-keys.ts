import type { Key } from '@keyport/shared/contracts/keys';
import { tierFromFlags } from '@keyport/shared/domain/tiers';
import { SLUG_EDITIONS, type UpgradeFileSlug } from './routing/route-theme-file-update';
import type { ThemeFileUpdateInfo, UpgradeInfo } from './upgrade-storage';

export interface UpgradeKeys {
  source: Key;
  target: Key;
  /** The store's version as the routing knew it (§3 sourceLicenseVersion), or null. */
  sourceVersion: string | null;
}

/**
 * Which keys the page works on: for update_file the `target` and `source` query (source defaults to target), then
 * §3 themeUpgradeInfo, then upgradeInfo (the success screen's key, upgraded in place). Only the person's own keys, and
 * for an upgrade_file page only keys whose tiers fit the page's editions; anything else is null (the page asks).
 */
export function resolveUpgradeKeys(input: {
  page: UpgradeFileSlug | 'update';
  query: { target: string | null; source: string | null };
  themeUpgradeInfo: ThemeFileUpdateInfo | null;
  upgradeInfo: UpgradeInfo | null;
  keys: readonly Key[];
}): UpgradeKeys | null {
  const find = (apiKey: string | null | undefined) =>
    apiKey ? (input.keys.find((key) => key.api_key === apiKey) ?? null) : null;
  const fits = (source: Key, target: Key) => {
    if (input.page === 'update') return source.id === target.id;
    const editions = SLUG_EDITIONS[input.page];
    return (
      tierFromFlags(target) === editions.to &&
      (source.id === target.id || editions.from.includes(tierFromFlags(source)))
    );
  };

  if (input.page === 'update') {
    // Only the query: a bare update_file is Quick Actions "Update Theme", which asks for the key.
    const target = find(input.query.target);
    const source = input.query.source ? find(input.query.source) : target;
    if (!target || !source || source.id !== target.id) return null;
    const info = input.themeUpgradeInfo;
    const version = info && info.sourceLicenseKey === source.api_key ? info.sourceLicenseVersion : null;
    return { source, target, sourceVersion: version };
  }
  const info = input.themeUpgradeInfo;
  const latest = input.upgradeInfo;
  const fromInfo = () => {
    const source = find(info?.sourceLicenseKey);
    const target = find(info?.targetLicenseKey);
    return source && target && fits(source, target)
      ? { source, target, sourceVersion: info!.sourceLicenseVersion }
      : null;
  };
  // upgradeInfo is written by every way here (the choosers and the success screen); themeUpgradeInfo by the choosers.
  // When they describe the same choice, themeUpgradeInfo names both keys; otherwise upgradeInfo is the newer one: the
  // success screen's key, upgraded in place.
  if (latest) {
    if (info && info.sourceLicenseKey === latest.themeKey && info.targetLicenseType === latest.targetLicenseType) {
      const pair = fromInfo();
      if (pair) return pair;
    }
    const key = find(latest.themeKey);
    if (key && fits(key, key)) return { source: key, target: key, sourceVersion: null };
  }
  return info ? fromInfo() : null;
}
