import { AlertTriangle, Loader2, MousePointerClick, Ticket } from 'lucide-react';
import type { ReactNode } from 'react';

/** §2 dialog 4's empty states of the payment column (and the credits checkout's 'Select a Credit Pack'). */
export const PANEL_STATES = {
  select: { title: 'Select an Upgrade', text: 'Choose an upgrade on the left to see its price and pay for it.' },
  /** The credits checkout's: no pack chosen yet. */
  selectPack: { title: 'Select a Credit Pack', text: 'Choose a pack on the left to see its price and pay for it.' },
  loading: { title: 'Loading Payment', text: 'Getting the secure payment form ready…' },
  token: { title: 'Token Redemption', text: 'Redeem your upgrade token on the left: no payment is needed.' },
  error: { title: 'Payment Error', text: '' },
} as const;

const ICONS = {
  select: <MousePointerClick className="size-8" />,
  selectPack: <MousePointerClick className="size-8" />,
  loading: <Loader2 className="size-8 animate-spin motion-reduce:animate-none" />,
  token: <Ticket className="size-8" />,
  error: <AlertTriangle className="size-8" />,
} satisfies Record<keyof typeof PANEL_STATES, ReactNode>;

/** One empty state: 'Select an Upgrade', 'Loading Payment', 'Token Redemption' or 'Payment Error' (with its message). */
export function PanelState({ kind, message }: { kind: keyof typeof PANEL_STATES; message?: string }) {
  const { title, text } = PANEL_STATES[kind];
  const error = kind === 'error';
  return (
    <div
      role={error ? 'alert' : 'status'}
      aria-busy={kind === 'loading' ? true : undefined}
      data-testid="payment-panel-state"
      className={
        error
          ? 'flex flex-col items-center rounded-xl border border-red-200 bg-red-50 px-6 py-10 text-center'
          : 'flex flex-col items-center rounded-xl border border-dashed border-slate-300 bg-slate-50/60 px-6 py-10 text-center'
      }
    >
      <div aria-hidden="true" className={error ? 'mb-3 text-red-500' : 'mb-3 text-slate-400'}>
        {ICONS[kind]}
      </div>
      <h3 className={error ? 'text-base font-semibold text-red-900' : 'text-base font-semibold text-slate-900'}>
        {title}
      </h3>
      <p className={error ? 'mt-1 text-sm text-red-800' : 'mt-1 text-sm text-slate-600'}>{message ?? text}</p>
    </div>
  );
}
