import type { CreditLedgerEntry, StaffStoreReport } from '@keyport/shared/contracts/credits';
import type { InvoiceSummary } from '@keyport/shared/contracts/invoices';
import type { StaffCustomer, StaffCustomerKey, StaffCustomerOrder } from '@keyport/shared/contracts/staff-customers';
import type { ThemeFileUpdateRun } from '@keyport/shared/contracts/theme-file-updates';
import { creditsLabel } from '@keyport/shared/domain/credit-packs';
import { normaliseOptionalText } from '@keyport/shared/domain/empty-value';
import { formatUsd } from '@keyport/shared/domain/money';
import { formatUtcDate } from '@keyport/shared/domain/support-status';
import { Link, useParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverMessage } from '../../../lib/api-client';
import { StaffPageHeader } from '../components/staff-layout';
import { staffPaths } from '../staff-paths';
import { useCustomer } from './api/get-customer';
import { AdjustCreditsAction } from './components/adjust-credits-action';
import { DetailSection, type DetailColumn } from './components/detail-table';
import { KeyActions } from './components/key-actions';
import { MintKeysAction } from './components/mint-keys-action';

const day = (iso: string | null) => (iso ? formatUtcDate(new Date(iso)) : '—');
const money = (cents: number, currency: string) =>
  currency.toLowerCase() === 'usd' ? formatUsd(cents) : `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
/** The key's store domains as stored, each once, without the empty ones (§3: the text 'None' means empty). */
const domains = (key: StaffCustomerKey) => [
  ...new Set(
    [key.myshopify, key.main_url, key.secondary_url, key.linked_app_store]
      .map(normaliseOptionalText)
      .filter((value) => value !== ''),
  ),
];

function keyColumns(customer: StaffCustomer['customer']): DetailColumn<StaffCustomerKey>[] {
  return [
    { header: 'License key', cell: (key) => <code className="text-xs">{key.api_key}</code> },
    { header: 'Tier', cell: (key) => key.tier },
    {
      header: 'Store',
      cell: (key) =>
        domains(key).length > 0 ? domains(key).map((host) => <div key={host}>{host}</div>) : 'Not connected',
    },
    { header: 'Claimed', cell: (key) => day(key.claimed_at), className: 'whitespace-nowrap' },
    {
      header: 'Actions',
      cell: (key) => <KeyActions customerId={customer.id} email={customer.email} keyRow={key} />,
    },
  ];
}

const storeColumns: DetailColumn<StaffCustomer['stores'][number]>[] = [
  { header: 'myshopify domain', cell: (store) => store.myshopify_domain },
];

const orderColumns: DetailColumn<StaffCustomerOrder>[] = [
  { header: 'Order', cell: (order) => `#${order.id}` },
  {
    header: 'What',
    cell: (order) =>
      order.kind === 'upgrade'
        ? `${order.from_tier} → ${order.to_tier} (${order.license_key})`
        : `${creditsLabel(order.credits ?? 0)} pack`,
  },
  { header: 'Status', cell: (order) => order.status },
  {
    header: 'Provider',
    cell: (order) => `${order.provider}${order.provider_payment_id ? ` · ${order.provider_payment_id}` : ''}`,
  },
  { header: 'Total', cell: (order) => money(order.total, order.currency), className: 'tabular-nums' },
  { header: 'Date', cell: (order) => day(order.created_at), className: 'whitespace-nowrap' },
];

const invoiceColumns: DetailColumn<InvoiceSummary>[] = [
  { header: 'Number', cell: (invoice) => invoice.number },
  { header: 'Kind', cell: (invoice) => (invoice.kind === 'invoice' ? 'Invoice' : 'Credit note') },
  { header: 'Order', cell: (invoice) => `#${invoice.order_id}` },
  { header: 'Total', cell: (invoice) => money(invoice.total, invoice.currency), className: 'tabular-nums' },
  { header: 'Issued', cell: (invoice) => day(invoice.issued_at), className: 'whitespace-nowrap' },
];

