import { FileDown } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { PurchasedUpgrade } from '@keyport/shared/contracts/upgrades';
import { formatUsd, formatVatRate } from '@keyport/shared/domain/money';
import { REVERSE_CHARGE_LABEL, vatRateBpFromPercent } from '@keyport/shared/domain/vat';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { useMe } from '../api/get-me';
import { allPurchasedUpgrades, downloadReceipt, usePurchasedUpgrades } from '../api/get-purchased-upgrades';

const dateFormat = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'long', day: 'numeric' });

/** Settings → Invoices: the license upgrades (paid or redeemed, with receipts) beside the orders. */
export function InvoicesTab() {
  const me = useMe();
  const upgrades = usePurchasedUpgrades();
  const orders = me.data?.orders ?? [];
  const purchased = upgrades.data ? allPurchasedUpgrades(upgrades.data) : [];
  const loading = me.isPending || upgrades.isPending;

  if (loading) return <p className="py-6 text-center text-sm text-slate-600">Loading purchases…</p>;
  return (
    <div className="space-y-5">
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
