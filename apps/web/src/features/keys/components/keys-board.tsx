import { KeyRound, Plus, SearchX, ShoppingBag } from 'lucide-react';
import { startTransition, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Key } from '@keyport/shared/contracts/keys';
import { Link } from 'react-router';
import {
  deriveStoreCard,
  filterStoreCards,
  KEYS_PAGE_SIZE,
  paginate,
  type StoreCard,
} from '@keyport/shared/domain/store-card';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { focusedOpener } from '../../../components/ui/dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { Pagination } from '../../../components/ui/pagination';
import { useKeys } from '../api/get-keys';
import { AddKeyDialog } from './add-key-dialog';
import { DisconnectDialog } from './disconnect-dialog';
import { KeyCard } from './key-card';
import { KeyCardSkeleton, KeyGridSkeleton } from './key-grid-skeleton';
import { KeysToolbar } from './keys-toolbar';
import { useBoardParams } from './use-board-params';
import { paths } from '../../../lib/paths';

export const FETCH_KEYS_FAILED = 'Failed to fetch stores. Please try again later.';
/**
 * ADR 045: the cards the first screen of a phone can show. When the keys are there at the first render (the page
 * carried them), the page's other cards are their skeletons (the same size) in that render and come right after the
 * first paint, as a transition: a smaller first render and commit.
 */
export const FIRST_PAINT_CARDS = 2;

interface KeysBoardProps {
  links: { shopUrl: string; productUrl: string } | undefined;
  renderActions?: (card: StoreCard, key: Key) => ReactNode;
  renderUpgrade?: (card: StoreCard, key: Key) => ReactNode;
  /** More buttons after "Add New Key" (the dashboard's upgrade picker; below sm it takes a row of its own). */
  headerActions?: ReactNode;
}

/**
 * §2 keys dashboard: heading, search, type filter, cards, pagination, empty and error states. Search, filter and page
 * live in the URL (`useBoardParams`); a key just added (`?added=<id>`) is shown on its page and highlighted.
 */
export function KeysBoard({ links, renderActions, renderUpgrade, headerActions }: KeysBoardProps) {
  const keys = useKeys();
  const board = useBoardParams();
  const { search, setSearch, query, type, setType, page, setPage } = board;
  const [adding, setAdding] = useState(false);
  const [disconnecting, setDisconnecting] = useState<{ card: StoreCard; opener: HTMLElement | null } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const [allCards, setAllCards] = useState(false);
  useEffect(() => startTransition(() => setAllCards(true)), []);

  const cards = useMemo(() => (keys.data ?? []).map(deriveStoreCard), [keys.data]);
  const keyById = useMemo(() => new Map((keys.data ?? []).map((key) => [key.id, key])), [keys.data]);
  const filtered = useMemo(() => filterStoreCards(cards, { query, type }), [cards, query, type]);
  const current = paginate(filtered, page, KEYS_PAGE_SIZE);

  // A key just added: once the list holds it, its page (without a search or filter that would hide it), highlighted.
  const [highlighted, setHighlighted] = useState<number | null>(null);
  const { added, reveal } = board;
  const revealed = useRef<number | null>(null);
  useEffect(() => {
    if (added === null || !keys.data || revealed.current === added) return;
    const hidden = !filtered.some((card) => card.id === added);
    const list = hidden ? cards : filtered;
    const index = list.findIndex((card) => card.id === added);
    if (index === -1 && keys.isFetching) return; // the refreshed list is on its way
    revealed.current = added;
    setHighlighted(index === -1 ? null : added);
    reveal({ page: Math.floor(Math.max(index, 0) / KEYS_PAGE_SIZE) + 1, clearFilters: hidden && index !== -1 });
  }, [added, keys.data, keys.isFetching, cards, filtered, reveal]);

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
          <Button variant="secondary" onClick={board.clear}>
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
            {current.items.map((card, index) =>
              !allCards && index >= FIRST_PAINT_CARDS ? (
                <li key={card.id} data-testid="key-card-skeleton" aria-hidden="true">
                  <KeyCardSkeleton />
                </li>
              ) : (
                <li key={card.id}>
                  <KeyCard
                    card={card}
                    highlighted={card.id === highlighted}
                    onDisconnect={(disconnected) => setDisconnecting({ card: disconnected, opener: focusedOpener() })}
                    actions={renderActions && keyById.get(card.id) ? renderActions(card, keyById.get(card.id)!) : null}
                    upgrade={renderUpgrade && keyById.get(card.id) ? renderUpgrade(card, keyById.get(card.id)!) : null}
                  />
                </li>
              ),
            )}
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
