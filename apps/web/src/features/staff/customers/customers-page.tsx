import type { StaffCustomerSummary } from '@keyport/shared/contracts/staff-customers';
import { creditsLabel } from '@keyport/shared/domain/credit-packs';
import { formatUtcDate } from '@keyport/shared/domain/support-status';
import { Link } from 'react-router';
import { DataTable, type Column } from '../components/data-table';
import { StaffPageHeader } from '../components/staff-layout';
import { TableFilters } from '../components/table-filters';
import { useTableParams } from '../components/use-table-params';
import { staffPaths } from '../staff-paths';
import { useCustomers } from './api/list-customers';

const columns: Column<StaffCustomerSummary>[] = [
  {
    key: 'email',
    header: 'Email',
    cell: (customer) => (
      <Link
        to={staffPaths.customer(customer.id)}
        className="font-medium text-brand-700 underline-offset-2 hover:underline"
      >
        {customer.email}
      </Link>
    ),
  },
  { key: 'name', header: 'Name', cell: (customer) => customer.name },
  { key: 'role', header: 'Role', cell: (customer) => customer.role ?? 'customer' },
  { key: 'keys', header: 'Keys', cell: (customer) => customer.keys, className: 'tabular-nums' },
  {
    key: 'credits',
    header: 'Credits',
    cell: (customer) => creditsLabel(customer.credits_balance),
    className: 'whitespace-nowrap tabular-nums',
  },
  {
    key: 'created_at',
    header: 'Joined',
    cell: (customer) => formatUtcDate(new Date(customer.created_at)),
    className: 'whitespace-nowrap',
  },
];

/** `/staff/customers`: search by email, license key or store domain (held in the URL as `?q=`), a page at a time. */
export function CustomersPage() {
  const params = useTableParams({ filters: ['q'] });
  const { data, isPending, error, refetch } = useCustomers({ q: params.filters.q, cursor: params.cursor });
  return (
    <>
      <StaffPageHeader
        title="Customers"
        description="Find an account by its email, one of its license keys, or a store domain its keys are connected to."
      />
      <TableFilters
        label="Search customers"
        params={params}
        fields={[{ name: 'q', label: 'Search', placeholder: 'Email, license key or domain' }]}
      />
      <DataTable
        caption="Customers"
        columns={columns}
        rowKey={(customer) => customer.id}
        rows={data?.customers}
        isPending={isPending}
        error={error}
        onRetry={() => void refetch()}
        nextCursor={data?.next_cursor}
        params={params}
        emptyText={params.filters.q ? `No customer matches “${params.filters.q}”.` : 'No customers yet.'}
      />
    </>
  );
}
