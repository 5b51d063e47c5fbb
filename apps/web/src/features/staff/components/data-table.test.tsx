import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { DataTable, type Column } from './data-table';
import { TableFilters } from './table-filters';
import { useTableParams } from './use-table-params';

interface Row {
  id: number;
  email: string;
}

/** A server of three pages: cursor undefined → 'c2' → 'c3' → end. */
const PAGES: Record<string, { rows: Row[]; next: string | null }> = {
  first: { rows: [{ id: 1, email: 'a@example.com' }], next: 'c2' },
  c2: { rows: [{ id: 2, email: 'b@example.com' }], next: 'c3' },
  c3: { rows: [{ id: 3, email: 'c@example.com' }], next: null },
};

const columns: Column<Row>[] = [
  { key: 'id', header: 'Id', cell: (row) => row.id, sortable: true },
  { key: 'email', header: 'Email', cell: (row) => row.email },
];

function Search() {
  return <output data-testid="search">{useLocation().search}</output>;
}

function Table({ state = 'ready' }: { state?: 'ready' | 'pending' | 'error' | 'empty' }) {
  const params = useTableParams({ filters: ['email', 'status'] });
  const page = PAGES[params.cursor ?? 'first']!;
  return (
    <>
      <TableFilters
        params={params}
        fields={[
          { name: 'email', label: 'Email' },
          { name: 'status', label: 'Status', options: [{ value: 'used', label: 'Used' }] },
        ]}
      />
      <DataTable
        caption="Customers"
        columns={columns}
        rowKey={(row) => row.id}
        rows={state === 'empty' ? [] : state === 'ready' ? page.rows : undefined}
        isPending={state === 'pending'}
        error={state === 'error' ? new ApiError(403, 'Staff only', 'forbidden') : null}
        nextCursor={page.next}
        params={params}
        emptyText="No customers match."
      />
      <Search />
    </>
  );
}

const renderAt = (url: string, state?: 'ready' | 'pending' | 'error' | 'empty') =>
  render(
    <MemoryRouter initialEntries={[url]}>
      <Table state={state} />
    </MemoryRouter>,
  );

const search = () => new URLSearchParams(screen.getByTestId('search').textContent ?? '');
const cellTexts = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.textContent);

describe('DataTable with useTableParams (cursor paging, URL state)', () => {
  it('pages forward and back with the server cursors, keeping them in the URL', async () => {
    const user = userEvent.setup();
    renderAt('/staff/customers');
    expect(cellTexts()).toEqual(['1a@example.com']);
    expect(screen.getByRole('button', { name: 'Previous' })).toHaveProperty('disabled', true);

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(cellTexts()).toEqual(['2b@example.com']);
    expect(search().get('cursor')).toBe('c2');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(cellTexts()).toEqual(['3c@example.com']);
    expect(search().getAll('prev')).toEqual(['', 'c2']);
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true);

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(cellTexts()).toEqual(['2b@example.com']);
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(cellTexts()).toEqual(['1a@example.com']);
    expect(search().has('cursor')).toBe(false);
    expect(search().has('prev')).toBe(false);
  });

  it('starts from the URL: a shared link opens the same page, filters and sort', () => {
    renderAt('/staff/customers?email=b%40example.com&sort=id&order=desc&cursor=c2&prev=');
    expect(cellTexts()).toEqual(['2b@example.com']);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Email' }).value).toBe('b@example.com');
    expect(screen.getByRole('columnheader', { name: /Id/ }).getAttribute('aria-sort')).toBe('descending');
  });

  it('sorts through the URL (ascending, then descending) and goes back to the first page', async () => {
    const user = userEvent.setup();
    renderAt('/staff/customers?cursor=c2&prev=');
    const header = () => screen.getByRole('columnheader', { name: /Id/ });
    expect(header().getAttribute('aria-sort')).toBeNull();
    await user.click(screen.getByRole('button', { name: /Id/ }));
    expect(search().get('sort')).toBe('id');
    expect(search().get('order')).toBe('asc');
    expect(search().has('cursor')).toBe(false);
    expect(header().getAttribute('aria-sort')).toBe('ascending');
    await user.click(screen.getByRole('button', { name: /Id/ }));
    expect(search().get('order')).toBe('desc');
    expect(header().getAttribute('aria-sort')).toBe('descending');
  });

  it('applies and clears filters through the URL, from the first page', async () => {
    const user = userEvent.setup();
    renderAt('/staff/customers?cursor=c3&prev=&prev=c2');
    await user.type(screen.getByRole('textbox', { name: 'Email' }), '  b@example.com ');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'used');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(search().get('email')).toBe('b@example.com');
    expect(search().get('status')).toBe('used');
    expect(search().has('cursor')).toBe(false);
    expect(search().has('prev')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(search().has('email')).toBe(false);
    expect(search().has('status')).toBe(false);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Email' }).value).toBe('');
  });

  it('shows loading, empty and error states', () => {
    const { unmount } = renderAt('/staff/customers', 'pending');
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true);
    unmount();

    const empty = renderAt('/staff/customers', 'empty');
    expect(screen.getByText('No customers match.')).toBeTruthy();
    empty.unmount();

    renderAt('/staff/customers', 'error');
    expect(screen.getByRole('alert').textContent).toContain('Staff only');
  });
});
