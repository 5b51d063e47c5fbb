import { FileDown } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { MyOrder, OrderDocument } from '@keyport/shared/contracts/invoices';
import type { PurchasedUpgrade } from '@keyport/shared/contracts/upgrades';
import { formatUsd, formatVatRate } from '@keyport/shared/domain/money';
import { REVERSE_CHARGE_LABEL } from '@keyport/shared/domain/vat';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { downloadInvoice } from '../api/download-invoice';
import { useMyOrders } from '../api/get-my-orders';
import { redeemedUpgrades, usePurchasedUpgrades } from '../api/get-purchased-upgrades';

const dateFormat = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'long', day: 'numeric' });

/**
 * Settings → Invoices (issue 21): one list of the person's orders (license upgrades and credit packs alike, and the
 * legacy store's), each with its invoice and credit notes and their PDFs; then the upgrades redeemed with a token.
 */
export function InvoicesTab() {
  const orders = useMyOrders();
  const upgrades = usePurchasedUpgrades();
  const redeemed = upgrades.data ? redeemedUpgrades(upgrades.data) : [];

  if (orders.isPending || upgrades.isPending) {
    return <p className="py-6 text-center text-sm text-slate-600">Loading purchases…</p>;
  }
  return (
    <div className="space-y-5">
      <section aria-labelledby="orders-heading" className="space-y-2">
        <h3 id="orders-heading" className="text-sm font-semibold text-slate-900">
          Orders and invoices
        </h3>
        {orders.isError ? (
          <Alert>{ORDERS_FAILED}</Alert>
        ) : orders.data.length === 0 ? (
          <p className="rounded-lg bg-slate-50 px-3 py-4 text-center text-sm text-slate-600">{NO_PURCHASES}</p>
        ) : (
          <ul className="space-y-2" aria-label="Orders">
            {orders.data.map((order) => (
              <OrderRow key={order.id === null ? `legacy-${order.created_at}` : order.id} order={order} />
            ))}
          </ul>
        )}
      </section>
      {upgrades.isError ? (
        <Alert>{REDEEMED_UPGRADES_FAILED}</Alert>
      ) : redeemed.length > 0 ? (
        <section aria-labelledby="redeemed-heading" className="space-y-2">
          <h3 id="redeemed-heading" className="text-sm font-semibold text-slate-900">
            Upgrades redeemed with a token
          </h3>
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200" aria-label="Redeemed upgrades">
            {redeemed.map((upgrade) => (
              <RedeemedUpgradeRow key={`${upgrade.source}-${upgrade.id}`} upgrade={upgrade} />
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

export const ORDERS_FAILED = 'Failed to load your orders and invoices. Please try again later.';
export const NO_PURCHASES = 'No purchases yet.';
export const REDEEMED_UPGRADES_FAILED = 'Failed to load your redeemed upgrades. Please try again later.';
const INVOICE_FAILED = 'Failed to download the invoice. Please try again.';
const KIND_LABEL = { invoice: 'Invoice', credit_note: 'Credit note' } as const;
const STATUS_LABEL: Partial<Record<NonNullable<MyOrder['status']>, string>> = {
  completed: 'Paid',
  needs_refund: 'Paid',
  review: 'Paid',
  refunded: 'Refunded',
  disputed: 'Disputed',
  charged_back: 'Charged back',
};

/** One order: number (none on a legacy order), what, date, amounts and status, then its documents. */
function OrderRow({ order }: { order: MyOrder }) {
  const status = order.status ? (STATUS_LABEL[order.status] ?? 'Paid') : null;
  return (
    <li className="rounded-lg border border-slate-200 p-3 text-sm" data-testid="order">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium text-slate-900">
          {order.id === null ? order.description : `Order #${order.id} · ${order.description}`}
        </span>
        {status ? (
          <Badge
            className={
              status === 'Paid'
                ? 'bg-emerald-100 text-emerald-800'
                : status === 'Disputed'
                  ? 'bg-amber-100 text-amber-800'
                  : 'bg-slate-200 text-slate-700'
            }
          >
            {status}
          </Badge>
        ) : null}
      </div>
      <p className="text-xs text-slate-600">
        <time dateTime={order.created_at}>{dateFormat.format(new Date(order.created_at))}</time>
        {order.license_key ? (
          <>
            {' · '}
            <span className="font-mono break-all">{order.license_key}</span>
          </>
        ) : null}
      </p>
      {order.total !== null ? (
        <dl className="mt-2 grid grid-cols-3 gap-2 text-xs">
          <div>
            <dt className="text-slate-500">Subtotal</dt>
            <dd className="text-slate-900 tabular-nums">{formatUsd(order.subtotal ?? 0)}</dd>
          </div>
          <div>
            <dt className="text-slate-500">
              {order.reverse_charge ? 'VAT' : `VAT (${formatVatRate(order.vat_rate_bp ?? 0)})`}
            </dt>
            <dd className="text-slate-900 tabular-nums">
              {order.reverse_charge ? REVERSE_CHARGE_LABEL : formatUsd(order.vat_amount ?? 0)}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Total</dt>
            <dd className="font-semibold text-slate-900 tabular-nums">{formatUsd(order.total)}</dd>
          </div>
        </dl>
      ) : null}
      {order.documents.length > 0 ? (
        <ul
          className="mt-2 divide-y divide-slate-100 border-t border-slate-100"
          aria-label={`Documents of order ${order.id}`}
        >
          {order.documents.map((document) => (
            <DocumentRow key={document.id} document={document} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** One invoice or credit note: number, date, total (a credit note's as a negative amount) and its PDF. */
function DocumentRow({ document }: { document: OrderDocument }) {
  const [downloading, setDownloading] = useState(false);
  const kind = KIND_LABEL[document.kind];
  const isCredit = document.kind === 'credit_note';
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 pt-2 text-sm" data-testid="invoice">
      <div className="min-w-0">
        <p className="font-medium text-slate-900">
          {kind} {document.number}
        </p>
        <p className="text-xs text-slate-600">
          <time dateTime={document.issued_at}>{dateFormat.format(new Date(document.issued_at))}</time>
          {document.credited_invoice_number ? ` · for invoice ${document.credited_invoice_number}` : ''}
        </p>
      </div>
      <div className="flex items-center gap-2">
        <span className="font-semibold text-slate-900 tabular-nums">
          {formatUsd(isCredit ? -document.total : document.total)}
        </span>
        <Button
          size="sm"
          variant="ghost"
          disabled={downloading}
          aria-label={`Download ${kind.toLowerCase()} ${document.number} (PDF)`}
          onClick={() => {
            setDownloading(true);
            downloadInvoice(document.id)
              .catch(() => toast.error(INVOICE_FAILED))
              .finally(() => setDownloading(false));
          }}
        >
          <FileDown aria-hidden="true" className="size-4" />
          {downloading ? 'Downloading…' : 'PDF'}
        </Button>
      </div>
    </li>
  );
}

/** An upgrade redeemed with a token: the path, the date and the key (no payment, so no invoice). */
function RedeemedUpgradeRow({ upgrade }: { upgrade: PurchasedUpgrade }) {
  return (
    <li className="px-3 py-2.5 text-sm" data-testid="redeemed-upgrade">
      <span className="font-medium text-slate-900">
        {upgrade.upgrade_from} to {upgrade.upgrade_to}
      </span>
      <p className="text-xs text-slate-600">
        <time dateTime={upgrade.created_at}>{dateFormat.format(new Date(upgrade.created_at))}</time> · Upgrade token ·{' '}
        <span className="font-mono break-all">{upgrade.license_key}</span>
      </p>
    </li>
  );
}
