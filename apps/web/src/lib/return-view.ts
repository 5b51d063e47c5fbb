import { paths } from './paths';
import { URL_DIALOG_PARAMS } from './url-dialog';

/** sessionStorage: the dashboard's search and page when the person left for a payment page (PayPal's approval). */
const RETURN_VIEW_KEY = 'keyport.return-view';

/**
 * Before a full-page trip to a payment provider: remembers the dashboard's view (`q`, `type`, `page`; not its dialog)
 * so the return shows the same cards (ADR 042). PayPal sends the person back to a fixed URL that cannot carry it.
 */
export function rememberReturnView(location: { pathname: string; search: string } = window.location): void {
  if (location.pathname !== paths.myKeys) return;
  const view = new URLSearchParams(location.search);
  URL_DIALOG_PARAMS.forEach((name) => view.delete(name));
  try {
    sessionStorage.setItem(RETURN_VIEW_KEY, view.toString());
  } catch {
    // Storage refused (a private mode, a full quota): the return shows the first page, as before.
  }
}

/** This page load's remembered view (read once: React may run the return's effect twice). */
let remembered: string | null | undefined;

/**
 * The remembered view: its parameters join those of the return URL (never replacing one it has). The stored copy is
 * forgotten as it is read, so a later visit to the dashboard starts afresh.
 */
export function restoreReturnView(search: URLSearchParams): URLSearchParams {
  if (remembered === undefined) {
    try {
      remembered = sessionStorage.getItem(RETURN_VIEW_KEY);
      sessionStorage.removeItem(RETURN_VIEW_KEY);
    } catch {
      remembered = null;
    }
  }
  if (!remembered) return search;
  const next = new URLSearchParams(search);
  new URLSearchParams(remembered).forEach((value, name) => {
    if (!next.has(name)) next.set(name, value);
  });
  return next;
}
