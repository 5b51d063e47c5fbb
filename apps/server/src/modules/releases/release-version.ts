import semver from 'semver';

/**
 * Release versions: semantic versions (`4.2.0`, `5.0.0-beta.1`, `4.2.0+build.7`) of at most 32 characters, parsed and
 * ordered by the `semver` package (ADR 043).
 */
export const MAX_VERSION_LENGTH = 32;

/**
 * A strict semantic version written as SemVer 2.0 writes it: no `v` or `=` in front, no spaces, no leading zeros
 * (`semver` alone would accept `v4.2.0` or ` 4.2.0` and give back `4.2.0`).
 */
export function isReleaseVersion(version: string): boolean {
  if (version.length > MAX_VERSION_LENGTH) return false;
  const parsed = semver.parse(version);
  if (!parsed) return false;
  const written = parsed.build.length > 0 ? `${parsed.version}+${parsed.build.join('.')}` : parsed.version;
  return written === version;
}

/**
 * Semantic-version precedence: negative when `a` comes before `b`. A pre-release comes before its release; build
 * metadata is ignored. Only for versions that pass `isReleaseVersion`.
 */
export function compareReleaseVersions(a: string, b: string): number {
  return semver.compare(a, b);
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
  return semver.prerelease(version) !== null;
}
