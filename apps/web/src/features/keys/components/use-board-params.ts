import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { SEARCH_DEBOUNCE_MS } from '@keyport/shared/domain/constants';
import type { StoreTypeFilter } from '@keyport/shared/domain/store-card';
import { isTier } from '@keyport/shared/domain/tiers';
import { useDebouncedValue } from '../../../lib/use-debounced-value';

/** `?page=` as a page number: a whole number from 1, anything else is the first page. */
const pageOf = (value: string | null) => (value && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 1);
const keyIdOf = (value: string | null) => (value && /^\d{1,12}$/.test(value) ? Number(value) : null);
const typeOf = (value: string | null): StoreTypeFilter => (value && isTier(value) ? value : 'ALL');

/**
 * The dashboard's view in the URL (ADR 042): `?q=` the search (§2, debounced 300 ms), `?type=` the filter and
 * `?page=` the page, so a reload, Back from a key's page or a return from PayPal shows the same cards. Search and
 * filter replace the history entry and start at page 1 (§4); a page is a step of its own (Back returns to it).
 */
export function useBoardParams() {
  const [params, setParams] = useSearchParams();
  const urlQuery = params.get('q') ?? '';
  const type = typeOf(params.get('type'));
  const page = pageOf(params.get('page'));

  // The box shows what is typed at once; the list and the URL follow the debounced text.
  const [search, setSearch] = useState(urlQuery);
  const query = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  // The URL changed under the box (Back, Forward, a link; not the box's own debounced write): the box follows it.
  const ownWrite = useRef<string | null>(null);
  const [seenUrlQuery, setSeenUrlQuery] = useState(urlQuery);
  if (urlQuery !== seenUrlQuery) {
    setSeenUrlQuery(urlQuery);
    if (urlQuery !== ownWrite.current) setSearch(urlQuery);
  }
  const urlQueryNow = useRef(urlQuery);
  urlQueryNow.current = urlQuery;
  // Only a new debounced text writes the URL (setParams changes with every URL: it must not write the old text back).
  const debounced = useRef(query);
  useEffect(() => {
    if (query === debounced.current) return;
    debounced.current = query;
    if (query === urlQueryNow.current) return;
    ownWrite.current = query;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (query) next.set('q', query);
        else next.delete('q');
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  }, [query, setParams]);

  const update = (change: (next: URLSearchParams) => void, replace: boolean) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        change(next);
        return next;
      },
      { replace },
    );

  return {
    search,
    setSearch,
    /** The search the list is filtered by: the URL's (the box's text once the typing has paused). */
    query: urlQuery,
    type,
    setType: (next: StoreTypeFilter) =>
      update((url) => {
        if (next === 'ALL') url.delete('type');
        else url.set('type', next);
        url.delete('page');
      }, true),
    page,
    /** `?added=<key id>`: a key just added, to show and highlight (AddKeyForm sends the person here). */
    added: keyIdOf(params.get('added')),
    setPage: (next: number) =>
      update((url) => {
        if (next <= 1) url.delete('page');
        else url.set('page', String(next));
      }, false),
    /** "Clear search": every card again, from the first page. */
    clear: () => {
      setSearch('');
      update((url) => ['q', 'type', 'page'].forEach((name) => url.delete(name)), true);
    },
    /** Shows one card: its page, and no search or filter when they would hide it. */
    reveal: (change: { page: number; clearFilters: boolean }) =>
      update((url) => {
        if (change.clearFilters) ['q', 'type'].forEach((name) => url.delete(name));
        if (change.page <= 1) url.delete('page');
        else url.set('page', String(change.page));
        url.delete('added');
      }, true),
  };
}
