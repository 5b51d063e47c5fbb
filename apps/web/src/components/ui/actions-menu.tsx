import { lazy, startTransition, Suspense, useEffect, useRef, useState } from 'react';
import type { ActionsMenuProps } from './actions-menu-types';

export type { ActionsMenuItem, ActionsMenuProps } from './actions-menu-types';

const LoadedActionsMenu = lazy(() => import('./actions-menu-loaded'));

/**
 * A menu of actions behind a trigger button. The trigger paints with the page; the menu itself (Radix DropdownMenu
 * and its positioning code) loads right after the first paint, outside the dashboard's initial bundle. A press that
 * comes first opens the menu once it is here.
 */
export function ActionsMenu(props: ActionsMenuProps) {
  const [load, setLoad] = useState(false);
  const [openOnLoad, setOpenOnLoad] = useState(false);
  const focused = useRef(false);

  useEffect(() => {
    // As a transition (ADR 045): six cards' menus render in slices, not in one task that blocks input.
    const timer = setTimeout(() => startTransition(() => setLoad(true)), 0);
    return () => clearTimeout(timer);
  }, []);

  const placeholder = (
    <button
      type="button"
      className={props.triggerClassName}
      aria-label={props.label}
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
      {props.trigger}
    </button>
  );
  if (!load) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <LoadedActionsMenu {...props} defaultOpen={openOnLoad} takeFocus={focused.current} />
    </Suspense>
  );
}
