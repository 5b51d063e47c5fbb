import { Check, Copy } from 'lucide-react';
import { cn } from '../../lib/cn';
import { useCopyToClipboard } from '../../lib/use-copy-to-clipboard';

/** Copies a value; shows a green confirmation for 3 seconds (§9), then returns to normal. */
export function CopyButton({ value, label, className }: { value: string; label: string; className?: string }) {
  const { copied, copy } = useCopyToClipboard();

  return (
    <button
      type="button"
      onClick={() => void copy(value)}
      aria-label={copied ? 'Copied' : label}
      title={copied ? 'Copied' : label}
      className={cn(
        'inline-flex size-8 shrink-0 items-center justify-center rounded-md transition-colors',
        copied ? 'bg-emerald-100 text-emerald-700' : 'text-slate-500 hover:bg-slate-100 hover:text-slate-800',
        className,
      )}
    >
      {copied ? <Check aria-hidden="true" className="size-4" /> : <Copy aria-hidden="true" className="size-4" />}
      <span aria-live="polite" className="sr-only">
        {copied ? 'Copied' : ''}
      </span>
    </button>
  );
}
