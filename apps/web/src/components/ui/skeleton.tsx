import { cn } from '../../lib/cn';

export function Skeleton({ className }: { className?: string }) {
  return (
    <div
      aria-hidden="true"
      className={cn('animate-pulse bg-slate-200', className?.includes('rounded') ? null : 'rounded-md', className)}
    />
  );
}
