import { Check, Copy } from 'lucide-react';
import { cn } from '../../../lib/cn';
import { useCopyToClipboard } from '../../../lib/use-copy-to-clipboard';

/** A masked preview of the token: the start and the end, the middle hidden. */
export function maskToken(token: string): string {
  return token.length <= 24 ? '•'.repeat(token.length) : `${token.slice(0, 12)}••••••••${token.slice(-8)}`;
}

/** §2 "an authentication token box with a masked preview, click to copy" (copied state for 3 seconds). */
export function TokenBox({ token }: { token: string }) {
  const { copied, copy } = useCopyToClipboard();

  return (
    <button
      type="button"
      onClick={() => void copy(token)}
      aria-label={copied ? 'Token copied' : 'Copy authentication token'}
      data-testid="token-box"
      className={cn(
        'flex w-full items-center gap-3 rounded-lg border px-3 py-2.5 text-left font-mono text-sm transition-colors',
        copied
          ? 'border-emerald-300 bg-emerald-50 text-emerald-800'
          : 'border-slate-300 bg-slate-50 text-slate-800 hover:bg-slate-100',
      )}
    >
      <span className="min-w-0 flex-1 truncate">{maskToken(token)}</span>
      {copied ? (
        <Check aria-hidden="true" className="size-4 shrink-0" />
      ) : (
        <Copy aria-hidden="true" className="size-4 shrink-0" />
      )}
      <span className="sr-only" aria-live="polite">
        {copied ? 'Copied' : ''}
      </span>
    </button>
  );
}
