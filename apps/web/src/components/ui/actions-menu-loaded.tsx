import { useLayoutEffect, useRef } from 'react';
import type { LoadedActionsMenuProps } from './actions-menu-types';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from './dropdown-menu';

/** The menu of `ActionsMenu`, loaded after the first paint. */
export default function LoadedActionsMenu({
  label,
  trigger,
  triggerClassName,
  items,
  defaultOpen,
  takeFocus,
}: LoadedActionsMenuProps) {
  const button = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (takeFocus && !defaultOpen) button.current?.focus();
  }, [takeFocus, defaultOpen]);

  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger ref={button} aria-label={label} className={triggerClassName}>
        {trigger}
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        {items.map(({ label: itemLabel, icon: Icon, tone, onSelect }) => (
          <DropdownMenuItem key={itemLabel} tone={tone} onSelect={onSelect}>
            <Icon aria-hidden="true" className="size-4" />
            {itemLabel}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
