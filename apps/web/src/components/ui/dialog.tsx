import { X } from 'lucide-react';
import { Dialog as D } from 'radix-ui';
import { useRef, type ComponentProps, type ReactNode } from 'react';
import { cn } from '../../lib/cn';

export const Dialog = D.Root;
export const DialogClose = D.Close;

interface DialogContentProps extends ComponentProps<typeof D.Content> {
  title: string;
  description?: ReactNode;
  /** While busy the dialog cannot be dismissed (Escape, outside click and the close button are ignored). */
  busy?: boolean;
  size?: 'md' | 'lg' | 'xl' | 'full';
  /**
   * What opened the dialog, when it is not what has focus as the dialog appears: a dialog opened from a menu item
   * passes `focusedOpener()` read when the item was chosen (the menu is gone by the time the dialog mounts).
   */
  opener?: HTMLElement | null;
  /** Where focus goes on close when the element that opened the dialog is gone (e.g. its card was removed). */
  fallbackFocus?: () => HTMLElement | null | undefined;
}

/**
 * The element to give focus back to when a dialog closes: the focused one, or, when that is an item of a menu (which
 * closes as the dialog opens), the button that opened the menu. Call it as the dialog is asked to open.
 */
export function focusedOpener(): HTMLElement | null {
  return openerOf(document.activeElement);
}

function openerOf(active: Element | null): HTMLElement | null {
  if (!(active instanceof HTMLElement) || active === document.body) return null;
  const menu = active.closest('[role="menu"]');
  if (!menu) return active;
  const trigger = menu.id ? document.querySelector(`[aria-controls="${CSS.escape(menu.id)}"]`) : null;
  return trigger instanceof HTMLElement ? trigger : null;
}

/**
 * A centred dialog that traps focus and closes on Escape (unless busy). On close, focus returns to what opened it
 * (ADR 009), or to `fallbackFocus` when that is gone.
 */
export function DialogContent({
  title,
  description,
  busy,
  size = 'md',
  opener,
  fallbackFocus,
  onOpenAutoFocus,
  onCloseAutoFocus,
  className,
  children,
  ...props
}: DialogContentProps) {
  const openedBy = useRef<HTMLElement | null>(null);
  // Radix announces the open before it moves focus inside: what has focus then opened the dialog.
  const rememberOpener = (event: Event) => {
    openedBy.current = opener !== undefined ? opener : focusedOpener();
    onOpenAutoFocus?.(event);
  };
  const returnFocus = (event: Event) => {
    onCloseAutoFocus?.(event);
    if (event.defaultPrevented) return;
    const target = openedBy.current?.isConnected ? openedBy.current : fallbackFocus?.();
    if (!target) return;
    event.preventDefault();
    target.focus();
  };
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
        onOpenAutoFocus={rememberOpener}
        onCloseAutoFocus={returnFocus}
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
