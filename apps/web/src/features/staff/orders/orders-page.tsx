import { DISPUTE_STATES, ORDER_STATUSES, type DisputeState, type StaffOrder } from '@keyport/shared/contracts/payments';
import { formatUsd } from '@keyport/shared/domain/money';
import { Badge } from '../../../components/ui/badge';
import { ConfirmAction } from '../components/confirm-action';
import { DataTable, type Column } from '../components/data-table';
import { StaffPageHeader } from '../components/staff-layout';
import { TableFilters, type FilterField } from '../components/table-filters';
import { createdOrder, NEWEST_FIRST, useTableParams } from '../components/use-table-params';
import { useOrders, type OrdersQuery } from './api/list-orders';
import { useRefundOrder } from './api/refund-order';

const FILTERS = ['status', 'dispute', 'provider'] as const;
type Filter = (typeof FILTERS)[number];

/** How a dispute stands, in staff words (issue 19). */
const DISPUTE_LABELS: Record<DisputeState, string> = {
  open: 'open',
  funds_withdrawn: 'funds withdrawn',
  won: 'won',
  lost: 'lost (charged back)',
};

const FILTER_FIELDS: FilterField<Filter>[] = [
  { name: 'status', label: 'Status', options: ORDER_STATUSES.map((status) => ({ value: status, label: status })) },
  {
    name: 'dispute',
    label: 'Dispute',
    options: [
      { value: 'any', label: 'any dispute' },
      ...DISPUTE_STATES.map((state) => ({ value: state, label: DISPUTE_LABELS[state] })),
    ],
  },
  {
    name: 'provider',
    label: 'Paid with',
    options: [
      { value: 'card', label: 'Card' },
      { value: 'paypal', label: 'PayPal' },
    ],
  },
];

/** What the order bought: 'LITE → REGULAR' or '12 credits'. */
const bought = (order: StaffOrder) =>
  order.kind === 'upgrade' ? `${order.from} → ${order.to}` : `${order.credits ?? 0} credits`;

/** Only a completed or disputed order has money to give back (the server says 409 otherwise). */
const refundable = (order: StaffOrder) => order.status === 'completed' || order.status === 'disputed';

function RefundAction({ order }: { order: StaffOrder }) {
  const refund = useRefundOrder();
  return (
    <ConfirmAction
      triggerLabel="Refund"
      title={`Refund order ${order.id}?`}
      description={`${formatUsd(order.total_amount)} goes back to ${order.email} through ${
        order.method === 'paypal' ? 'PayPal' : 'the card provider'
      }. When the provider confirms, the order is marked refunded and ${
        order.kind === 'upgrade' ? 'the license goes back to its tier before the upgrade' : 'the credits are taken back'
      }.`}
      confirmLabel="Refund"
      tone="danger"
      onConfirm={(reason) => refund.mutateAsync({ params: { id: String(order.id) }, body: { reason } })}
    />
  );
}

const COLUMNS: Column<StaffOrder>[] = [
  { key: 'id', header: 'Order', cell: (order) => `#${order.id}` },
  {
    key: 'created',
    header: 'Created',
    sortable: true,
    cell: (order) => new Date(order.created_at).toLocaleString(),
  },
  { key: 'customer', header: 'Customer', cell: (order) => order.email },
  {
    key: 'bought',
    header: 'Bought',
    cell: (order) => (
      <>
        <div>{bought(order)}</div>
        {order.license_key ? <div className="font-mono text-xs text-slate-500">{order.license_key}</div> : null}
      </>
    ),
  },
  {
    key: 'status',
    header: 'Status',
    cell: (order) => (
      <div className="space-y-1">
        <Badge className="bg-slate-100 text-slate-800">{order.status}</Badge>
        {order.dispute_state ? (
          <div className="text-xs">
            <Badge className="rounded-md bg-amber-100 text-amber-900">
              Dispute: {DISPUTE_LABELS[order.dispute_state]}
            </Badge>
            {order.dispute_ref ? (
              <div className="mt-0.5 font-mono break-all text-slate-500">{order.dispute_ref}</div>
            ) : null}
          </div>
        ) : null}
        {order.processing_error ? (
          <div className="max-w-56 text-xs text-slate-600">{order.processing_error}</div>
        ) : null}
      </div>
    ),
  },
  {
    key: 'provider',
    header: 'Provider',
    cell: (order) => (
      <>
        <div>{order.method === 'paypal' ? 'PayPal' : 'Card'}</div>
        <div className="font-mono text-xs break-all text-slate-500">{order.provider_payment_id ?? '—'}</div>
      </>
    ),
  },
  {
    key: 'amounts',
    header: 'Amounts',
    cell: (order) => (
      <>
        <div className="font-medium">{formatUsd(order.total_amount)}</div>
        <div className="text-xs text-slate-500">
          {formatUsd(order.base_amount)} + VAT {formatUsd(order.vat_amount)}
        </div>
      </>
    ),
  },
  {
    key: 'vat',
    header: 'VAT evidence',
    cell: (order) => (
      <div className="text-xs">
        <div>
          {order.billing_country} · {order.vat_rate}%{order.reverse_charge ? ' · reverse charge' : ''}
        </div>
        {order.vat_id ? <div>VAT ID {order.vat_id}</div> : null}
        {order.vat_consultation_number ? <div>Consultation {order.vat_consultation_number}</div> : null}
      </div>
    ),
  },
  { key: 'actions', header: 'Actions', cell: (order) => (refundable(order) ? <RefundAction order={order} /> : null) },
];

/** Issue 12: card and PayPal orders with provider ids and VAT evidence; a refund is asked of the provider. */
export function OrdersPage() {
  const params = useTableParams({ filters: FILTERS, defaultSort: NEWEST_FIRST });
  const query: OrdersQuery = {
    ...(params.filters.status ? { status: params.filters.status as OrdersQuery['status'] } : {}),
    ...(params.filters.dispute ? { dispute: params.filters.dispute as OrdersQuery['dispute'] } : {}),
    ...(params.filters.provider ? { provider: params.filters.provider as OrdersQuery['provider'] } : {}),
    ...createdOrder(params.sort),
    ...(params.cursor ? { cursor: params.cursor } : {}),
  };
  const orders = useOrders(query);
  return (
    <>
      <StaffPageHeader
        title="Orders"
        description="Card and PayPal orders for upgrades and credit packs. A refund goes through the provider; its confirmation then reverts the upgrade or the credits. Disputes follow the provider: withdrawn funds take the upgrade back, a lost dispute charges the order back."
      />
      <TableFilters fields={FILTER_FIELDS} params={params} label="Filter orders" />
      <DataTable
        caption="Orders"
        columns={COLUMNS}
        rowKey={(order) => order.id}
        rows={orders.data?.orders}
        isPending={orders.isPending}
        error={orders.error}
        onRetry={() => void orders.refetch()}
        nextCursor={orders.data?.next_cursor}
        params={params}
        emptyText="No orders match."
      />
    </>
  );
}
