import { KeyRound, Plus, SearchX, ShoppingBag } from 'lucide-react';
import { useMemo, useRef, useState, type ReactNode } from 'react';
import type { Key } from '@keyport/shared/contracts/keys';
import { Link } from 'react-router';
import {
  deriveStoreCard,
  filterStoreCards,
  KEYS_PAGE_SIZE,
  paginate,
  type StoreCard,
  type StoreTypeFilter,
} from '@keyport/shared/domain/store-card';
import { SEARCH_DEBOUNCE_MS } from '@keyport/shared/domain/constants';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { focusedOpener } from '../../../components/ui/dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { Pagination } from '../../../components/ui/pagination';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useKeys } from '../api/get-keys';
import { AddKeyDialog } from './add-key-dialog';
import { DisconnectDialog } from './disconnect-dialog';
import { KeyCard } from './key-card';
import { KeyGridSkeleton } from './key-grid-skeleton';
import { KeysToolbar } from './keys-toolbar';
import { paths } from '../../../lib/paths';

export const FETCH_KEYS_FAILED = 'Failed to fetch stores. Please try again later.';

interface KeysBoardProps {
  initialQuery: string;
  links: { shopUrl: string; productUrl: string } | undefined;
  renderActions?: (card: StoreCard, key: Key) => ReactNode;
  renderUpgrade?: (card: StoreCard, key: Key) => ReactNode;
  /** More buttons after "Add New Key" (the dashboard's upgrade picker; below sm it takes a row of its own). */
  headerActions?: ReactNode;
}

/** §2 keys dashboard: heading, search, type filter, cards, pagination, empty and error states. */
export function KeysBoard({ initialQuery, links, renderActions, renderUpgrade, headerActions }: KeysBoardProps) {
  const keys = useKeys();
  const [search, setSearch] = useState(initialQuery);
  const [type, setType] = useState<StoreTypeFilter>('ALL');
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const [disconnecting, setDisconnecting] = useState<{ card: StoreCard; opener: HTMLElement | null } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const query = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);

  const cards = useMemo(() => (keys.data ?? []).map(deriveStoreCard), [keys.data]);
  const keyById = useMemo(() => new Map((keys.data ?? []).map((key) => [key.id, key])), [keys.data]);
  const filtered = useMemo(() => filterStoreCards(cards, { query, type }), [cards, query, type]);
  const current = paginate(filtered, page, KEYS_PAGE_SIZE);

  // §4: the page resets to 1 when the search or the filter changes.
  const [lastFilter, setLastFilter] = useState({ query, type });
  if (lastFilter.query !== query || lastFilter.type !== type) {
    setLastFilter({ query, type });
    setPage(1);
  }

  return (
    <section aria-labelledby="keys-heading" className="space-y-5">
      {/* Below sm the buttons have a row of their own from the start: "Get More Keys", which arrives with the
          configuration, then moves nothing. */}
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between">
        <h1
          id="keys-heading"
          ref={heading}
          tabIndex={-1}
          className="text-2xl font-semibold tracking-tight text-slate-900 focus:outline-none"
        >
          Keys
        </h1>
        <div className="flex flex-wrap gap-2">
          {links ? (
            <Button asChild variant="secondary">
              <a href={links.productUrl} target="_blank" rel="noreferrer">
                <ShoppingBag aria-hidden="true" className="size-4" />
                Get More Keys
              </a>
            </Button>
          ) : null}
          <Button onClick={() => setAdding(true)}>
            <Plus aria-hidden="true" className="size-4" />
            Add New Key
          </Button>
          {headerActions}
        </div>
      </div>

      <KeysToolbar search={search} onSearchChange={setSearch} type={type} onTypeChange={setType} />

      {keys.isPending ? (
        <KeyGridSkeleton />
      ) : keys.isError ? (
        <Alert className="flex flex-wrap items-center justify-between gap-3">
          <span>{FETCH_KEYS_FAILED}</span>
          <Button size="sm" variant="secondary" onClick={() => void keys.refetch()} disabled={keys.isFetching}>
            Try again
          </Button>
        </Alert>
      ) : cards.length === 0 ? (
        <EmptyState icon={<KeyRound className="size-10" />} title="No Keys Found" text="Add a key to get started">
          <Button asChild>
            <Link to={paths.onboarding}>Add Key</Link>
          </Button>
          {links ? (
            <Button asChild variant="secondary">
              <a href={links.shopUrl} target="_blank" rel="noreferrer">
                Buy a license
              </a>
            </Button>
          ) : null}
        </EmptyState>
      ) : filtered.length === 0 ? (
        <EmptyState icon={<SearchX className="size-10" />} title="No Results Found" text="No stores match the search">
          <Button
            variant="secondary"
            onClick={() => {
              setSearch('');
              setType('ALL');
            }}
          >
            Clear search
          </Button>
          <Button onClick={() => setAdding(true)}>Add New Key</Button>
        </EmptyState>
      ) : (
        <>
          <p className="sr-only" aria-live="polite">
            {filtered.length} {filtered.length === 1 ? 'key' : 'keys'} found
          </p>
          <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 2xl:grid-cols-3">
            {current.items.map((card) => (
              <li key={card.id}>
                <KeyCard
                  card={card}
                  onDisconnect={(disconnected) => setDisconnecting({ card: disconnected, opener: focusedOpener() })}
                  actions={renderActions && keyById.get(card.id) ? renderActions(card, keyById.get(card.id)!) : null}
                  upgrade={renderUpgrade && keyById.get(card.id) ? renderUpgrade(card, keyById.get(card.id)!) : null}
                />
              </li>
            ))}
          </ul>
          <Pagination page={current.page} pageCount={current.pageCount} onPageChange={setPage} />
        </>
      )}

      <AddKeyDialog open={adding} onOpenChange={setAdding} />
      <DisconnectDialog
        apiKey={disconnecting?.card.api_key ?? null}
        storeName={disconnecting?.card.name ?? ''}
        onOpenChange={(open) => (open ? undefined : setDisconnecting(null))}
        opener={disconnecting?.opener}
        // The card has gone with its menu: focus goes to the list's heading.
        fallbackFocus={() => heading.current}
      />
    </section>
  );
}
