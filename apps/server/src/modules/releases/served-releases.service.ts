import type { Tier } from '@keyport/shared/domain/tiers';
import type { DbOrTx } from '../../db/client';
import { compareReleaseVersions, isReleaseVersion, pickLatestRelease } from './release-version';
import * as repo from './releases.repo';

/**
 * Which release each edition's customers get, read only: the part of the releases module that the licenses module
 * needs (key health). Built before the licenses service and handed to it, while the releases service is built after
 * the licenses service (it needs its check-in evidence): construction is one way, with no callback set later (issue
 * 21; it was a late-bound `checkinEvidence` in services.ts).
 */
export function createServedReleases(deps: { db: DbOrTx }) {
  const { db } = deps;
  return {
    /** The release an edition's customers get (the one staff made current, else the newest version), or null. */
    async findServedRelease(edition: Tier): Promise<repo.ReleaseRow | null> {
      const [rows, currentId] = await Promise.all([
        repo.listEditionReleases(db, edition),
        repo.findCurrentReleaseId(db, edition),
      ]);
      return rows.find((row) => row.id === currentId) ?? pickLatestRelease(rows) ?? null;
    },

    /**
     * Issue 13 (key health): true when `running` is an older release than `latest` (semantic-version precedence);
     * false when either is not a release version (a theme reporting something else is never told to update).
     */
    isOlderVersion(running: string, latest: string): boolean {
      if (!isReleaseVersion(running) || !isReleaseVersion(latest)) return false;
      return compareReleaseVersions(running, latest) < 0;
    },
  };
}
export type ServedReleases = ReturnType<typeof createServedReleases>;
