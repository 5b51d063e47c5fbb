import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router';
import { paths } from '../lib/paths';
import { usePublicConfig } from '../lib/public-config';
import { searchWithDialog, URL_DIALOG_LINK_STATE } from '../lib/url-dialog';
import { useMediaQuery, XL_MEDIA_QUERY } from '../lib/use-media-query';

// Loaded with the open menu (it renders menu items, so it needs the menu's code anyway).
const QuickActionsMenuItems = lazy(() => import('../features/quick-actions/components/quick-actions-menu-items'));

/**
 * The user menu's Quick Actions below the xl width, where the dashboard's panel is hidden (§2): phones and tablets
 * keep Update Theme, Upgrade Files and Sell Your Store. From xl the panel is on screen and the menu leaves them out.
 */
export function QuickActionsMenu() {
  const wide = useMediaQuery(XL_MEDIA_QUERY);
  const location = useLocation();
  const config = usePublicConfig();
  if (wide) return null;
  // On the dashboard the dialog opens over the cards as they are (search, page); elsewhere, over the dashboard.
  const onDashboard = location.pathname === paths.myKeys;
  const search = onDashboard ? location.search : '';
  return (
    <Suspense fallback={null}>
      <QuickActionsMenuItems
        upgradeFilesTo={`${paths.myKeys}${searchWithDialog(search, 'upgrade-files')}`}
        upgradeFilesState={onDashboard ? URL_DIALOG_LINK_STATE : undefined}
        sellStoreFormUrl={config.data?.links.sellStoreFormUrl}
      />
    </Suspense>
  );
}
