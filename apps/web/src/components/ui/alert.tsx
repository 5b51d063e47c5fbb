import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

export function Alert({
  tone = 'error',
  children,
  className,
}: {
  tone?: 'error' | 'info' | 'success';
  children: ReactNode;
  className?: string;
}) {
  const tones = {
    error: 'border-red-200 bg-red-50 text-red-800',
    info: 'border-slate-200 bg-slate-50 text-slate-700',
    success: 'border-emerald-200 bg-emerald-50 text-emerald-800',
  };
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn('rounded-lg border px-3 py-2 text-sm', tones[tone], className)}
    >
      {children}
    </div>
  );
}
