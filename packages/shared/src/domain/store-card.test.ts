import { describe, expect, it } from 'vitest';
import type { Key } from '../contracts/keys';
import type { Tier } from './tiers';
import {
  KEYS_PAGE_SIZE,
  cardTier,
  deriveStoreCard,
  filterStoreCards,
  isStoreConnected,
  matchesStoreSearch,
  paginate,
  storeCardLabel,
  type StoreCard,
  type StoreTypeFilter,
} from './store-card';

function makeKey(overrides: Partial<Key> = {}): Key {
  return {
    id: 1,
    api_key: 'KEY-0001',
    pro: false,
    lite: false,
    linked_app_store: null,
    main_url: null,
    myshopify: null,
    secondary_url: null,
    ...overrides,
  };
}

describe('§3 deriveStoreCard: domain, name and installed', () => {
  it.each<[string, Partial<Key>, string, string, boolean]>([
    [
      'linked_app_store wins',
      {
        linked_app_store: 'a.myshopify.com',
        main_url: 'https://b.com',
        myshopify: 'c.myshopify.com',
      },
      'a.myshopify.com',
      'a',
      true,
    ],
    [
      'main_url when no app store',
      { main_url: 'https://shop.com', myshopify: 'c.myshopify.com' },
      'https://shop.com',
      'shop',
      true,
    ],
    ['http prefix stripped for name', { main_url: 'http://www.shop.com' }, 'http://www.shop.com', 'www', true],
    ['myshopify as last resort', { myshopify: 'store-1.myshopify.com' }, 'store-1.myshopify.com', 'store-1', true],
    [
      "'None' text is empty",
      { linked_app_store: 'None', main_url: 'None', myshopify: 'x.myshopify.com' },
      'x.myshopify.com',
      'x',
      true,
    ],
    [
      'empty and whitespace are empty',
      { linked_app_store: '', main_url: '   ', myshopify: 'y.myshopify.com' },
      'y.myshopify.com',
      'y',
      true,
    ],
    ['no dot: whole host is the name', { main_url: 'localhost' }, 'localhost', 'localhost', true],
    ['nothing set', {}, 'None', 'REGULAR License', false],
    [
      'all None, pro',
      { pro: true, linked_app_store: 'None', main_url: 'None', myshopify: 'None' },
      'None',
      'PRO License',
      false,
    ],
    ['nothing set, lite', { lite: true }, 'None', 'LITE License', false],
    ['bare protocol gives tier name', { pro: true, main_url: 'https://' }, 'https://', 'PRO License', true],
  ])('%s', (_label, overrides, domain, name, installed) => {
    const card = deriveStoreCard(makeKey(overrides));
    expect(card.domain).toBe(domain);
    expect(card.name).toBe(name);
    expect(card.installed).toBe(installed);
  });
});

describe('§3 deriveStoreCard: tier and keyTypes', () => {
  it.each<[boolean, boolean, Tier, StoreCard['keyTypes']]>([
    [true, false, 'PRO', { pro: 1, regular: 0, lite: 0 }],
    [true, true, 'PRO', { pro: 1, regular: 0, lite: 0 }],
    [false, true, 'LITE', { pro: 0, regular: 0, lite: 1 }],
    [false, false, 'REGULAR', { pro: 0, regular: 1, lite: 0 }],
  ])('pro=%s lite=%s → %s', (pro, lite, tier, keyTypes) => {
    const card = deriveStoreCard(makeKey({ pro, lite }));
    expect(card.licenseType).toBe(tier);
    expect(card.keyTypes).toEqual(keyTypes);
    expect(card.keys).toBe(1);
    expect(cardTier(card)).toBe(tier);
  });
});

describe('§3 deriveStoreCard: myshopify and secondary_url normalised', () => {
  it.each<[string | null, string]>([
    [null, ''],
    ['', ''],
    ['None', ''],
    ['  ', ''],
    ['https://second.com', 'https://second.com'],
  ])('%j → %j', (value, expected) => {
    const card = deriveStoreCard(makeKey({ myshopify: value, secondary_url: value, id: 7, api_key: 'K' }));
    expect(card.myshopify).toBe(expected);
    expect(card.secondary_url).toBe(expected);
    expect(card.id).toBe(7);
    expect(card.api_key).toBe('K');
  });
});

describe('§3 cardTier', () => {
  it.each<[StoreCard['keyTypes'], Tier]>([
    [{ pro: 2, regular: 1, lite: 1 }, 'PRO'],
    [{ pro: 0, regular: 3, lite: 1 }, 'REGULAR'],
    [{ pro: 0, regular: 0, lite: 1 }, 'LITE'],
    [{ pro: 0, regular: 0, lite: 0 }, 'LITE'],
  ])('%j → %s', (keyTypes, tier) => {
    expect(cardTier({ keyTypes })).toBe(tier);
  });
});

