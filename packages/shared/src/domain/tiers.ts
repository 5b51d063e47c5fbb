/** License tiers, lowest first. The order is the upgrade order. */
export const TIERS = ['LITE', 'REGULAR', 'PRO'] as const;
export type Tier = (typeof TIERS)[number];

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}

/** 0 for LITE, 1 for REGULAR, 2 for PRO. */
export function tierRank(tier: Tier): number {
  return TIERS.indexOf(tier);
}

/** §3 "Tier rule from the list": pro set gives PRO; lite set without pro gives LITE; neither gives REGULAR. */
export function tierFromFlags(flags: { pro: boolean; lite: boolean }): Tier {
  if (flags.pro) return 'PRO';
  if (flags.lite) return 'LITE';
  return 'REGULAR';
}

/** The Key entity's pro/lite flags for a stored tier. */
export function flagsFromTier(tier: Tier): { pro: boolean; lite: boolean } {
  return { pro: tier === 'PRO', lite: tier === 'LITE' };
}
