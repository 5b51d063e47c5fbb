import type { Key } from '@keyport/shared/contracts/keys';
import { tierFromFlags, type Tier } from '@keyport/shared/domain/tiers';
import { findUpgradePath, type DashboardPickerSlug, type UpgradePath } from '@keyport/shared/domain/upgrade-paths';

/** §8 "Dashboard" and "Upgrade flows": what the picker says when it cannot go on. ADR 018 maps each to its cause. */
export const PICKER_MESSAGES = {
  /** The chosen upgrade fits none of the keys (no LITE key for lite-to-reg, say). */
  noEligibleKey: 'No eligible key found for this upgrade',
  /** Every key is already PRO, or the chosen key has no such upgrade any more (upgraded in another tab). */
  noUpgradeForLevel: 'No upgrade available for your license level',
  /** The keys could not be read (GET /keys/ failed). */
  keysFailed: 'Failed to check upgrade status. Please refresh the page.',
  /** POST /upgrades/options failed for the chosen key. */
  optionsFailed: 'Failed to fetch upgrade options.',
} as const;

/** §4 the dashboard picker's two choices. */
export interface PickerChoice {
  slug: DashboardPickerSlug;
  title: string;
  from: readonly Tier[];
  to: Tier;
}

export const PICKER_CHOICES: readonly PickerChoice[] = [
  { slug: 'lite-to-reg', title: 'LITE to REGULAR', from: ['LITE'], to: 'REGULAR' },
  { slug: 'reg-lite-to-pro', title: 'LITE or REGULAR to PRO', from: ['LITE', 'REGULAR'], to: 'PRO' },
];

export const pickerChoice = (slug: DashboardPickerSlug): PickerChoice =>
  PICKER_CHOICES.find((choice) => choice.slug === slug)!;

export type PickVerdict =
  { kind: 'none'; message: string } | { kind: 'one'; key: Key; path: UpgradePath } | { kind: 'several'; keys: Key[] };

/**
 * §4: the keys an upgrade choice applies to. None: 'No upgrade available for your license level' when every key is
 * PRO, otherwise 'No eligible key found for this upgrade'. One: that key and its path. Several: the person chooses.
 */
export function pickUpgradeKey(keys: readonly Key[], slug: DashboardPickerSlug): PickVerdict {
  const choice = pickerChoice(slug);
  const eligible = keys.filter((key) => choice.from.includes(tierFromFlags(key)));
  if (eligible.length === 0) {
    const allPro = keys.length > 0 && keys.every((key) => tierFromFlags(key) === 'PRO');
    return { kind: 'none', message: allPro ? PICKER_MESSAGES.noUpgradeForLevel : PICKER_MESSAGES.noEligibleKey };
  }
  if (eligible.length === 1) return { kind: 'one', key: eligible[0]!, path: pickerPath(eligible[0]!, slug)! };
  return { kind: 'several', keys: eligible };
}

/** The upgrade path of a key for a picker choice: LITE_TO_REGULAR, LITE_TO_PRO or REGULAR_TO_PRO (null: none). */
export function pickerPath(key: Key, slug: DashboardPickerSlug): UpgradePath | null {
  return findUpgradePath(tierFromFlags(key), pickerChoice(slug).to);
}
