import { Activity, ArrowUpCircle, TriangleAlert } from 'lucide-react';
import type { KeyHealth } from '@keyport/shared/contracts/licenses';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatDateTime, formatTimeAgo } from '../../../lib/format-time-ago';
import { useKeysHealth } from '../api/get-keys-health';

/** The texts of the card's license health (ADR 033), in one place for the card and its tests. */
export const HEALTH_TEXT = {
  /** The panel's region name: one per card, so each is told apart (ADR 042). */
  region: (card: string) => `License health of ${card}`,
  notSeen: 'No check-in yet',
  notSeenHint: 'The theme checks in once it runs on your store with its token.',
  unavailable: 'License health is unavailable right now.',
  checkedIn: (ago: string) => `Checked in ${ago}`,
  version: (version: string) => `Version ${version}`,
  latest: 'latest',
  updateAvailable: (version: string) => `Update available: ${version}`,
  mismatch: (domain: string) => `This token was seen on ${domain}, which this key does not cover.`,
  mismatchDetail: (ago: string, checkins: number) =>
    `Last seen ${ago}, ${checkins} check-in${checkins === 1 ? '' : 's'}. If that store is not yours, generate a new token in Edit Connection.`,
} as const;

/**
 * Issue 13: what the portal has seen of this key's theme in the wild. Two lines are always kept (skeleton while
 * loading, the same two lines after), so the card does not move when the answer arrives; a mismatch adds a warning.
 */
export function KeyHealthPanel({ keyId, cardLabel, now }: { keyId: number; cardLabel: string; now?: Date }) {
  const health = useKeysHealth();
  return (
    <section aria-label={HEALTH_TEXT.region(cardLabel)} className="min-h-10 text-sm" data-testid="key-health">
      {health.isPending ? (
        <div aria-busy="true">
          <div className="flex h-5 items-center">
            <Skeleton className="h-3 w-40" />
          </div>
          <div className="flex h-5 items-center">
            <Skeleton className="h-3 w-52" />
          </div>
        </div>
      ) : health.isError ? (
        <p className="flex min-h-10 items-start gap-1.5 text-slate-500">
          <Activity aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {HEALTH_TEXT.unavailable}
        </p>
      ) : (
        <HealthLines health={health.data.find((h) => h.key_id === keyId)} now={now} />
      )}
    </section>
  );
}

function HealthLines({ health, now }: { health: KeyHealth | undefined; now: Date | undefined }) {
  const latest = health?.latest_version ?? null;
  return (
    <>
      {health?.last_checkin_at ? (
        <>
          <p className="flex h-5 items-center gap-1.5 text-slate-700">
            <Activity aria-hidden="true" className="size-4 shrink-0 text-emerald-600" />
            <time
              dateTime={health.last_checkin_at}
              title={`${formatDateTime(health.last_checkin_at)}${health.domain ? ` on ${health.domain}` : ''}`}
            >
              {HEALTH_TEXT.checkedIn(formatTimeAgo(health.last_checkin_at, now))}
            </time>
          </p>
          <p className="flex min-h-5 flex-wrap items-center gap-x-1.5 text-slate-600">
            {health.theme_version ? (
              <span>
                {HEALTH_TEXT.version(health.theme_version)}
                {!health.update_available && health.theme_version === latest ? ` (${HEALTH_TEXT.latest})` : ''}
              </span>
            ) : null}
            {health.update_available && latest ? (
              <span className="flex items-center gap-1 font-medium text-brand-700">
                <ArrowUpCircle aria-hidden="true" className="size-4 shrink-0" />
                {HEALTH_TEXT.updateAvailable(latest)}
              </span>
            ) : null}
          </p>
        </>
      ) : (
        <>
          <p className="flex h-5 items-center gap-1.5 text-slate-600">
            <Activity aria-hidden="true" className="size-4 shrink-0 text-slate-400" />
            {HEALTH_TEXT.notSeen}
          </p>
          <p className="min-h-5 text-xs/5 text-slate-500">{HEALTH_TEXT.notSeenHint}</p>
        </>
      )}
      {health?.mismatch ? (
        <div
          role="note"
          className="mt-2 flex gap-2 rounded-lg border border-amber-200 bg-amber-50 p-2.5 text-amber-900"
        >
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-600" />
          <div className="min-w-0">
            <p className="font-medium wrap-anywhere">{HEALTH_TEXT.mismatch(health.mismatch.domain)}</p>
            <p className="text-xs text-amber-800">
              {HEALTH_TEXT.mismatchDetail(formatTimeAgo(health.mismatch.last_seen_at, now), health.mismatch.checkins)}
            </p>
          </div>
        </div>
      ) : null}
    </>
  );
}
