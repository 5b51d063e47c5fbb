import { describe, expect, it } from 'vitest';
import {
  redeemTokenLiteToPro,
  redeemTokenToPro,
  redeemTokenToRegular,
  UpgradeOptionSchema,
  UpgradePathSchema,
} from '../contracts/upgrades';
import { TIERS, tierRank, type Tier } from './tiers';
import {
  dashboardPickerSlug,
  DEFAULT_UPGRADE_PRICES_CENTS,
  findUpgradePath,
  isUpgradePath,
  TOKEN_REDEEM_ROUTE,
  tokenRedeemedMessage,
  UPDATE_THEME_FILES_PATH,
  UPGRADE_PATH_TIERS,
  UPGRADE_PATHS,
  upgradePathLabel,
  upgradePathsFrom,
  upgradeThemeFilesPath,
  type UpgradePath,
} from './upgrade-paths';

describe('§4 upgrade paths', () => {
  it('are LITE to REGULAR, REGULAR to PRO, LITE to PRO, in that order', () => {
    expect(UPGRADE_PATHS).toEqual(['LITE_TO_REGULAR', 'REGULAR_TO_PRO', 'LITE_TO_PRO']);
    expect(UPGRADE_PATHS.map((p) => [UPGRADE_PATH_TIERS[p].from, UPGRADE_PATH_TIERS[p].to])).toEqual([
      ['LITE', 'REGULAR'],
      ['REGULAR', 'PRO'],
      ['LITE', 'PRO'],
    ]);
  });

  it('each goes to a higher tier', () => {
    for (const p of UPGRADE_PATHS) {
      expect(tierRank(UPGRADE_PATH_TIERS[p].to)).toBeGreaterThan(tierRank(UPGRADE_PATH_TIERS[p].from));
    }
  });

  it('are the contract enum', () => {
    expect(UpgradePathSchema.options).toEqual([...UPGRADE_PATHS]);
  });

  it.each<[Tier, UpgradePath[]]>([
    ['LITE', ['LITE_TO_REGULAR', 'LITE_TO_PRO']],
    ['REGULAR', ['REGULAR_TO_PRO']],
    ['PRO', []],
  ])('a %s key can take %j', (tier, paths) => {
    expect(upgradePathsFrom(tier)).toEqual(paths);
  });

  it('isUpgradePath accepts the three names only', () => {
    for (const p of UPGRADE_PATHS) expect(isUpgradePath(p)).toBe(true);
    for (const v of ['lite_to_regular', 'LITE_TO_LITE', '', 'PRO', null, 1, undefined]) {
      expect(isUpgradePath(v)).toBe(false);
    }
  });
});

describe('§9 default prices', () => {
  it('are $120, $220 and $320 in cents', () => {
    expect(DEFAULT_UPGRADE_PRICES_CENTS).toEqual({ LITE_TO_REGULAR: 12000, REGULAR_TO_PRO: 22000, LITE_TO_PRO: 32000 });
  });
});

describe('findUpgradePath(from, theme_type)', () => {
  const expected: Record<string, UpgradePath> = {
    'LITE>REGULAR': 'LITE_TO_REGULAR',
    'REGULAR>PRO': 'REGULAR_TO_PRO',
    'LITE>PRO': 'LITE_TO_PRO',
  };
  for (const from of TIERS) {
    for (const to of TIERS) {
      it(`${from} → ${to}`, () => {
        expect(findUpgradePath(from, to)).toBe(expected[`${from}>${to}`] ?? null);
      });
    }
  }

  it.each(['regular', 'Pro', ' PRO', 'PRO ', '', 'ENTERPRISE', 'LITE_TO_PRO', 'toString', '__proto__'])(
    'refuses %j',
    (to) => {
      expect(findUpgradePath('LITE', to)).toBeNull();
    },
  );
});

describe('labels, routes and the success screen', () => {
  it.each<[UpgradePath, string, string, string, string, string]>([
    [
      'LITE_TO_REGULAR',
      'LITE to REGULAR',
      'lite-to-reg',
      '/customer/upgrade_file/lite-to-reg',
      '/keys/upgrade/regular',
      'Successfully upgraded LITE to REGULAR!',
    ],
    [
      'REGULAR_TO_PRO',
      'REGULAR to PRO',
      'reg-lite-to-pro',
      '/customer/upgrade_file/reg-lite-to-pro',
      '/keys/upgrade/pro',
      'Successfully upgraded REGULAR to PRO!',
    ],
    [
      'LITE_TO_PRO',
      'LITE to PRO',
      'reg-lite-to-pro',
      '/customer/upgrade_file/reg-lite-to-pro',
      '/keys/upgrade/l2p',
      'Successfully upgraded LITE to PRO!',
    ],
  ])('%s', (path, label, slug, filesPath, route, toast) => {
    expect(upgradePathLabel(path)).toBe(label);
    expect(dashboardPickerSlug(path)).toBe(slug);
    expect(upgradeThemeFilesPath(path)).toBe(filesPath);
    expect(TOKEN_REDEEM_ROUTE[path]).toBe(route);
    expect(tokenRedeemedMessage(path)).toBe(toast);
  });

  it("'Upgrade Theme Files' without a path goes to /customer/update_file", () => {
    expect(UPDATE_THEME_FILES_PATH).toBe('/customer/update_file');
    expect(upgradeThemeFilesPath(null)).toBe('/customer/update_file');
  });

  it('slugs are the contract enum of upgrade_path', () => {
    const slugs = new Set(UPGRADE_PATHS.map(dashboardPickerSlug));
    expect([...slugs].sort()).toEqual([...UpgradeOptionSchema.shape.upgrade_path.options].sort());
  });

  it('redeem routes are the contracts’ paths', () => {
    expect(TOKEN_REDEEM_ROUTE).toEqual({
      LITE_TO_REGULAR: redeemTokenToRegular.path,
      REGULAR_TO_PRO: redeemTokenToPro.path,
      LITE_TO_PRO: redeemTokenLiteToPro.path,
    });
  });
});
