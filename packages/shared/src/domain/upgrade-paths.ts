/**
 * §4 "Upgrade paths" and §9 prices: which tier a key may move to, what the path is called, where the success screen
 * sends the person (§2), and the token-redemption route and toast (§7, §8). ADR 012.
 */
import { isTier, type Tier } from './tiers';

/** §4: LITE to REGULAR, REGULAR to PRO, LITE to PRO. A PRO key has none. */
export const UPGRADE_PATHS = ['LITE_TO_REGULAR', 'REGULAR_TO_PRO', 'LITE_TO_PRO'] as const;
export type UpgradePath = (typeof UPGRADE_PATHS)[number];

export function isUpgradePath(value: unknown): value is UpgradePath {
  return typeof value === 'string' && (UPGRADE_PATHS as readonly string[]).includes(value);
}

export const UPGRADE_PATH_TIERS: Readonly<Record<UpgradePath, { readonly from: Tier; readonly to: Tier }>> = {
  LITE_TO_REGULAR: { from: 'LITE', to: 'REGULAR' },
  REGULAR_TO_PRO: { from: 'REGULAR', to: 'PRO' },
  LITE_TO_PRO: { from: 'LITE', to: 'PRO' },
};

/**
 * §9 paid upgrade prices in USD cents: $120, $220, $320. These seed the server's price catalogue; the catalogue
 * (changed by staff) is what a person is charged.
 */
export const DEFAULT_UPGRADE_PRICES_CENTS: Readonly<Record<UpgradePath, number>> = {
  LITE_TO_REGULAR: 12_000,
  REGULAR_TO_PRO: 22_000,
  LITE_TO_PRO: 32_000,
};

/** The paths a key of this tier can take, in UPGRADE_PATHS order (PRO → none). */
export function upgradePathsFrom(tier: Tier): UpgradePath[] {
  return UPGRADE_PATHS.filter((path) => UPGRADE_PATH_TIERS[path].from === tier);
}

/**
 * The path from a key's tier to a target tier, as §7 sends it in `theme_type` ('REGULAR', 'PRO', upper case).
 * Anything else (another case, a lower or equal tier, an unknown text) is null.
 */
export function findUpgradePath(from: Tier, to: string): UpgradePath | null {
  if (!isTier(to)) return null;
  return (
    UPGRADE_PATHS.find((path) => UPGRADE_PATH_TIERS[path].from === from && UPGRADE_PATH_TIERS[path].to === to) ?? null
  );
}

/** The spec's own wording of a path (§4): 'LITE to REGULAR', 'REGULAR to PRO', 'LITE to PRO'. */
export function upgradePathLabel(path: UpgradePath): string {
  const { from, to } = UPGRADE_PATH_TIERS[path];
  return `${from} to ${to}`;
}

/** §4 the dashboard picker's names, also the §2 success screen's upgrade_file route. */
export type DashboardPickerSlug = 'lite-to-reg' | 'reg-lite-to-pro';

export function dashboardPickerSlug(path: UpgradePath): DashboardPickerSlug {
  return path === 'LITE_TO_REGULAR' ? 'lite-to-reg' : 'reg-lite-to-pro';
}

/** §2: 'Upgrade Theme Files' without a known path goes here. */
export const UPDATE_THEME_FILES_PATH = '/customer/update_file';

/**
 * §2 success screen, 'Upgrade Theme Files': LITE to REGULAR goes to /customer/upgrade_file/lite-to-reg, REGULAR to
 * PRO and LITE to PRO go to /customer/upgrade_file/reg-lite-to-pro; with no path, /customer/update_file.
 */
export function upgradeThemeFilesPath(path: UpgradePath | null): string {
  return path === null ? UPDATE_THEME_FILES_PATH : `/customer/upgrade_file/${dashboardPickerSlug(path)}`;
}

/** §7: the token-redemption route of each path. */
export const TOKEN_REDEEM_ROUTE: Readonly<Record<UpgradePath, string>> = {
  LITE_TO_REGULAR: '/keys/upgrade/regular',
  REGULAR_TO_PRO: '/keys/upgrade/pro',
  LITE_TO_PRO: '/keys/upgrade/l2p',
};

/** §8 success toast 'Successfully upgraded {from} to {to}!' with the tier names ('LITE', 'REGULAR', 'PRO'). */
export function tokenRedeemedMessage(path: UpgradePath): string {
  const { from, to } = UPGRADE_PATH_TIERS[path];
  return `Successfully upgraded ${from} to ${to}!`;
}
