import { ChevronRight, Globe, MoreVertical, Store, Unplug } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { cardTier, isStoreConnected, storeCardLabel, type StoreCard } from '@keyport/shared/domain/store-card';
import { Badge } from '../../../components/ui/badge';
import { CopyButton } from '../../../components/ui/copy-button';
import { ActionsMenu } from '../../../components/ui/actions-menu';
import { cn } from '../../../lib/cn';
import { TIER_STYLES } from '../../../components/ui/tier-style';
import { paths } from '../../../lib/paths';
import { KeyHealthPanel } from './key-health';

interface KeyCardProps {
  card: StoreCard;
  onDisconnect: (card: StoreCard) => void;
  /** The card opened by /customer/my-keys/{id}: outlined and with its details. */
  focused?: boolean;
  /** A key just added: scrolled into view, outlined and marked "New". */
  highlighted?: boolean;
  /** Connect, edit and download controls, composed by the page from other features. */
  actions?: ReactNode;
  /** The Upgrade button (none on PRO cards), composed by the page from the upgrades feature. */
  upgrade?: ReactNode;
}

/** §3 store card: the license key (copyable), tier, store name and domain, and connection state. */
export function KeyCard({ card, onDisconnect, focused = false, highlighted = false, actions, upgrade }: KeyCardProps) {
  const tier = cardTier(card);
  const connected = isStoreConnected(card);
  const article = useRef<HTMLElement>(null);
  useEffect(() => {
    if (highlighted) article.current?.scrollIntoView?.({ block: 'nearest' });
  }, [highlighted]);
  return (
    <article
      ref={article}
      aria-label={`${card.name}, ${tier} license${highlighted ? ', just added' : ''}`}
      className={cn(
        'relative flex h-full flex-col overflow-hidden rounded-xl border bg-white shadow-sm',
        focused
          ? 'border-brand-500 ring-2 ring-brand-100'
          : highlighted
            ? 'border-emerald-500 ring-4 ring-emerald-100'
            : 'border-slate-200',
      )}
      data-testid="key-card"
      data-highlighted={highlighted || undefined}
    >
      <div className={cn('h-1.5', TIER_STYLES[tier].accent)} aria-hidden="true" />
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 className="text-base font-semibold wrap-anywhere text-slate-900">{card.name}</h2>
            <p className="flex items-start gap-1 text-sm text-slate-600">
              <Globe aria-hidden="true" className="size-3.5 shrink-0" />
              {/* A domain is read in full: it wraps (anywhere, as a URL has few spaces) rather than being cut off. */}
              <span className="min-w-0 wrap-anywhere" data-testid="card-domain">
                {card.domain}
              </span>
            </p>
          </div>
          <div className="flex items-center gap-1">
            {highlighted ? <Badge className="bg-emerald-100 text-emerald-800">New</Badge> : null}
            <Badge className={TIER_STYLES[tier].badge}>{tier}</Badge>
            <ActionsMenu
              label={`More actions for ${card.name}`}
              triggerClassName="rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
              trigger={<MoreVertical aria-hidden="true" className="size-4" />}
              items={[{ label: 'Disconnect', icon: Unplug, tone: 'danger', onSelect: () => onDisconnect(card) }]}
            />
          </div>
        </div>

        <div>
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">License key</p>
          <div className="flex items-center gap-1">
            <code className="min-w-0 flex-1 font-mono text-sm break-words text-slate-800">{card.api_key}</code>
            <CopyButton value={card.api_key} label="Copy license key" />
          </div>
        </div>

        {/* Issue 13: a connected key's theme checks in; one without a token has nothing to show yet. */}
        {connected ? <KeyHealthPanel keyId={card.id} cardLabel={storeCardLabel(card)} /> : null}

        {focused ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded-lg bg-slate-50 p-3 text-sm">
            <dt className="text-slate-500">Store</dt>
            <dd className="min-w-0 wrap-anywhere text-slate-800">{card.domain}</dd>
            <dt className="text-slate-500">Shopify domain</dt>
            <dd className="min-w-0 wrap-anywhere text-slate-800">{card.myshopify || 'Not set'}</dd>
            <dt className="text-slate-500">Secondary domain</dt>
            <dd className="min-w-0 wrap-anywhere text-slate-800">{card.secondary_url || 'Not set'}</dd>
            <dt className="text-slate-500">License</dt>
            <dd className="text-slate-800">{tier}</dd>
          </dl>
        ) : null}

        <div className="mt-auto flex items-center justify-between gap-2 pt-1">
          <p
            className={cn(
              'flex items-center gap-1.5 text-sm whitespace-nowrap',
              connected ? 'text-emerald-700' : 'text-slate-500',
            )}
          >
            <Store aria-hidden="true" className="size-4" />
            {connected ? 'Connected' : 'Not connected'}
          </p>
          {upgrade ? <div className="ml-auto">{upgrade}</div> : null}
          {focused ? null : (
            <Link
              to={paths.key(card.id)}
              className="flex items-center text-sm font-medium text-brand-700 hover:underline"
              aria-label={`Details of ${card.name}`}
            >
              Details
              <ChevronRight aria-hidden="true" className="size-4" />
            </Link>
          )}
        </div>
        {actions ? <div className="flex flex-wrap gap-2 border-t border-slate-100 pt-3">{actions}</div> : null}
      </div>
    </article>
  );
}
