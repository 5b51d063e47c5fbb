import { describe, expect, it } from 'vitest';
import type { Key } from '@keyport/shared/contracts/keys';
import { flagsFromTier, TIERS, type Tier } from '@keyport/shared/domain/tiers';
import { THEME_FILE_UPDATE_MESSAGES } from '../messages';
import {
  chooseSource,
  compareVersions,
  higherTiersOwned,
  proAvailability,
  routeThemeFileUpdate,
  type ThemeFileUpdateRoute,
} from './route-theme-file-update';

let nextId = 1;
const key = (tier: Tier, connected = false): Key => ({
  id: nextId++,
  api_key: `${tier}-${nextId}`,
  ...flagsFromTier(tier),
  linked_app_store: null,
  main_url: connected ? 'shop.example' : null,
  myshopify: null,
  secondary_url: null,
});

/** Every subset of the tiers the person owns besides the card. */
const SUBSETS: Tier[][] = [
  [],
  ['LITE'],
  ['REGULAR'],
  ['PRO'],
  ['LITE', 'REGULAR'],
  ['LITE', 'PRO'],
  ['REGULAR', 'PRO'],
  ['LITE', 'REGULAR', 'PRO'],
];

/** The expected route, written out from §4 for each card tier and set of other owned tiers. */
function expected(tier: Tier, owned: Tier[]): string {
  const reg = owned.includes('REGULAR');
  const pro = owned.includes('PRO');
  if (tier === 'PRO') return 'check-availability';
  if (tier === 'REGULAR') return pro ? 'chooser:PRO' : 'page:lite-to-reg:self';
  if (reg && pro) return 'chooser:REGULAR,PRO';
  if (pro) return 'page:lite-to-pro:PRO';
  if (reg) return 'page:lite-to-reg:REGULAR';
  return `error:${THEME_FILE_UPDATE_MESSAGES.noHigherTier}`;
}

function describeRoute(route: ThemeFileUpdateRoute, card: Key): string {
  switch (route.kind) {
    case 'page':
      return `page:${route.slug}:${route.target.id === card.id ? 'self' : TIERS.find((t) => flagsFromTier(t).pro === route.target.pro && flagsFromTier(t).lite === route.target.lite)}`;
    case 'chooser':
      return `chooser:${route.tiers.join(',')}`;
    case 'error':
      return `error:${route.message}`;
    default:
      return route.kind;
  }
}

describe('routeThemeFileUpdate (§4, every tier × owned licenses)', () => {
  for (const tier of TIERS) {
    for (const owned of SUBSETS) {
      it(`${tier} card, also owning [${owned.join(', ') || 'nothing'}] → ${expected(tier, owned)}`, () => {
        const card = key(tier, true);
        const keys = [card, ...owned.map((t) => key(t))];
        const route = routeThemeFileUpdate(card, keys);
        expect(describeRoute(route, card)).toBe(expected(tier, owned));
        if (route.kind !== 'error') expect(route.source).toBe(card);
      });
    }
  }

  it('a second key of the same tier is not a higher-tier license', () => {
    const card = key('LITE');
    expect(routeThemeFileUpdate(card, [card, key('LITE')])).toEqual({
      kind: 'error',
      message: THEME_FILE_UPDATE_MESSAGES.noHigherTier,
    });
  });

  it('prefers a free key of the target tier to one that already runs a store', () => {
    const card = key('LITE', true);
    const busy = key('REGULAR', true);
    const free = key('REGULAR', false);
    const route = routeThemeFileUpdate(card, [card, busy, free]);
    expect(route.kind === 'page' && route.target).toBe(free);
  });
});

describe('higherTiersOwned (§5 theme upgrade source)', () => {
  it('lists only tiers above the card, from the other keys', () => {
    const card = key('REGULAR');
    expect(higherTiersOwned([card, key('LITE'), key('REGULAR'), key('PRO')], card)).toEqual(['PRO']);
    expect(higherTiersOwned([card, key('LITE')], card)).toEqual([]);
  });
});

describe('chooseSource (§8 chooser messages)', () => {
  const card = key('LITE');
  const regular = key('REGULAR');
  const pro = key('PRO');
  it('nothing selected → Please select a license type…', () => {
    expect(chooseSource(card, [card, regular, pro], null)).toEqual({
      kind: 'error',
      message: 'Please select a license type to upgrade your theme from.',
    });
  });
  it('a tier with no key, or not higher → Could not find a valid source license…', () => {
    const message = 'Could not find a valid source license for the selected type.';
    expect(chooseSource(card, [card, regular], 'PRO')).toEqual({ kind: 'error', message });
    expect(chooseSource(card, [card, key('LITE')], 'LITE')).toEqual({ kind: 'error', message });
  });
  it('REGULAR → lite-to-reg, PRO → lite-to-pro (from LITE) and reg-lite-to-pro (from REGULAR)', () => {
    expect(chooseSource(card, [card, regular, pro], 'REGULAR')).toMatchObject({ slug: 'lite-to-reg', target: regular });
    expect(chooseSource(card, [card, regular, pro], 'PRO')).toMatchObject({ slug: 'lite-to-pro', target: pro });
    expect(chooseSource(regular, [card, regular, pro], 'PRO')).toMatchObject({ slug: 'reg-lite-to-pro', target: pro });
  });
});

describe('PRO availability', () => {
  it('a newer PRO release → update; the same or older → No upgrade available…', () => {
    expect(proAvailability('2.1.0', '2.0.0')).toEqual({ kind: 'update' });
    expect(proAvailability('2.10.0', '2.9.3')).toEqual({ kind: 'update' });
    expect(proAvailability('2.1.0', null)).toEqual({ kind: 'update' });
    expect(proAvailability('2.1.0', '2.1.0')).toEqual({
      kind: 'error',
      message: 'No upgrade available for your license level',
    });
    expect(proAvailability('2.1.0', '2.2')).toMatchObject({ kind: 'error' });
  });
  it('compareVersions is numeric per part', () => {
    expect(compareVersions('1.10', '1.9')).toBe(1);
    expect(compareVersions('v1.0.0', '1')).toBe(0);
    expect(compareVersions('1.0.1', '1.0.2')).toBe(-1);
  });
});
