import { formatUsd, formatVatRate } from '@keyport/shared/domain/money';
import { REVERSE_CHARGE_LABEL } from '@keyport/shared/domain/vat';
import type { OrderAmounts } from './use-order-amounts';

/** §2 dialog 4: the order summary, Subtotal, VAT (with its rate) and Total, or 'Reverse Charge'. */
export function OrderSummary({ amounts }: { amounts: OrderAmounts }) {
  return (
    <section aria-labelledby="order-summary-heading" className="rounded-xl bg-slate-50 p-4">
      <h3 id="order-summary-heading" className="mb-2 text-sm font-semibold text-slate-900">
        Order summary
      </h3>
      <dl className="grid grid-cols-[1fr_auto] gap-y-1.5 text-sm" data-testid="order-summary">
        <dt className="text-slate-600">Subtotal</dt>
        <dd className="text-right text-slate-900 tabular-nums">{formatUsd(amounts.baseCents)}</dd>
        {amounts.reverseCharge ? (
          <>
            <dt className="text-slate-600">VAT</dt>
            <dd className="text-right font-medium text-slate-900">{REVERSE_CHARGE_LABEL}</dd>
          </>
        ) : (
          <>
            <dt className="text-slate-600">VAT ({formatVatRate(amounts.rateBp)})</dt>
            <dd className="text-right text-slate-900 tabular-nums">{formatUsd(amounts.vatCents)}</dd>
          </>
        )}
        <dt className="border-t border-slate-200 pt-1.5 font-semibold text-slate-900">Total</dt>
        <dd
          className="border-t border-slate-200 pt-1.5 text-right font-semibold text-slate-900 tabular-nums"
          data-testid="order-total"
        >
          {formatUsd(amounts.totalCents)}
        </dd>
      </dl>
      {amounts.reverseCharge ? (
        <p className="mt-2 text-xs text-slate-600">VAT to be accounted for by the recipient (EU reverse charge).</p>
      ) : null}
    </section>
  );
}
