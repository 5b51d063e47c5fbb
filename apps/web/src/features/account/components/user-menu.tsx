import { lazy, startTransition, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { useMe } from '../api/get-me';
import { UserMenuButtonContent, userMenuButtonClass } from './user-menu-button';

const loadDropdown = () => import('./user-menu-dropdown');
const UserMenuDropdown = lazy(loadDropdown);

/**
 * The header's user menu. Its button paints with the page; the menu's code (Radix DropdownMenu) loads right after, so
 * it stays out of the initial bundle (docs/performance.md). A click that comes first opens the menu once it is here.
 */
export function UserMenu({ credits, quickActions }: { credits?: ReactNode; quickActions?: ReactNode }) {
  const me = useMe();
  const [load, setLoad] = useState(false);
  const [openOnLoad, setOpenOnLoad] = useState(false);
  const focused = useRef(false);
  const name = me.data?.name ?? 'Account';

  useEffect(() => {
    // After the first paint: nothing on screen waits for it.
    // As a transition (ADR 045): rendered in slices, not in one task that blocks input.
    const timer = setTimeout(() => startTransition(() => setLoad(true)), 0);
    return () => clearTimeout(timer);
  }, []);

  const placeholder = (
    <button
      type="button"
      className={userMenuButtonClass}

      aria-haspopup="menu"
      aria-expanded={false}
      onFocus={() => (focused.current = true)}
      onBlur={(event) => {
        if (event.relatedTarget) focused.current = false;
      }}
      onClick={() => {
        setOpenOnLoad(true);
        setLoad(true);
      }}
    >
      <UserMenuButtonContent name={name} />
    </button>
  );
  if (!load) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <UserMenuDropdown
        defaultOpen={openOnLoad}
        takeFocus={focused.current}
        credits={credits}
        quickActions={quickActions}
      />
    </Suspense>
  );
}
