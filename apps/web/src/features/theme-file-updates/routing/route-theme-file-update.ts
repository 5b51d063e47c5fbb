import type { Key } from '@keyport/shared/contracts/keys';
import { tierFromFlags, tierRank, TIERS, type Tier } from '@keyport/shared/domain/tiers';
import { THEME_FILE_UPDATE_MESSAGES } from '../messages';

/** The theme-file update pages (§2): the same-edition update and the three edition upgrades. */
export type UpgradeFileSlug = 'lite-to-reg' | 'reg-lite-to-pro' | 'lite-to-pro';
export const UPGRADE_FILE_SLUGS: readonly UpgradeFileSlug[] = ['lite-to-reg', 'reg-lite-to-pro', 'lite-to-pro'];

export function isUpgradeFileSlug(value: unknown): value is UpgradeFileSlug {
  return typeof value === 'string' && (UPGRADE_FILE_SLUGS as readonly string[]).includes(value);
}

/** The editions a page moves between: which editions the store may run now, and the edition it gets. */
export const SLUG_EDITIONS: Readonly<Record<UpgradeFileSlug, { from: readonly Tier[]; to: Tier }>> = {
  'lite-to-reg': { from: ['LITE'], to: 'REGULAR' },
  'lite-to-pro': { from: ['LITE'], to: 'PRO' },
  'reg-lite-to-pro': { from: ['LITE', 'REGULAR'], to: 'PRO' },
};

/** The page for a move from one edition to a higher one. */
export function slugFor(from: Tier, to: Tier): UpgradeFileSlug | null {
  if (from === 'LITE' && to === 'REGULAR') return 'lite-to-reg';
  if (from === 'LITE' && to === 'PRO') return 'lite-to-pro';
  if (from === 'REGULAR' && to === 'PRO') return 'reg-lite-to-pro';
  return null;
}

/** Where a card's theme upgrade goes. `target` is the key whose edition the store gets (§3 themeUpgradeInfo). */
export type ThemeFileUpdateRoute =
  | { kind: 'page'; slug: UpgradeFileSlug; source: Key; target: Key }
  | { kind: 'chooser'; source: Key; tiers: Tier[] }
  | { kind: 'check-availability'; source: Key }
  | { kind: 'error'; message: string };

/** The person's other keys of a tier; free keys (no store connected) first, so the move frees nothing in use. */
export function keysOfTier(keys: readonly Key[], tier: Tier, except: Key): Key[] {
  const connected = (key: Key) =>
    key.linked_app_store?.trim() || key.main_url?.trim() || key.myshopify?.trim() ? 1 : 0;
  return keys
    .filter((key) => key.id !== except.id && tierFromFlags(key) === tier)
    .sort((a, b) => connected(a) - connected(b) || a.id - b.id);
}

/** §5 "Theme upgrade source": the tiers above the card's that the person owns among their other keys. */
export function higherTiersOwned(keys: readonly Key[], card: Key): Tier[] {
  const rank = tierRank(tierFromFlags(card));
  return TIERS.filter((tier) => tierRank(tier) > rank && keysOfTier(keys, tier, card).length > 0);
}

/**
 * §4 "Theme-upgrade routing". From a LITE card: REGULAR and PRO owned → the source chooser; only PRO → lite-to-pro;
 * only REGULAR → lite-to-reg; neither → the §8 error. From a REGULAR card: a PRO owned → the chooser, otherwise
 * lite-to-reg with the card's own key as the target (the spec's route: a key upgraded to REGULAR whose store still
 * runs LITE files). From a PRO card: the availability check (see `proAvailability`).
 */
export function routeThemeFileUpdate(card: Key, keys: readonly Key[]): ThemeFileUpdateRoute {
  const tier = tierFromFlags(card);
  const owned = higherTiersOwned(keys, card);
  if (tier === 'PRO') return { kind: 'check-availability', source: card };
  if (tier === 'REGULAR') {
    if (owned.includes('PRO')) return { kind: 'chooser', source: card, tiers: owned };
    return { kind: 'page', slug: 'lite-to-reg', source: card, target: card };
  }
  if (owned.length === 2) return { kind: 'chooser', source: card, tiers: owned };
  if (owned.length === 0) return { kind: 'error', message: THEME_FILE_UPDATE_MESSAGES.noHigherTier };
  const to = owned[0]!;
  return { kind: 'page', slug: slugFor('LITE', to)!, source: card, target: keysOfTier(keys, to, card)[0]! };
}

/**
 * The chooser's answer: the page for the chosen tier with the person's key of that tier, or §8 'Please select a
 * license type…' (nothing chosen) / 'Could not find a valid source license…' (no key of that tier, or not higher).
 */
export function chooseSource(
  card: Key,
  keys: readonly Key[],
  tier: Tier | null,
): { kind: 'page'; slug: UpgradeFileSlug; source: Key; target: Key } | { kind: 'error'; message: string } {
  if (tier === null) return { kind: 'error', message: THEME_FILE_UPDATE_MESSAGES.selectLicenseType };
  const slug = slugFor(tierFromFlags(card), tier);
  const target = keysOfTier(keys, tier, card)[0];
  if (!slug || !target) return { kind: 'error', message: THEME_FILE_UPDATE_MESSAGES.invalidSource };
  return { kind: 'page', slug, source: card, target };
}

/** Compares dotted versions numerically ('2.10.0' > '2.9.1'); a missing part counts as 0. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .replace(/^v/i, '')
      .split(/[.-]/)
      .map((p) => Number.parseInt(p, 10) || 0);
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/**
 * A PRO card's availability: a PRO release newer than the version the store runs → update_file; none → §8 'No
 * upgrade available for your license level'. When the store's version is unknown (no upgrade recorded for the key),
 * the update is offered: the page reads the version from the export the person gives.
 */
export function proAvailability(
  latestVersion: string,
  storeVersion: string | null,
): { kind: 'update' } | { kind: 'error'; message: string } {
  if (storeVersion === null || compareVersions(latestVersion, storeVersion) > 0) return { kind: 'update' };
  return { kind: 'error', message: THEME_FILE_UPDATE_MESSAGES.noUpgradeAvailable };
}
