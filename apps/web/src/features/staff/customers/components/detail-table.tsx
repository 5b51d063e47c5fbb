import type { ReactNode } from 'react';
import { cn } from '../../../../lib/cn';

export interface DetailColumn<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  className?: string;
}

/**
 * One section's rows on the customer page: everything the server answered (the lists are short, the latest 50), no
 * paging. Scrolls sideways on a narrow screen.
 */
export function DetailTable<Row extends { id: number }>({
  caption,
  columns,
  rows,
  emptyText,
}: {
  caption: string;
  columns: DetailColumn<Row>[];
  rows: Row[];
  emptyText: string;
}) {
  if (rows.length === 0) return <p className="text-sm text-slate-600">{emptyText}</p>;
  return (
    <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table className="w-full border-collapse text-left">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50">
          <tr>
            {columns.map((column) => (
              <th
                key={column.header}
                scope="col"
                className="px-3 py-2 text-xs font-semibold tracking-wide whitespace-nowrap text-slate-600 uppercase"
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className="border-t border-slate-100 align-top">
              {columns.map((column) => (
                <td key={column.header} className={cn('px-3 py-2 text-sm text-slate-800', column.className)}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A titled section of the customer page (an h2 the screen reader's heading list finds) with its table; `children` go
 * between the title and the table.
 */
export function DetailSection<Row extends { id: number }>({
  id,
  title,
  caption = title,
  children,
  ...table
}: {
  id: string;
  title: string;
  caption?: string;
  children?: ReactNode;
  columns: DetailColumn<Row>[];
  rows: Row[];
  emptyText: string;
}) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
      <DetailTable caption={caption} {...table} />
    </section>
  );
}
