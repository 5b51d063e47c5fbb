import type { ReactNode } from 'react';
import { Alert } from '../../../../components/ui/alert';
import { Skeleton } from '../../../../components/ui/skeleton';
import { serverMessage } from '../../../../lib/api-client';

/** One catalogue list: a heading, its actions, and its table (or its loading / error state). */
export function CatalogueSection({
  title,
  actions,
  query,
  children,
}: {
  title: string;
  actions?: ReactNode;
  query: { isPending: boolean; error: unknown };
  children: ReactNode;
}) {
  const id = title.toLowerCase().replaceAll(' ', '-');
  return (
    <section aria-labelledby={id} className="mb-10">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {actions}
      </div>
      {query.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : query.error ? (
        <Alert>{serverMessage(query.error) ?? 'Could not load this list.'}</Alert>
      ) : (
        <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">{children}</div>
      )}
    </section>
  );
}

export function CatalogueTable({
  caption,
  headers,
  children,
}: {
  caption: string;
  headers: string[];
  children: ReactNode;
}) {
  return (
    <table className="w-full border-collapse text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead className="bg-slate-50">
        <tr>
          {headers.map((header) => (
            <th key={header} scope="col" className="px-3 py-2 text-xs font-semibold text-slate-600 uppercase">
              {header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** A table cell of the catalogue's lists. */
export const cell = 'border-t border-slate-100 px-3 py-2 align-top';
