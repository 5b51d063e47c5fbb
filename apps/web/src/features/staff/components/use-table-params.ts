import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export type SortDirection = 'asc' | 'desc';
export interface TableSort {
  column: string;
  direction: SortDirection;
}

/** URL search params a table owns besides its filters. */
const CURSOR = 'cursor';
const PREVIOUS = 'prev';
const SORT = 'sort';
const ORDER = 'order';

/** Newest first by creation, the staff lists' default; the Created column toggles it (`?sort=created&order=asc`). */
export const NEWEST_FIRST: TableSort = { column: 'created', direction: 'desc' };

/** The `order` a staff list call takes from the table's sort: only `asc` is sent (newest first is the default). */
export function createdOrder(sort: TableSort | null): { order?: 'asc' } {
  return sort?.column === 'created' && sort.direction === 'asc' ? { order: 'asc' } : {};
}

export interface TableParams<F extends string> {
  /** The filters' values from the URL (absent or empty → undefined). */
  filters: Record<F, string | undefined>;
  /** Sets some filters (an empty value removes one) and goes back to the first page. */
  setFilters: (next: Partial<Record<F, string | undefined>>) => void;
  sort: TableSort | null;
  /** Sorts by `column`: ascending first, descending on a second click; back to the first page. */
  toggleSort: (column: string) => void;
  /** The server's cursor of the page shown (undefined: the first page). */
  cursor: string | undefined;
  /** Goes to the page that starts at `nextCursor` (the server's cursor for the page after this one). */
  next: (nextCursor: string) => void;
  hasPrevious: boolean;
  previous: () => void;
}

/**
 * A table's state, held in the URL so a page can be reloaded, shared and navigated with Back: `?<filter>=…`,
 * `?sort=<column>&order=asc|desc`, and cursor paging, `?cursor=<this page>&prev=<first page>&prev=<second page>…`
 * (the cursors of the pages before, so Previous needs no extra call; the first page's cursor is the empty string).
 * Changing a filter or the sort starts again at the first page. Every change is a new history entry.
 */
export function useTableParams<F extends string>({
  filters: names,
  defaultSort = null,
}: {
  filters: readonly F[];
  defaultSort?: TableSort | null;
}): TableParams<F> {
  const [searchParams, setSearchParams] = useSearchParams();
  const key = names.join(',');

  const filters = useMemo(() => {
    const values = {} as Record<F, string | undefined>;
    for (const name of key.split(',') as F[]) values[name] = searchParams.get(name) || undefined;
    return values;
  }, [searchParams, key]);

  const sortColumn = searchParams.get(SORT);
  const sort: TableSort | null = sortColumn
    ? { column: sortColumn, direction: searchParams.get(ORDER) === 'desc' ? 'desc' : 'asc' }
    : defaultSort;

  const update = useCallback(
    (change: (params: URLSearchParams) => void) =>
      setSearchParams((current) => {
        const params = new URLSearchParams(current);
        change(params);
        return params;
      }),
    [setSearchParams],
  );
  const firstPage = (params: URLSearchParams) => {
    params.delete(CURSOR);
    params.delete(PREVIOUS);
  };

  return {
    filters,
    setFilters: (next) =>
      update((params) => {
        for (const [name, value] of Object.entries(next) as [string, string | undefined][]) {
          const trimmed = value?.trim();
          if (trimmed) params.set(name, trimmed);
          else params.delete(name);
        }
        firstPage(params);
      }),
    sort,
    toggleSort: (column) =>
      update((params) => {
        const direction = sort?.column === column && sort.direction === 'asc' ? 'desc' : 'asc';
        params.set(SORT, column);
        params.set(ORDER, direction);
        firstPage(params);
      }),
    cursor: searchParams.get(CURSOR) || undefined,
    next: (nextCursor) =>
      update((params) => {
        params.append(PREVIOUS, params.get(CURSOR) ?? '');
        params.set(CURSOR, nextCursor);
      }),
    hasPrevious: searchParams.has(CURSOR),
    previous: () =>
      update((params) => {
        const trail = params.getAll(PREVIOUS);
        const before = trail.pop();
        params.delete(PREVIOUS);
        for (const cursor of trail) params.append(PREVIOUS, cursor);
        if (before) params.set(CURSOR, before);
        else params.delete(CURSOR);
      }),
  };
}
