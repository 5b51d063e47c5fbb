import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from './query-keys';
import { sessionCookieIsCurrent } from './session-token';
import { STORAGE_KEYS } from './storage-keys';

/** The element the server puts into the dashboard's HTML for a signed-in person (apps/server/src/http/first-data.ts). */
export const FIRST_DATA_ELEMENT_ID = 'keyport-first-data';

interface FirstData {
  me?: unknown;
  keys?: unknown;
  keysHealth?: unknown;
  homepage?: unknown;
  config?: unknown;
}

/**
 * Before the session cookie is written again (main.tsx): data read with a cookie that is not this browser's session
 * token (another person's, from before a sign-in written into storage) is removed from the page, never shown.
 */
export function dropFirstDataOfAnotherSession(doc: Document = document): void {
  if (!sessionCookieIsCurrent()) doc.getElementById(FIRST_DATA_ELEMENT_ID)?.remove();
}

/**
 * ADR 045: the answers the server inlined, put into the query cache before the first render, so the dashboard paints
 * its data without a round trip. Ignored unless the page's cookie is this browser's session token (signed out in
 * another tab since, or another person's token written into storage while the cookie was older). Each answer is exactly what its API call returns; one left out is asked for as usual.
 * Idempotent (StrictMode runs the query client's initializer twice).
 */
export function seedFirstData(queryClient: QueryClient, doc: Document = document): void {
  const element = doc.getElementById(FIRST_DATA_ELEMENT_ID);
  if (!element) return;
  // Read with the page's cookie: this browser's session only when the cookie is its token (not signed out since, nor
  // signed in as somebody else in storage while an older cookie went with the page).
  if (!sessionCookieIsCurrent()) return;
  let data: FirstData;
  try {
    data = JSON.parse(element.textContent ?? '') as FirstData;
  } catch {
    return;
  }
  if (data.me === undefined) return;
  queryClient.setQueryData(queryKeys.me, data.me);
  if (data.keys !== undefined) queryClient.setQueryData(queryKeys.keys, data.keys);
  if (data.keysHealth !== undefined) queryClient.setQueryData(queryKeys.keysHealth, data.keysHealth);
  if (data.config !== undefined) queryClient.setQueryData(queryKeys.publicConfig, data.config);
  if (data.homepage !== undefined) {
    // As getHomepageFeed does with a fresh answer: shown, and kept as the fallback for a failed fetch later (§7).
    queryClient.setQueryData(queryKeys.homepageFeed, { data: data.homepage, fromCache: false });
    try {
      localStorage.setItem(STORAGE_KEYS.homepageData, JSON.stringify(data.homepage));
    } catch {
      // Storage full or disabled: the feed still shows.
    }
  }
}
