import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

/** A native choice (the browser's own list: keyboard and screen readers for free), styled like `Input`. */
export function Select({ className, ...props }: ComponentProps<'select'>) {
  return (
    <select
      className={cn(
        'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none',
        className,
      )}
      {...props}
    />
  );
}
