import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

// The props of `ActionsMenu` and of its lazily loaded half, on their own: each half imports them from here, so
// neither imports the other's types (the loaded half importing them from actions-menu.tsx was an import circle).

export interface ActionsMenuItem {
  label: string;
  icon: LucideIcon;
  tone?: 'default' | 'danger';
  onSelect: () => void;
}

export interface ActionsMenuProps {
  /** The trigger's accessible name ("More actions for aurora-outfitters"). */
  label: string;
  /** What the trigger shows (an icon): the same before and after the menu's code arrives. */
  trigger: ReactNode;
  triggerClassName: string;
  items: ActionsMenuItem[];
}

export interface LoadedActionsMenuProps extends ActionsMenuProps {
  /** Open at once: the person pressed the trigger before the menu's code arrived. */
  defaultOpen: boolean;
  /** The placeholder trigger had focus when it was replaced: keep it on the real one. */
  takeFocus: boolean;
}