const runColumns: DetailColumn<ThemeFileUpdateRun>[] = [
  { header: 'Run', cell: (run) => `#${run.id}` },
  { header: 'Status', cell: (run) => run.status },
  { header: 'From', cell: (run) => run.source.key },
  { header: 'To', cell: (run) => run.target.key },
  { header: 'Started', cell: (run) => day(run.created_at), className: 'whitespace-nowrap' },
];

const ledgerColumns: DetailColumn<CreditLedgerEntry>[] = [
  { header: 'Date', cell: (entry) => day(entry.created_at), className: 'whitespace-nowrap' },
  { header: 'Kind', cell: (entry) => entry.kind },
  {
    header: 'Amount',
    cell: (entry) => (entry.amount > 0 ? `+${entry.amount}` : String(entry.amount)),
    className: 'tabular-nums',
  },
  { header: 'Balance after', cell: (entry) => entry.balance_after, className: 'tabular-nums' },
  { header: 'Note', cell: (entry) => entry.note ?? '' },
];

const reportColumns: DetailColumn<StaffStoreReport>[] = [
  { header: 'Report', cell: (report) => `#${report.id}` },
  { header: 'Status', cell: (report) => report.status },
  { header: 'Domains', cell: (report) => report.domains.map((d) => d.domain).join(', ') },
  { header: 'Sent', cell: (report) => day(report.created_at), className: 'whitespace-nowrap' },
  { header: 'Review note', cell: (report) => report.review_note ?? '' },
];

/** `/staff/customers/:id`: everything the portal knows about one customer, and the actions staff take on it. */
export function CustomerPage() {
  const { id = '' } = useParams();
  const { data, isPending, error } = useCustomer(id);
  const back = (
    <Link to={staffPaths.customers} className="text-sm text-brand-700 underline-offset-2 hover:underline">
      ← All customers
    </Link>
  );
  if (isPending)
    return (
      <div className="space-y-3" aria-busy="true">
        {back}
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-32 w-full" />
      </div>
    );
  if (error || !data)
    return (
      <div className="space-y-3">
        {back}
        <Alert>{serverMessage(error) ?? 'Could not load this customer.'}</Alert>
      </div>
    );
  const { customer, credits } = data;
  return (
    <div className="space-y-8">
      <div>
        {back}
        <StaffPageHeader
          title={customer.email}
          description={`${customer.name} · ${customer.role ?? 'customer'} · joined ${day(customer.created_at)}`}
          actions={
            <>
              <MintKeysAction customerId={customer.id} email={customer.email} />
              <AdjustCreditsAction email={customer.email} />
            </>
          }
        />
      </div>
      <DetailSection
        id="customer-keys"
        title={`Keys (${data.keys.length})`}
        caption="Keys"
        columns={keyColumns(customer)}
        rows={data.keys}
        emptyText="No keys."
      />
      <DetailSection
        id="customer-stores"
        title="Stores"
        columns={storeColumns}
        rows={data.stores}
        emptyText="No stores connected through the app."
      />
      <DetailSection
        id="customer-orders"
        title="Orders"
        columns={orderColumns}
        rows={data.orders}
        emptyText="No orders."
      />
      <DetailSection
        id="customer-invoices"
        title="Invoices"
        columns={invoiceColumns}
        rows={data.invoices}
        emptyText="No invoices."
      />
      <DetailSection
        id="customer-upgrades"
        title="Theme upgrades"
        columns={runColumns}
        rows={data.upgrade_runs}
        emptyText="No theme upgrades."
      />
      <DetailSection
        id="customer-credits"
        title="Credits"
        caption="Recent credit movements"
        columns={ledgerColumns}
        rows={credits.recent}
        emptyText="No credit movements."
      >
        <p className="text-sm text-slate-800" data-testid="customer-credits-balance">
          Balance <strong>{creditsLabel(credits.balance)}</strong>
          {credits.owed > 0 ? <> · owes {creditsLabel(credits.owed)}</> : null}
          {credits.pending > 0 ? <> · {creditsLabel(credits.pending)} pending review</> : null}
        </p>
      </DetailSection>
      <DetailSection
        id="customer-reports"
        title="Store reports"
        columns={reportColumns}
        rows={data.reports}
        emptyText="No store reports."
      />
    </div>
  );
}
