import { lazy, Suspense } from 'react';
import type { ActionsMenuProps } from './actions-menu-types';
import { useDeferredMenu } from './deferred-menu';

export type { ActionsMenuItem, ActionsMenuProps } from './actions-menu-types';

const LoadedActionsMenu = lazy(() => import('./actions-menu-loaded'));

/**
 * A menu of actions behind a trigger button. The trigger paints with the page; the menu itself loads right after the
 * first paint, outside the dashboard's initial bundle (useDeferredMenu). A press that comes first opens the menu once
 * it is here.
 */
export function ActionsMenu(props: ActionsMenuProps) {
  const { load, openOnLoad, takeFocus, placeholderProps } = useDeferredMenu();
  const placeholder = (
    <button {...placeholderProps} className={props.triggerClassName} aria-label={props.label}>
      {props.trigger}
    </button>
  );
  if (!load) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <LoadedActionsMenu {...props} defaultOpen={openOnLoad} takeFocus={takeFocus} />
    </Suspense>
  );
}