describe('§3 isStoreConnected', () => {
  it.each<[boolean, string, string, boolean]>([
    [true, 'shop.com', '', true],
    [true, 'None', 'a.myshopify.com', true],
    [true, 'None', '', false],
    [true, '', '', false],
    [false, 'shop.com', 'a.myshopify.com', false],
  ])('installed=%s domain=%j myshopify=%j → %s', (installed, domain, myshopify, expected) => {
    expect(isStoreConnected({ installed, domain, myshopify })).toBe(expected);
  });
});

const cards: StoreCard[] = [
  deriveStoreCard(
    makeKey({
      id: 1,
      api_key: 'AAA-111',
      pro: true,
      main_url: 'https://Alpha.com',
      myshopify: 'alpha-store.myshopify.com',
    }),
  ),
  deriveStoreCard(makeKey({ id: 2, api_key: 'BBB-222', myshopify: 'beta.myshopify.com' })),
  deriveStoreCard(makeKey({ id: 3, api_key: 'CCC-333', lite: true })),
];

describe('§2 matchesStoreSearch', () => {
  it.each<[string, number[]]>([
    ['', [1, 2, 3]],
    ['   ', [1, 2, 3]],
    ['alpha', [1]],
    ['  ALPHA  ', [1]],
    ['alpha-store', [1]],
    ['myshopify', [1, 2]],
    ['bbb-222', [2]],
    ['lite license', [3]],
    ['none', []],
    ['zzz', []],
  ])('query %j matches ids %j', (query, ids) => {
    expect(cards.filter((c) => matchesStoreSearch(c, query)).map((c) => c.id)).toEqual(ids);
  });
});

describe('§2 filterStoreCards', () => {
  it.each<[string, StoreTypeFilter, number[]]>([
    ['', 'ALL', [1, 2, 3]],
    ['', 'PRO', [1]],
    ['', 'REGULAR', [2]],
    ['', 'LITE', [3]],
    ['myshopify', 'ALL', [1, 2]],
    ['myshopify', 'REGULAR', [2]],
    ['myshopify', 'LITE', []],
  ])('query %j type %s → ids %j', (query, type, ids) => {
    expect(filterStoreCards(cards, { query, type }).map((c) => c.id)).toEqual(ids);
  });
});

describe('§2/§9 paginate', () => {
  const thirteen = Array.from({ length: 13 }, (_, i) => i + 1);
  it('uses a page size of 6', () => {
    expect(KEYS_PAGE_SIZE).toBe(6);
  });
  it.each<[number[], number, number, number[], number, number]>([
    [thirteen, 1, 6, [1, 2, 3, 4, 5, 6], 1, 3],
    [thirteen, 2, 6, [7, 8, 9, 10, 11, 12], 2, 3],
    [thirteen, 3, 6, [13], 3, 3],
    [thirteen, 9, 6, [13], 3, 3],
    [thirteen, 0, 6, [1, 2, 3, 4, 5, 6], 1, 3],
    [thirteen, -4, 6, [1, 2, 3, 4, 5, 6], 1, 3],
    [thirteen, Number.NaN, 6, [1, 2, 3, 4, 5, 6], 1, 3],
    [thirteen, 2.7, 6, [7, 8, 9, 10, 11, 12], 2, 3],
    [[], 1, 6, [], 1, 1],
    [[], 5, 6, [], 1, 1],
    [[1, 2, 3, 4, 5, 6], 2, 6, [1, 2, 3, 4, 5, 6], 1, 1],
    [[1, 2, 3], 2, 0, [2], 2, 3],
  ])('%j page %d size %d → %j (page %d of %d)', (items, page, size, expected, expectedPage, pageCount) => {
    expect(paginate(items, page, size)).toEqual({
      items: expected,
      page: expectedPage,
      pageCount,
    });
  });
});

describe('storeCardLabel: one card named apart from the others', () => {
  it.each<[string, Partial<Key>, string]>([
    ['a connected key: its store', { main_url: 'https://aurora-outfitters.com' }, 'aurora-outfitters'],
    ['a key with no store: its tier and the key', { lite: true, main_url: 'None' }, 'LITE License KEY-0001'],
  ])('%s', (_case, key, label) => {
    expect(storeCardLabel(deriveStoreCard(makeKey(key)))).toBe(label);
  });
});
