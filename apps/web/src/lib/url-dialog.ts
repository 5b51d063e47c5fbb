import { useRef } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';

/**
 * The dialogs that live in the URL (ADR 042): opening one is a step in the browser's history, so Back closes it
 * (and stays on the page), Forward and a reload open it again, and a link can open it.
 * `?dialog=<name>` and, for a key's dialog, `&key=<key id>`.
 */
export type UrlDialogName =
  /** §2 dialog 5, a key's Upgrade Options. */
  | 'upgrade-options'
  /** §2 dialog 4, a key's Upgrade License. */
  | 'upgrade'
  /** §2 dialog 7, 'Upgrade your theme file' (Quick Actions "Upgrade Files"). */
  | 'upgrade-files'
  /** §2 dialog 1, a key's Connect Your Store wizard. */
  | 'connect'
  /** §2 dialog 2, a key's Edit Connection / Connect to Store panel. */
  | 'connection';

export const URL_DIALOG_PARAMS = ['dialog', 'key'] as const;

/** History state of an entry the app pushed to open a dialog: closing it goes back to the entry before. */
const PUSHED = 'keyportUrlDialog';

const withDialog = (current: URLSearchParams, name: UrlDialogName, keyId: number | undefined) => {
  const next = new URLSearchParams(current);
  next.set('dialog', name);
  if (keyId === undefined) next.delete('key');
  else next.set('key', String(keyId));
  return next;
};

const withoutDialog = (current: URLSearchParams) => {
  const next = new URLSearchParams(current);
  URL_DIALOG_PARAMS.forEach((name) => next.delete(name));
  return next;
};

/**
 * The history state for a link that opens a dialog over the page it is on (so closing it goes back to that entry).
 * A link from another page leaves it out: closing the dialog then stays on the page it opened.
 */
export const URL_DIALOG_LINK_STATE = { [PUSHED]: true } as const;

/** The search of `/customer/my-keys` (or any page) with a dialog open: for links that open one. */
export function searchWithDialog(search: string, name: UrlDialogName, keyId?: number): string {
  return `?${withDialog(new URLSearchParams(search), name, keyId).toString()}`;
}

/** Opens, switches and closes the URL's dialog; `isOpen` says whether a dialog (of a key) is the one open. */
export function useUrlDialog() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const name = params.get('dialog');
  const key = params.get('key');
  const pushed = (location.state as Record<string, unknown> | null)?.[PUSHED] === true;
  // A dialog can be asked to close twice (its close button, then its onOpenChange): go back once per entry.
  const closedEntry = useRef<string | null>(null);

  return {
    isOpen: (dialog: UrlDialogName, keyId?: number) =>
      name === dialog && (keyId === undefined ? key === null : key === String(keyId)),
    /** A new history entry: Back closes the dialog. */
    open: (dialog: UrlDialogName, keyId?: number) =>
      setParams((current) => withDialog(current, dialog, keyId), { state: URL_DIALOG_LINK_STATE }),
    /** The next dialog of the same step (Upgrade Options → Upgrade License): one Back still closes it. */
    switchTo: (dialog: UrlDialogName, keyId?: number) =>
      setParams((current) => withDialog(current, dialog, keyId), { replace: true, state: location.state }),
    /** Back to the entry before the dialog when the app opened it; otherwise (a link, a reload) the URL loses it. */
    close: () => {
      if (name === null || closedEntry.current === location.key) return;
      closedEntry.current = location.key;
      if (pushed) void navigate(-1);
      else setParams(withoutDialog, { replace: true });
    },
    /**
     * Closes it in this entry, when the app goes on to another page at once: a Back (asynchronous) could land after
     * that navigation and undo it.
     */
    closeInPlace: () => {
      if (name === null) return;
      setParams(withoutDialog, { replace: true });
    },
  };
}
