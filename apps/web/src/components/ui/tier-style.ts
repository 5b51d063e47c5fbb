import type { Tier } from '@keyport/shared/domain/tiers';

/** §9 tier colours: PRO purple, REGULAR red, LITE teal. */
export const TIER_STYLES: Record<Tier, { badge: string; accent: string }> = {
  PRO: { badge: 'bg-purple-100 text-purple-800', accent: 'bg-purple-600' },
  REGULAR: { badge: 'bg-red-100 text-red-800', accent: 'bg-red-600' },
  LITE: { badge: 'bg-teal-100 text-teal-800', accent: 'bg-teal-600' },
};
