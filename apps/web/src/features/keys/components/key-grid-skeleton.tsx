import { KEYS_PAGE_SIZE } from '@keyport/shared/domain/store-card';
import { Skeleton } from '../../../components/ui/skeleton';
import { cn } from '../../../lib/cn';

/** A line of text of the given height (its line-height), with a placeholder bar in it. */
function Line({ height, width }: { height: string; width: string }) {
  return (
    <div className={cn('flex items-center', height)}>
      <Skeleton className={cn('h-3', width)} />
    </div>
  );
}

/**
 * A card while the keys load: the key card's own frame and rows (name, domain, key, status, actions) at their
 * heights, so the loaded cards take the same room and nothing on the page moves (no layout shift).
 */
export function KeyCardSkeleton() {
  return (
    <div className="flex h-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
      <div className="h-1.5 bg-slate-200" />
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0 flex-1">
            <Line height="h-6" width="w-36" />
            <Line height="h-5" width="w-48" />
          </div>
          <Skeleton className="h-5 w-14 rounded-full" />
        </div>
        <div>
          <Line height="h-4" width="w-20" />
          <Line height="h-8" width="w-60" />
        </div>
        <div className="mt-auto flex items-center justify-between gap-2 pt-1">
          <Line height="h-5" width="w-24" />
          <Line height="h-5" width="w-14" />
        </div>
        <div className="flex gap-2 border-t border-slate-100 pt-3">
          <Skeleton className="h-8 w-32 rounded-lg" />
          <Skeleton className="h-8 w-28 rounded-lg" />
        </div>
      </div>
    </div>
  );
}

/** §9: the loading skeleton shows 6 cards. */
export function KeyGridSkeleton() {
  return (
    <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 2xl:grid-cols-3" aria-label="Loading keys" aria-busy="true">
      {Array.from({ length: KEYS_PAGE_SIZE }, (_, i) => (
        <li key={i} data-testid="key-card-skeleton" aria-hidden="true">
          <KeyCardSkeleton />
        </li>
      ))}
    </ul>
  );
}
