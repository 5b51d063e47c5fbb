import type { CreditHistoryEntry } from '@keyport/shared/contracts/credits';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { useCreditHistory } from '../api/get-credit-history';
import { CREDITS_TEXT } from '../messages';
import { CreditsBalance } from './credits-balance';

const when = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

/** '+3', '−2' (a real minus sign, read as "minus" by screen readers). */
const signed = (amount: number) => (amount > 0 ? `+${amount}` : `−${Math.abs(amount)}`);

const STATE_BADGE: Record<Exclude<CreditHistoryEntry['state'], 'available'>, { label: string; className: string }> = {
  pending: { label: 'Pending review', className: 'bg-amber-100 text-amber-900' },
  dropped: { label: 'Not added', className: 'bg-slate-200 text-slate-700' },
};

function HistoryLine({ entry }: { entry: CreditHistoryEntry }) {
  const badge = entry.state === 'available' ? null : STATE_BADGE[entry.state];
  const amountClass =
    entry.state !== 'available' ? 'text-slate-500' : entry.amount > 0 ? 'text-emerald-700' : 'text-red-700';
  return (
    <li className="flex gap-3 py-3" data-testid="credit-history-line">
      <div className="min-w-0 flex-1 space-y-1">
        <p className="font-medium break-words text-slate-900">{entry.reason}</p>
        {entry.note ? (
          <p className="text-sm break-words text-slate-700">
            <span className="text-slate-500">Note from our team: </span>
            {entry.note}
          </p>
        ) : null}
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500">
          <time dateTime={entry.created_at}>{when.format(new Date(entry.created_at))}</time>
          {badge ? <Badge className={badge.className}>{badge.label}</Badge> : null}
        </p>
      </div>
      <div className="shrink-0 text-right">
        <p className={cn('font-semibold tabular-nums', amountClass, entry.state === 'dropped' && 'line-through')}>
          {signed(entry.amount)}
        </p>
        {entry.balance_after === null ? null : (
          <p className="text-xs text-slate-500 tabular-nums">Balance {entry.balance_after}</p>
        )}
      </div>
    </li>
  );
}

/**
 * The customer's credit history (ADR 037), opened from the user menu: every movement of their credits with what it was
 * and the note staff left on grants, removals, approvals and rejections, and the report credits pending review or
 * dropped by a rejection. The staff dialog promises the customer sees their note here.
 */
export default function CreditHistoryDialog({ onClose }: { onClose: () => void }) {
  const history = useCreditHistory();
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent title={CREDITS_TEXT.creditHistory} description={CREDITS_TEXT.historyDescription} size="lg">
        <CreditsBalance className="mb-2 rounded-lg bg-slate-50 px-3 py-2" />
        {history.isPending ? (
          <div className="space-y-3 py-2" role="status" aria-label="Loading your credit history">
            <Skeleton className="h-14 rounded-lg" />
            <Skeleton className="h-14 rounded-lg" />
          </div>
        ) : history.isError ? (
          <Alert className="mt-2 space-y-2">
            <p>{serverMessage(history.error) ?? CREDITS_TEXT.historyFailed}</p>
            <Button size="sm" variant="secondary" onClick={() => void history.refetch()} disabled={history.isFetching}>
              {CREDITS_TEXT.tryAgain}
            </Button>
          </Alert>
        ) : history.data.entries.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-700">
            {CREDITS_TEXT.historyEmpty}
          </p>
        ) : (
          <ol
            className="max-h-[60dvh] divide-y divide-slate-200 overflow-y-auto"
            aria-label={CREDITS_TEXT.creditHistory}
            // Scrolls when long: reachable with the keyboard.
            tabIndex={0}
          >
            {history.data.entries.map((entry) => (
              <HistoryLine key={entry.id} entry={entry} />
            ))}
          </ol>
        )}
      </DialogContent>
    </Dialog>
  );
}
