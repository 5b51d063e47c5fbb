import { ChevronDown, LogOut, Settings } from 'lucide-react';
import { useNavigate } from 'react-router';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { useMe } from '../api/get-me';
import { useLogout } from '../api/session-mutations';
import { useOpenSettings } from './settings-dialog-context';

export function UserMenu() {
  const me = useMe();
  const logout = useLogout();
  const navigate = useNavigate();
  const openSettings = useOpenSettings();
  const name = me.data?.name ?? 'Account';
  const initials = name
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className="flex items-center gap-2 rounded-full py-1 pr-2 pl-1 text-sm text-slate-700 hover:bg-slate-100"
        aria-label="User menu"
      >
        <span className="flex size-8 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-700">
          {initials}
        </span>
        <span className="hidden max-w-40 truncate sm:inline">{name}</span>
        <ChevronDown aria-hidden="true" className="size-4" />
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel>
          <span className="block font-medium text-slate-900">{name}</span>
          <span className="block truncate">{me.data?.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => openSettings('profile')}>
          <Settings aria-hidden="true" className="size-4" />
          Settings
        </DropdownMenuItem>
        <DropdownMenuItem
          onSelect={() => logout.mutate(undefined, { onSettled: () => navigate('/login', { replace: true }) })}
        >
          <LogOut aria-hidden="true" className="size-4" />
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
