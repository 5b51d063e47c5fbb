import type { FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import type { TableParams } from './use-table-params';

export interface FilterField<F extends string> {
  name: F;
  label: string;
  placeholder?: string;
  /** A choice instead of free text ('' is "any"). */
  options?: { value: string; label: string }[];
}

const selectClass =
  'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none';

/**
 * A table's filters as a form: Apply writes them to the URL (first page), Clear removes them. The fields show the
 * URL's values, also after Back or a shared link (the form remounts when they change).
 */
export function TableFilters<F extends string>({
  fields,
  params,
  label = 'Filters',
}: {
  fields: FilterField<F>[];
  params: TableParams<F>;
  label?: string;
}) {
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const next: Partial<Record<F, string>> = {};
    for (const field of fields) next[field.name] = String(data.get(field.name) ?? '');
    params.setFilters(next);
  };
  const clear = () => {
    const next: Partial<Record<F, undefined>> = {};
    for (const field of fields) next[field.name] = undefined;
    params.setFilters(next);
  };
  const active = fields.some((field) => params.filters[field.name]);
  return (
    <form
      key={JSON.stringify(params.filters)}
      role="search"
      aria-label={label}
      onSubmit={apply}
      className="mb-4 grid items-end gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-[repeat(auto-fit,minmax(10rem,1fr))_auto]"
    >
      {fields.map((field) =>
        field.options ? (
          <div key={field.name} className="space-y-1.5">
            <label htmlFor={`filter-${field.name}`} className="block text-sm font-medium text-slate-700">
              {field.label}
            </label>
            <select
              id={`filter-${field.name}`}
              name={field.name}
              defaultValue={params.filters[field.name] ?? ''}
              className={selectClass}
            >
              <option value="">Any</option>
              {field.options.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <Field
            key={field.name}
            id={`filter-${field.name}`}
            name={field.name}
            label={field.label}
            placeholder={field.placeholder}
            defaultValue={params.filters[field.name] ?? ''}
          />
        ),
      )}
      <div className="flex gap-2">
        <Button type="submit">Apply</Button>
        {active ? (
          <Button variant="secondary" onClick={clear}>
            Clear
          </Button>
        ) : null}
      </div>
    </form>
  );
}
