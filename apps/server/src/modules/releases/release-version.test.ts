import { describe, expect, it } from 'vitest';
import { compareReleaseVersions, isReleaseVersion, pickLatestRelease } from './release-version';

describe('release versions', () => {
  it.each(['4.2.0', '0.0.1', '10.20.30', '5.0.0-beta.1', '4.2.0+build.7', '1.0.0-rc.1+sha.abc'])('accepts %s', (v) => {
    expect(isReleaseVersion(v)).toBe(true);
  });

  it.each([
    '',
    '4.2',
    'v4.2.0',
    '4.2.0.1',
    '04.2.0',
    '4.2.0-',
    '4.2.0-a..b',
    '4.2.0 ',
    ' 4.2.0',
    '=4.2.0',
    '1.0.0-01',
    '4.2.0+',
    '99999999999999999.0.0',
    '1.2.3/../x',
    '1.0.0-' + 'a'.repeat(30),
  ])('refuses %j', (v) => {
    expect(isReleaseVersion(v)).toBe(false);
  });

  it.each([
    ['4.2.0', '4.10.0', -1],
    ['4.2.1', '4.2.0', 1],
    ['5.0.0-beta.1', '5.0.0', -1],
    ['5.0.0-beta.2', '5.0.0-beta.10', -1],
    ['5.0.0-alpha', '5.0.0-beta', -1],
    ['5.0.0-1', '5.0.0-alpha', -1],
    ['5.0.0-beta', '5.0.0-beta.1', -1],
    ['4.2.0+a', '4.2.0+b', 0],
  ])('orders %s before/after %s (%i)', (a, b, sign) => {
    expect(Math.sign(compareReleaseVersions(a, b))).toBe(sign);
    expect(Math.sign(compareReleaseVersions(b, a))).toBe(-sign || 0);
  });

  it('picks the highest stable version (a pre-release only when alone), the newer upload on a tie', () => {
    const releases = [
      { id: 1, version: '4.2.0' },
      { id: 2, version: '4.10.0' },
      { id: 3, version: '4.3.0' },
      { id: 4, version: '5.0.0-beta.1' },
      { id: 5, version: '4.10.0+rebuild' },
    ];
    expect(pickLatestRelease(releases)?.id).toBe(5);
    expect(pickLatestRelease(releases.slice(0, 3))?.id).toBe(2);
    expect(pickLatestRelease([releases[3]!, { id: 6, version: '5.0.0-beta.2' }])?.id).toBe(6);
    expect(pickLatestRelease([])).toBeNull();
  });
});
