/**
 * Which release a merchant's export started from, told by its files: the release whose per-file sha256 manifest
 * has the most files byte-identical to the export's. The version the theme states about itself is only a tie-break
 * (real themes often state an older version than their release). Without a close enough match the caller merges two
 * ways and says so.
 */
import type { ReleaseDetection } from '@keyport/shared/contracts/theme-file-updates';
import type { Tier } from '@keyport/shared/domain/tiers';

export type FileManifest = Readonly<Record<string, string>>;

/** A stored release the export may have started from. */
export interface KnownRelease {
  id: number;
  edition: Tier;
  version: string;
  themeName: string | null;
  manifest: FileManifest;
  /** A local path of the release's zip (fetched only for the detected release). */
  zipPath: () => Promise<string>;
}

/** At least this share of a release's files must be identical in the export to merge three ways against it. */
export const CONFIDENT_SHARE = 0.5;

export interface Detection {
  release: KnownRelease | null;
  identical: number;
  releaseFiles: number;
  exportFiles: number;
  confident: boolean;
  statedVersion: string | null;
}

/**
 * Ranks the releases by identical files; ties go to the release of the stated version, then to the first of
 * `preferredEditions` (the export's own edition first), then to the earlier in `releases` (pass newest first).
 */
export function detectRelease(
  exportManifest: FileManifest,
  releases: readonly KnownRelease[],
  options: { statedVersion: string | null; preferredEditions: readonly Tier[] },
): Detection {
  const exportFiles = Object.keys(exportManifest).length;
  const editionRank = (edition: Tier) => {
    const index = options.preferredEditions.indexOf(edition);
    return index < 0 ? options.preferredEditions.length : index;
  };
  const scored = releases.map((release, index) => ({
    release,
    index,
    identical: identicalFiles(exportManifest, release.manifest),
    files: Object.keys(release.manifest).length,
  }));
  scored.sort(
    (a, b) =>
      b.identical - a.identical ||
      Number(b.release.version === options.statedVersion) - Number(a.release.version === options.statedVersion) ||
      editionRank(a.release.edition) - editionRank(b.release.edition) ||
      a.index - b.index,
  );
  const best = scored[0];
  if (best === undefined) {
    return {
      release: null,
      identical: 0,
      releaseFiles: 0,
      exportFiles,
      confident: false,
      statedVersion: options.statedVersion,
    };
  }
  const confident = best.identical > 0 && best.identical >= best.files * CONFIDENT_SHARE;
  return {
    release: best.release,
    identical: best.identical,
    releaseFiles: best.files,
    exportFiles,
    confident,
    statedVersion: options.statedVersion,
  };
}

function identicalFiles(exportManifest: FileManifest, manifest: FileManifest): number {
  let identical = 0;
  for (const [path, hash] of Object.entries(manifest)) {
    if (Object.hasOwn(exportManifest, path) && exportManifest[path] === hash) identical += 1;
  }
  return identical;
}

/** The report's form: the detected release (null when not confident) and one sentence saying how sure. */
export function detectionReport(detection: Detection): ReleaseDetection {
  const { release, identical, releaseFiles, confident, statedVersion } = detection;
  const name = release ? `${release.themeName ?? 'the theme'} ${release.version} (${release.edition})` : '';
  const stated =
    statedVersion !== null && release !== null && confident && statedVersion !== release.version
      ? ` Your theme states version ${statedVersion}; its files are ${release.version}.`
      : '';
  const summary =
    release === null
      ? 'No stored release to compare your theme with: it was merged with the new version two ways.'
      : confident
        ? `${identical} of ${releaseFiles} files identical to ${name}.${stated}`
        : `No release matches your theme closely enough (the closest: ${identical} of ${releaseFiles} files identical ` +
          `to ${name}): it was merged with the new version two ways.`;
  return {
    release:
      release && confident
        ? { edition: release.edition, version: release.version, theme_name: release.themeName }
        : null,
    identical_files: identical,
    release_files: releaseFiles,
    export_files: detection.exportFiles,
    confident,
    stated_version: statedVersion,
    summary,
  };
}
