import { useMemo } from 'react';
import { deriveStoreCard } from '@keyport/shared/domain/store-card';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { useKeys } from '../../features/keys/api/get-keys';
import { KeyCard } from '../../features/keys/components/key-card';

export function MyKeysPage() {
  const keys = useKeys();
  const cards = useMemo(() => (keys.data ?? []).map(deriveStoreCard), [keys.data]);

  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Keys</h1>
      <div className="mt-6">
        {keys.isPending ? (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Loading keys">
            {Array.from({ length: 6 }, (_, i) => (
              <li key={i}>
                <Skeleton className="h-44 rounded-xl" />
              </li>
            ))}
          </ul>
        ) : keys.isError ? (
          <Alert className="flex items-center justify-between gap-3">
            <span>Failed to fetch stores. Please try again later.</span>
            <Button size="sm" variant="secondary" onClick={() => void keys.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : cards.length === 0 ? (
          <div className="rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center">
            <h2 className="text-lg font-semibold">No Keys Found</h2>
            <p className="mt-1 text-slate-600">Add a key to get started</p>
          </div>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {cards.map((card) => (
              <li key={card.id}>
                <KeyCard card={card} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
