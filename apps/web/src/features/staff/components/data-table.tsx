import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import type { TableParams } from './use-table-params';

export interface Column<Row> {
  /** Unique per table; also the sort key sent to the server when `sortable`. */
  key: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** The header becomes a button that sorts by `key` through the URL (the server sorts). */
  sortable?: boolean;
  className?: string;
}

export interface DataTableProps<Row, F extends string> {
  /** Names the table for screen readers (a visually hidden caption). */
  caption: string;
  columns: Column<Row>[];
  rowKey: (row: Row) => string | number;
  /** Undefined while the first load runs. */
  rows: Row[] | undefined;
  isPending: boolean;
  error: unknown;
  onRetry?: () => void;
  /** The server's cursor of the next page, null on the last one. */
  nextCursor: string | null | undefined;
  params: TableParams<F>;
  emptyText?: string;
}

const ariaSort = (sorted: false | 'asc' | 'desc') =>
  sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined;

/**
 * A server-paged table: the rows of one page, loading / empty / error states, sortable headers and Previous / Next,
 * all through `params` (useTableParams, the URL). It scrolls sideways on a narrow screen rather than squeezing.
 */
export function DataTable<Row, F extends string>({
  caption,
  columns,
  rowKey,
  rows,
  isPending,
  error,
  onRetry,
  nextCursor,
  params,
  emptyText = 'Nothing to show.',
}: DataTableProps<Row, F>) {
  let body: ReactNode;
  if (isPending) {
    body = Array.from({ length: 5 }, (_, i) => (
      <tr key={i}>
        <td colSpan={columns.length} className="px-3 py-3">
          <Skeleton className="h-4 w-full" />
        </td>
      </tr>
    ));
  } else if (error) {
    body = (
      <tr>
        <td colSpan={columns.length} className="p-3">
          <Alert className="sticky left-3 max-w-[calc(100vw-4rem)]">
            {serverMessage(error) ?? (error instanceof Error ? error.message : 'Could not load this table.')}{' '}
            {onRetry ? (
              <button type="button" className="font-medium underline" onClick={onRetry}>
                Try again
              </button>
            ) : null}
          </Alert>
        </td>
      </tr>
    );
  } else if (!rows || rows.length === 0) {
    body = (
      <tr>
        <td colSpan={columns.length} className="px-3 py-10 text-sm text-slate-600">
          {/* Kept in view on a phone, where the table is wider than the screen and scrolls sideways. */}
          <p className="sticky left-3 max-w-[calc(100vw-4rem)] text-center">{emptyText}</p>
        </td>
      </tr>
    );
  } else {
    body = rows.map((row) => (
      <tr key={rowKey(row)} className="border-t border-slate-100 align-top">
        {columns.map((column) => (
          <td key={column.key} className={cn('px-3 py-2 text-sm text-slate-800', column.className)}>
            {column.cell(row)}
          </td>
        ))}
      </tr>
    ));
  }

  return (
    <div className="space-y-3">
      {/* Focusable, so a keyboard can scroll a wide table sideways on a phone. */}
      <div
        role="region"
        aria-label={caption}
        tabIndex={0}
        className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none"
      >
        <table className="w-full min-w-[44rem] border-collapse text-left" aria-busy={isPending || undefined}>
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-slate-50">
            <tr>
              {columns.map((column) => {
                const sorted = params.sort?.column === column.key ? params.sort.direction : false;
                const SortIcon = sorted === 'asc' ? ArrowUp : sorted === 'desc' ? ArrowDown : ArrowUpDown;
                return (
                  <th
                    key={column.key}
                    scope="col"
                    aria-sort={ariaSort(sorted)}
                    className="px-3 py-2 text-xs font-semibold tracking-wide whitespace-nowrap text-slate-600 uppercase"
                  >
                    {column.sortable ? (
                      <button
                        type="button"
                        className="inline-flex items-center gap-1 rounded uppercase hover:text-slate-900 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none"
                        onClick={() => params.toggleSort(column.key)}
                      >
                        {column.header}
                        <SortIcon aria-hidden="true" className="size-3.5" />
                      </button>
                    ) : (
                      column.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>{body}</tbody>
        </table>
      </div>
      <nav aria-label={`${caption} pages`} className="flex items-center justify-end gap-2">
        <Button variant="secondary" size="sm" disabled={!params.hasPrevious} onClick={params.previous}>
          <ChevronLeft aria-hidden="true" className="size-4" />
          Previous
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={!nextCursor || isPending}
          onClick={() => nextCursor && params.next(nextCursor)}
        >
          Next
          <ChevronRight aria-hidden="true" className="size-4" />
        </Button>
      </nav>
    </div>
  );
}
