import { lazy, Suspense, type ReactNode } from 'react';
import { useDeferredMenu } from '../../../components/ui/deferred-menu';
import { useMe } from '../api/get-me';
import { UserMenuButtonContent, userMenuButtonClass } from './user-menu-button';

const UserMenuDropdown = lazy(() => import('./user-menu-dropdown'));

/**
 * The header's user menu. Its button paints with the page; the menu's code loads right after, so it stays out of the
 * initial bundle (docs/performance.md, useDeferredMenu). A press or click that comes first opens the menu once it is
 * here.
 */
export function UserMenu({ credits, quickActions }: { credits?: ReactNode; quickActions?: ReactNode }) {
  const me = useMe();
  const { load, openOnLoad, takeFocus, placeholderProps } = useDeferredMenu();
  const placeholder = (
    <button {...placeholderProps} className={userMenuButtonClass}>
      <UserMenuButtonContent name={me.data?.name ?? 'Account'} />
    </button>
  );
  if (!load) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <UserMenuDropdown defaultOpen={openOnLoad} takeFocus={takeFocus} credits={credits} quickActions={quickActions} />
    </Suspense>
  );
}
