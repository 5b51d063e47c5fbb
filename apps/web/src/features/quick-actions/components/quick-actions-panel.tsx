import { Bot, ExternalLink, FileUp, RefreshCw, Store, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { paths } from '../../../lib/paths';

interface QuickActionsPanelProps {
  /** §6: team members (role not null) can use Marketplace and AI Store Builder. */
  isTeamMember: boolean;
  sellStoreFormUrl: string | undefined;
  /** "Upgrade Files": opens 'Upgrade your theme file' (composed by the app). */
  onUpgradeFiles: () => void;
}

const itemClass =
  'flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-left text-sm font-medium text-slate-700 hover:bg-slate-100';

function SoonItem({ icon: Icon, label }: { icon: LucideIcon; label: string }) {
  return (
    <span aria-disabled="true" className={`${itemClass} cursor-not-allowed text-slate-400 hover:bg-transparent`}>
      <Icon aria-hidden="true" className="size-4" />
      <span className="flex-1">{label}</span>
      <Badge className="bg-slate-100 text-slate-500">Soon</Badge>
    </span>
  );
}

function Item({ icon: Icon, children }: { icon: LucideIcon; children: ReactNode }) {
  return (
    <>
      <Icon aria-hidden="true" className="size-4 text-brand-600" />
      <span className="flex-1">{children}</span>
    </>
  );
}

/** The left Quick Actions panel (§1). Flows that are not built yet are shown as unavailable. */
export function QuickActionsPanel({ isTeamMember, sellStoreFormUrl, onUpgradeFiles }: QuickActionsPanelProps) {
  return (
    <nav aria-labelledby="quick-actions-heading" className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm">
      <h2
        id="quick-actions-heading"
        className="px-3 pt-1 pb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase"
      >
        Quick Actions
      </h2>
      <ul className="space-y-0.5">
        <li>
          <Link to={paths.updateFile} className={itemClass}>
            <Item icon={RefreshCw}>Update Theme</Item>
          </Link>
        </li>
        <li>
          <button type="button" onClick={onUpgradeFiles} className={itemClass}>
            <Item icon={FileUp}>Upgrade Files</Item>
          </button>
        </li>
        <li>
          {isTeamMember ? (
            <Link to={paths.marketplace} className={itemClass}>
              <Item icon={Store}>Marketplace</Item>
            </Link>
          ) : (
            <SoonItem icon={Store} label="Marketplace" />
          )}
        </li>
        <li>
          {sellStoreFormUrl ? (
            <a href={sellStoreFormUrl} target="_blank" rel="noreferrer" className={itemClass}>
              <Item icon={ExternalLink}>Sell Your Store</Item>
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          ) : null}
        </li>
        <li>
          {isTeamMember ? (
            <Link to={paths.aiStore} className={itemClass}>
              <Item icon={Bot}>AI Store Builder</Item>
            </Link>
          ) : (
            <SoonItem icon={Bot} label="AI Store Builder" />
          )}
        </li>
      </ul>
    </nav>
  );
}
