import { KEYS_PAGE_SIZE } from '@keyport/shared/domain/store-card';
import { Skeleton } from '../../../components/ui/skeleton';

/** §9: the loading skeleton shows 6 cards. */
export function KeyGridSkeleton() {
  return (
    <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 2xl:grid-cols-3" aria-label="Loading keys" aria-busy="true">
      {Array.from({ length: KEYS_PAGE_SIZE }, (_, i) => (
        <li key={i} data-testid="key-card-skeleton">
          <Skeleton className="h-52 rounded-xl" />
        </li>
      ))}
    </ul>
  );
}
