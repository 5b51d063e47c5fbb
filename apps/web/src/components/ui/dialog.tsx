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
  size?: 'md' | 'lg';
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
          'fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-5 shadow-xl sm:p-6',
          size === 'lg' ? 'max-w-lg' : 'max-w-md',
          className,
        )}
        {...(description ? {} : { 'aria-describedby': undefined })}
        {...props}
      >
        <div className="mb-4 pr-8">
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
