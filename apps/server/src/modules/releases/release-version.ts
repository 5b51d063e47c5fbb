/** Release versions: semantic versions (`4.2.0`, `5.0.0-beta.1`, `4.2.0+build.7`) of at most 32 characters. */
const IDENTIFIER = '[0-9A-Za-z-]+';
const SEMVER = new RegExp(
  `^(0|[1-9]\\d{0,8})\\.(0|[1-9]\\d{0,8})\\.(0|[1-9]\\d{0,8})(?:-(${IDENTIFIER}(?:\\.${IDENTIFIER})*))?(?:\\+${IDENTIFIER}(?:\\.${IDENTIFIER})*)?$`,
);
export const MAX_VERSION_LENGTH = 32;

export function isReleaseVersion(version: string): boolean {
  return version.length <= MAX_VERSION_LENGTH && SEMVER.test(version);
}

/**
 * Semantic-version precedence: negative when `a` comes before `b`. A pre-release comes before its release; build
 * metadata is ignored. Only for versions that pass `isReleaseVersion`.
 */
export function compareReleaseVersions(a: string, b: string): number {
  const left = SEMVER.exec(a);
  const right = SEMVER.exec(b);
  if (!left || !right) throw new RangeError(`Not a release version: ${left ? b : a}`);
  for (let part = 1; part <= 3; part += 1) {
    const difference = Number(left[part]) - Number(right[part]);
    if (difference !== 0) return difference;
  }
  return comparePreRelease(left[4], right[4]);
}

function comparePreRelease(a: string | undefined, b: string | undefined): number {
  if (a === undefined || b === undefined) return (a === undefined ? 1 : 0) - (b === undefined ? 1 : 0);
  const left = a.split('.');
  const right = b.split('.');
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const x = left[index];
    const y = right[index];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const difference = compareIdentifier(x, y);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** Numeric identifiers compare as numbers and before alphanumeric ones; others compare as ASCII. */
function compareIdentifier(a: string, b: string): number {
  const aNumeric = /^\d+$/.test(a);
  const bNumeric = /^\d+$/.test(b);
  if (aNumeric && bNumeric) return Number(a) - Number(b);
  if (aNumeric !== bNumeric) return aNumeric ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The release customers get, from an edition's releases in upload order: the highest stable version (a pre-release
 * only when there is nothing else), the newer upload on a tie; null for none.
 */
export function pickLatestRelease<R extends { version: string }>(releases: readonly R[]): R | null {
  const valid = releases.filter((release) => isReleaseVersion(release.version));
  const stable = valid.filter((release) => !isPreRelease(release.version));
  let latest: R | null = null;
  for (const release of stable.length > 0 ? stable : valid) {
    if (latest === null || compareReleaseVersions(release.version, latest.version) >= 0) latest = release;
  }
  return latest;
}

function isPreRelease(version: string): boolean {
  return SEMVER.exec(version)?.[4] !== undefined;
}
