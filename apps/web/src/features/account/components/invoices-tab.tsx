import { FileDown } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { InvoiceSummary } from '@keyport/shared/contracts/invoices';
import type { PurchasedUpgrade } from '@keyport/shared/contracts/upgrades';
import { formatUsd, formatVatRate } from '@keyport/shared/domain/money';
import { REVERSE_CHARGE_LABEL, vatRateBpFromPercent } from '@keyport/shared/domain/vat';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { useMe } from '../api/get-me';
import { downloadInvoice } from '../api/download-invoice';
import { useInvoices } from '../api/get-invoices';
import { allPurchasedUpgrades, downloadReceipt, usePurchasedUpgrades } from '../api/get-purchased-upgrades';

const dateFormat = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'long', day: 'numeric' });

/**
 * Settings → Invoices: the invoices and credit notes (each with its PDF), the license upgrades (paid or redeemed)
 * and the orders.
 */
export function InvoicesTab() {
  const me = useMe();
  const upgrades = usePurchasedUpgrades();
  const documents = useInvoices();
  const orders = me.data?.orders ?? [];
  const purchased = upgrades.data ? allPurchasedUpgrades(upgrades.data) : [];
  const loading = me.isPending || upgrades.isPending || documents.isPending;

  if (loading) return <p className="py-6 text-center text-sm text-slate-600">Loading purchases…</p>;
  return (
    <div className="space-y-5">
      <section aria-labelledby="invoices-heading" className="space-y-2">
        <h3 id="invoices-heading" className="text-sm font-semibold text-slate-900">
          Invoices
        </h3>
        {documents.isError ? (
          <Alert>{INVOICES_FAILED}</Alert>
        ) : documents.data.length === 0 ? (
          <p className="rounded-lg bg-slate-50 px-3 py-4 text-center text-sm text-slate-600">{NO_INVOICES}</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200" aria-label="Invoices">
            {documents.data.map((invoice) => (
              <InvoiceRow key={invoice.id} invoice={invoice} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="upgrades-heading" className="space-y-2">
        <h3 id="upgrades-heading" className="text-sm font-semibold text-slate-900">
          License upgrades
        </h3>
        {upgrades.isError ? (
          <Alert>{PURCHASED_UPGRADES_FAILED}</Alert>
        ) : purchased.length === 0 ? (
          <p className="rounded-lg bg-slate-50 px-3 py-4 text-center text-sm text-slate-600">No upgrades yet.</p>
        ) : (
          <ul className="space-y-2" aria-label="Purchased upgrades">
            {purchased.map((upgrade) => (
              <PurchasedUpgradeRow key={`${upgrade.source}-${upgrade.id}`} upgrade={upgrade} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="orders-heading" className="space-y-2">
        <h3 id="orders-heading" className="text-sm font-semibold text-slate-900">
          Orders
        </h3>
        {orders.length === 0 ? (
          <p className="rounded-lg bg-slate-50 px-3 py-4 text-center text-sm text-slate-600">No purchases yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200" aria-label="Purchases">
            {orders.map((order) => (
              <li key={order.id} className="flex items-center justify-between px-3 py-2.5 text-sm">
                <span className="font-medium text-slate-800">Order #{order.id}</span>
                <time dateTime={order.created_at} className="text-slate-600">
                  {dateFormat.format(new Date(order.created_at))}
                </time>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export const INVOICES_FAILED = 'Failed to load your invoices. Please try again later.';
export const NO_INVOICES = 'No invoices yet.';
const INVOICE_FAILED = 'Failed to download the invoice. Please try again.';
const KIND_LABEL = { invoice: 'Invoice', credit_note: 'Credit note' } as const;
const STATUS_LABEL: Partial<Record<InvoiceSummary['status'], string>> = {
  completed: 'Paid',
  needs_refund: 'Paid',
  review: 'Paid',
  refunded: 'Refunded',
  disputed: 'Disputed',
  charged_back: 'Charged back',
};

/** One invoice or credit note: number, date, total (a credit note's as a negative amount), status and its PDF. */
function InvoiceRow({ invoice }: { invoice: InvoiceSummary }) {
  const [downloading, setDownloading] = useState(false);
  const kind = KIND_LABEL[invoice.kind];
  const isCredit = invoice.kind === 'credit_note';
  const status = isCredit ? 'Refunded' : (STATUS_LABEL[invoice.status] ?? 'Paid');
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 px-3 py-2.5 text-sm" data-testid="invoice">
      <div className="min-w-0">
        <p className="font-medium text-slate-900">
          {kind} {invoice.number}
        </p>
        <p className="text-xs text-slate-600">
          <time dateTime={invoice.issued_at}>{dateFormat.format(new Date(invoice.issued_at))}</time> · Order #
          {invoice.order_id}
          {invoice.credited_invoice_number ? ` · for invoice ${invoice.credited_invoice_number}` : ''}
        </p>
      </div>
      <div className="flex items-center gap-2">
        <span className="font-semibold text-slate-900 tabular-nums">
          {formatUsd(isCredit ? -invoice.total : invoice.total)}
        </span>
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
        <Button
          size="sm"
          variant="ghost"
          disabled={downloading}
          aria-label={`Download ${kind.toLowerCase()} ${invoice.number} (PDF)`}
          onClick={() => {
            setDownloading(true);
            downloadInvoice(invoice.id)
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

export const PURCHASED_UPGRADES_FAILED = 'Failed to load your upgrades. Please try again later.';
const RECEIPT_FAILED = 'Failed to download the receipt. Please try again.';
const SOURCE_LABEL = { card: 'Card', paypal: 'PayPal', token: 'Upgrade token' } as const;

/** One purchased upgrade: date, path, subtotal, VAT, total, status and (when paid) its receipt. */
function PurchasedUpgradeRow({ upgrade }: { upgrade: PurchasedUpgrade }) {
  const [downloading, setDownloading] = useState(false);
  const receiptUrl = upgrade.receipt_url;
  const rateBp = vatRateBpFromPercent(upgrade.vat_rate) ?? 0;
  return (
    <li className="rounded-lg border border-slate-200 p-3 text-sm" data-testid="purchased-upgrade">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium text-slate-900">
          {upgrade.upgrade_from} to {upgrade.upgrade_to}
        </span>
        <Badge
          className={upgrade.status === 'completed' ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-200 text-slate-700'}
        >
          {upgrade.status === 'completed' ? 'Completed' : 'Refunded'}
        </Badge>
      </div>
      <p className="text-xs text-slate-600">
        <time dateTime={upgrade.created_at}>{dateFormat.format(new Date(upgrade.created_at))}</time> ·{' '}
        {SOURCE_LABEL[upgrade.source]} · <span className="font-mono break-all">{upgrade.license_key}</span>
      </p>
      <dl className="mt-2 grid grid-cols-3 gap-2 text-xs">
        <div>
          <dt className="text-slate-500">Subtotal</dt>
          <dd className="text-slate-900 tabular-nums">{formatUsd(upgrade.subtotal)}</dd>
        </div>
        <div>
          <dt className="text-slate-500">{upgrade.reverse_charge ? 'VAT' : `VAT (${formatVatRate(rateBp)})`}</dt>
          <dd className="text-slate-900 tabular-nums">
            {upgrade.reverse_charge ? REVERSE_CHARGE_LABEL : formatUsd(upgrade.vat_amount)}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Total</dt>
          <dd className="font-semibold text-slate-900 tabular-nums">{formatUsd(upgrade.amount_paid)}</dd>
        </div>
      </dl>
      {receiptUrl ? (
        <Button
          size="sm"
          variant="ghost"
          className="mt-2 -ml-3"
          disabled={downloading}
          onClick={() => {
            setDownloading(true);
            downloadReceipt(receiptUrl)
              .catch(() => toast.error(RECEIPT_FAILED))
              .finally(() => setDownloading(false));
          }}
        >
          <FileDown aria-hidden="true" className="size-4" />
          {downloading ? 'Downloading…' : 'Receipt (PDF)'}
        </Button>
      ) : null}
    </li>
  );
}
