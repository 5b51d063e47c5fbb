import { Globe, Store } from 'lucide-react';
import { cardTier, isStoreConnected, type StoreCard } from '@keyport/shared/domain/store-card';
import { Badge } from '../../../components/ui/badge';
import { cn } from '../../../lib/cn';
import { TIER_STYLES } from './tier-style';

export function KeyCard({ card }: { card: StoreCard }) {
  const tier = cardTier(card);
  const connected = isStoreConnected(card);
  return (
    <article
      aria-label={`${card.name} — ${tier} license`}
      className="relative flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm"
      data-testid="key-card"
    >
      <div className={cn('h-1.5', TIER_STYLES[tier].accent)} aria-hidden="true" />
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <h3 className="truncate text-base font-semibold text-slate-900">{card.name}</h3>
            <p className="flex items-center gap-1 truncate text-sm text-slate-600">
              <Globe aria-hidden="true" className="size-3.5 shrink-0" />
              <span className="truncate">{card.domain}</span>
            </p>
          </div>
          <Badge className={TIER_STYLES[tier].badge}>{tier}</Badge>
        </div>
        <div>
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">License key</p>
          <p className="font-mono text-sm break-all text-slate-800">{card.api_key}</p>
        </div>
        <p
          className={cn('mt-auto flex items-center gap-1.5 text-sm', connected ? 'text-emerald-700' : 'text-slate-500')}
        >
          <Store aria-hidden="true" className="size-4" />
          {connected ? 'Connected' : 'Not connected'}
        </p>
      </div>
    </article>
  );
}
