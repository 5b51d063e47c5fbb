import { ExternalLink, FileUp, RefreshCw } from 'lucide-react';
import { Link } from 'react-router';
import { DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator } from '../../../components/ui/dropdown-menu';
import { paths } from '../../../lib/paths';

export interface QuickActionsMenuItemsProps {
  /** Where "Upgrade Files" goes: the dashboard with 'Upgrade your theme file' open (`?dialog=upgrade-files`). */
  upgradeFilesTo: string;
  /** The link's history state (the dialog opens over the page the person is on). */
  upgradeFilesState?: unknown;
  sellStoreFormUrl: string | undefined;
}

/**
 * The Quick Actions panel's own actions as user-menu items, for screens below xl where the panel is hidden (issue
 * 21): Update Theme, Upgrade Files and Sell Your Store. (Team members' Marketplace and AI Store Builder are in the menu
 * at every width.) Loaded with the open menu, whose code it needs.
 */
export default function QuickActionsMenuItems({
  upgradeFilesTo,
  upgradeFilesState,
  sellStoreFormUrl,
}: QuickActionsMenuItemsProps) {
  return (
    <>
      <DropdownMenuLabel className="font-semibold tracking-wide uppercase">Quick Actions</DropdownMenuLabel>
      <DropdownMenuItem asChild>
        <Link to={paths.updateFile}>
          <RefreshCw aria-hidden="true" className="size-4" />
          Update Theme
        </Link>
      </DropdownMenuItem>
      <DropdownMenuItem asChild>
        <Link to={upgradeFilesTo} state={upgradeFilesState}>
          <FileUp aria-hidden="true" className="size-4" />
          Upgrade Files
        </Link>
      </DropdownMenuItem>
      {sellStoreFormUrl ? (
        <DropdownMenuItem asChild>
          <a href={sellStoreFormUrl} target="_blank" rel="noreferrer">
            <ExternalLink aria-hidden="true" className="size-4" />
            Sell Your Store
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        </DropdownMenuItem>
      ) : null}
      <DropdownMenuSeparator />
    </>
  );
}
