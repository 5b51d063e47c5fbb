import { useId, type ComponentProps, type ReactNode } from 'react';
import { Input } from './input';

interface FieldProps extends ComponentProps<'input'> {
  label: string;
  /** What is wrong with the value: shown under the field, which is marked invalid and described by it. */
  error?: string | null;
  /** Something the person should know about the value (e.g. how it was normalised): shown under the field. */
  notice?: string | null;
  hint?: string;
  /** Beside the input, on the same line (e.g. a remove button). */
  trailing?: ReactNode;
}

/**
 * A labelled input. Its error, notice and hint sit under it and describe it (aria-describedby); an error also marks it
 * aria-invalid and is announced.
 */
export function Field({ label, error, notice, hint, trailing, id, ...props }: FieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const ids = { error: `${inputId}-error`, notice: `${inputId}-notice`, hint: `${inputId}-hint` };
  const describedBy =
    [error ? ids.error : null, notice ? ids.notice : null, hint ? ids.hint : null].filter(Boolean).join(' ') ||
    undefined;
  const input = (
    <Input id={inputId} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...props} />
  );
  return (
    <div className="space-y-1.5">
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {trailing ? (
        <div className="flex items-center gap-2">
          <div className="min-w-0 flex-1">{input}</div>
          {trailing}
        </div>
      ) : (
        input
      )}
      {error ? (
        <p id={ids.error} role="alert" className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
      {notice ? (
        <p id={ids.notice} role="status" className="text-sm text-slate-700" data-testid="field-notice">
          {notice}
        </p>
      ) : null}
      {hint ? (
        <p id={ids.hint} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
