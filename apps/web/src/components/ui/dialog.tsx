import { X } from 'lucide-react';
import { Dialog as D } from 'radix-ui';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/cn';

export const Dialog = D.Root;
export const DialogClose = D.Close;

interface DialogContentProps extends ComponentProps<typeof D.Content> {
  title: string;
  description?: ReactNode;
  /** While busy the dialog cannot be dismissed (Escape, outside click and the close button are ignored). */
  busy?: boolean;
  size?: 'md' | 'lg' | 'xl' | 'full';
}

/** A centred dialog that traps focus and closes on Escape (unless busy). */
export function DialogContent({
  title,
  description,
  busy,
  size = 'md',
  className,
  children,
  ...props
}: DialogContentProps) {
  const block = (event: Event) => {
    if (busy) event.preventDefault();
  };
  return (
    <D.Portal>
      <D.Overlay className="fixed inset-0 z-40 bg-slate-900/40 backdrop-blur-[1px]" />
      <D.Content
        onEscapeKeyDown={block}
        onPointerDownOutside={block}
        onInteractOutside={block}
        className={cn(
          'fixed z-50 overflow-y-auto bg-white shadow-xl',
          size === 'full'
            ? 'inset-0 p-4 sm:p-6'
            : 'top-1/2 left-1/2 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 rounded-2xl p-5 sm:p-6',
          size === 'xl' ? 'max-w-5xl' : size === 'lg' ? 'max-w-lg' : size === 'md' ? 'max-w-md' : null,
          className,
        )}
        {...(description ? {} : { 'aria-describedby': undefined })}
        {...props}
      >
        <div className={cn('mb-4 pr-8', size === 'full' && 'mx-auto max-w-6xl')}>
          <D.Title className="text-lg font-semibold text-slate-900">{title}</D.Title>
          {description ? <D.Description className="mt-1 text-sm text-slate-600">{description}</D.Description> : null}
        </div>
        {children}
        {/* After the content, so opening the dialog focuses its first field rather than the close button. */}
        <D.Close
          disabled={busy}
          aria-label="Close"
          className="absolute top-4 right-4 rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800 disabled:opacity-40"
        >
          <X aria-hidden="true" className="size-5" />
        </D.Close>
      </D.Content>
    </D.Portal>
  );
}
