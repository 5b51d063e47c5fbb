import type { Key } from '../contracts/keys';
import { normaliseOptionalText } from './empty-value';
import { tierFromFlags, type Tier } from './tiers';

/** §9: 6 keys per page on the keys dashboard. */
export const KEYS_PAGE_SIZE = 6;

/** §3 placeholder shown when a key has no domain. */
export const NO_DOMAIN = 'None';

/** §3 "Store card / license record", derived from a Key. */
export interface StoreCard {
  id: number;
  /** The license key. */
  api_key: string;
  /** First non-empty of linked_app_store, main_url, myshopify; 'None' when unset. */
  domain: string;
  name: string;
  installed: boolean;
  keys: 1;
  keyTypes: { pro: number; regular: number; lite: number };
  /** '' when unset. */
  myshopify: string;
  /** '' when unset. */
  secondary_url: string;
  licenseType: Tier;
}

/** §2 type filter values. */
export type StoreTypeFilter = 'ALL' | Tier;

/** §3 name: the domain part before the first dot (after any http(s):// prefix), else '{tier} License'. */
function deriveCardName(domain: string, tier: Tier): string {
  const host = domain.replace(/^https?:\/\//i, '');
  const name = host.split(/[./]/)[0] ?? '';
  return name === '' ? `${tier} License` : name;
}

/** §3 "Store card / license record": derive the card shown on the keys dashboard. */
export function deriveStoreCard(key: Key): StoreCard {
  const licenseType = tierFromFlags({ pro: key.pro, lite: key.lite });
  const found = [key.linked_app_store, key.main_url, key.myshopify]
    .map(normaliseOptionalText)
    .find((value) => value !== '');
  const domain = found ?? NO_DOMAIN;
  return {
    id: key.id,
    api_key: key.api_key,
    domain,
    name: found === undefined ? `${licenseType} License` : deriveCardName(found, licenseType),
    installed: found !== undefined,
    keys: 1,
    keyTypes: {
      pro: licenseType === 'PRO' ? 1 : 0,
      regular: licenseType === 'REGULAR' ? 1 : 0,
      lite: licenseType === 'LITE' ? 1 : 0,
    },
    myshopify: normaliseOptionalText(key.myshopify),
    secondary_url: normaliseOptionalText(key.secondary_url),
    licenseType,
  };
}

/**
 * What names one card's controls to a screen reader ('Upgrade aurora-outfitters'): its store name, and for a key with
 * no store, whose name is its tier's ('LITE License', like every other such key), the license key as well.
 */
export function storeCardLabel(card: Pick<StoreCard, 'name' | 'installed' | 'api_key'>): string {
  return card.installed ? card.name : `${card.name} ${card.api_key}`;
}

/** §3: on the license card the tier is PRO if pro>0, else REGULAR if regular>0, else LITE. */
export function cardTier(card: Pick<StoreCard, 'keyTypes'>): Tier {
  if (card.keyTypes.pro > 0) return 'PRO';
  if (card.keyTypes.regular > 0) return 'REGULAR';
  return 'LITE';
}

/** §3: connected when installed is set and a domain or myshopify value exists. */
export function isStoreConnected(card: Pick<StoreCard, 'installed' | 'domain' | 'myshopify'>): boolean {
  const hasDomain = normaliseOptionalText(card.domain) !== '';
  const hasMyshopify = normaliseOptionalText(card.myshopify) !== '';
  return card.installed && (hasDomain || hasMyshopify);
}

/**
 * §2 search box: case-insensitive, trimmed match on store name, domain, myshopify
 * domain and license key. An empty query matches every card. The 'None' placeholder
 * is not a domain and never matches.
 */
export function matchesStoreSearch(card: StoreCard, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (needle === '') return true;
  return [card.name, normaliseOptionalText(card.domain), card.myshopify, card.api_key].some((field) =>
    field.toLowerCase().includes(needle),
  );
}

/** §2 search box and type filter (ALL, PRO, REGULAR, LITE) applied together. */
export function filterStoreCards(
  cards: readonly StoreCard[],
  filter: { query: string; type: StoreTypeFilter },
): StoreCard[] {
  return cards.filter(
    (card) => (filter.type === 'ALL' || cardTier(card) === filter.type) && matchesStoreSearch(card, filter.query),
  );
}

export interface Page<T> {
  items: T[];
  /** 1-based, clamped to 1..pageCount. */
  page: number;
  /** At least 1, even for an empty list. */
  pageCount: number;
}

/** §2 pagination (§9: KEYS_PAGE_SIZE per page). Out-of-range or non-numeric pages are clamped. */
export function paginate<T>(items: readonly T[], page: number, pageSize: number): Page<T> {
  const size = Number.isFinite(pageSize) && pageSize >= 1 ? Math.floor(pageSize) : 1;
  const pageCount = Math.max(1, Math.ceil(items.length / size));
  const wanted = Number.isFinite(page) ? Math.trunc(page) : 1;
  const current = Math.min(Math.max(wanted, 1), pageCount);
  const start = (current - 1) * size;
  return { items: items.slice(start, start + size), page: current, pageCount };
}
