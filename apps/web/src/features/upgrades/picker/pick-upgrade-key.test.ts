import { describe, expect, it } from 'vitest';
import type { Key } from '@keyport/shared/contracts/keys';
import { LITE_KEY, PRO_KEY, REGULAR_KEY } from '../test/fake-api';
import { pickerPath, pickUpgradeKey } from './pick-upgrade-key';

const LITE_2: Key = { ...LITE_KEY, id: 17, api_key: 'LITE-2222-BBBB-CCCC' };

describe('the dashboard picker finds the eligible key (§4)', () => {
  it.each([
    ['lite-to-reg', [LITE_KEY, PRO_KEY], { kind: 'one', key: LITE_KEY, path: 'LITE_TO_REGULAR' }],
    ['lite-to-reg', [REGULAR_KEY, PRO_KEY], { kind: 'none', message: 'No eligible key found for this upgrade' }],
    ['lite-to-reg', [], { kind: 'none', message: 'No eligible key found for this upgrade' }],
    ['lite-to-reg', [PRO_KEY], { kind: 'none', message: 'No upgrade available for your license level' }],
    ['reg-lite-to-pro', [PRO_KEY], { kind: 'none', message: 'No upgrade available for your license level' }],
    ['reg-lite-to-pro', [REGULAR_KEY, PRO_KEY], { kind: 'one', key: REGULAR_KEY, path: 'REGULAR_TO_PRO' }],
    ['reg-lite-to-pro', [LITE_KEY], { kind: 'one', key: LITE_KEY, path: 'LITE_TO_PRO' }],
    ['reg-lite-to-pro', [LITE_KEY, REGULAR_KEY, PRO_KEY], { kind: 'several', keys: [LITE_KEY, REGULAR_KEY] }],
    ['lite-to-reg', [LITE_KEY, LITE_2, REGULAR_KEY], { kind: 'several', keys: [LITE_KEY, LITE_2] }],
  ] as const)('%s with %j', (slug, keys, verdict) => {
    expect(pickUpgradeKey(keys, slug)).toEqual(verdict);
  });

  it('names the path for a key: PRO keys and REGULAR keys for lite-to-reg have none', () => {
    expect(pickerPath(LITE_KEY, 'reg-lite-to-pro')).toBe('LITE_TO_PRO');
    expect(pickerPath(REGULAR_KEY, 'lite-to-reg')).toBeNull();
    expect(pickerPath(PRO_KEY, 'reg-lite-to-pro')).toBeNull();
  });
});
