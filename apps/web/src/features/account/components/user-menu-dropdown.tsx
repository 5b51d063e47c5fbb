import { LogOut, Settings, ShieldCheck, Sparkles, Store } from 'lucide-react';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { isStaff, isTeamMember } from '@keyport/shared/domain/roles';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { paths } from '../../../lib/paths';
import { useMe } from '../api/get-me';
import { useLogout } from '../api/session-mutations';
import { useOpenSettings } from './settings-dialog-context';
import { UserMenuButtonContent, userMenuButtonClass } from './user-menu-button';

export interface UserMenuDropdownProps {
  /** Open at once: the person clicked the placeholder button before this code arrived. */
  defaultOpen: boolean;
  /** The placeholder button had focus when it was replaced: keep it on the real trigger. */
  takeFocus: boolean;
  /** The credits section under the name and email (balance and the credits dialogs), composed by the app. */
  credits?: ReactNode;
  /** The Quick Actions below the xl width, where the dashboard's panel is hidden (composed by the app). */
  quickActions?: ReactNode;
}

/**
 * The user menu itself (Radix DropdownMenu and its positioning code, about a fifth of the app's first load): loaded
 * right after the first paint by `UserMenu`, never in the initial bundle.
 */
export default function UserMenuDropdown({ defaultOpen, takeFocus, credits, quickActions }: UserMenuDropdownProps) {
  const me = useMe();
  const logout = useLogout();
  const navigate = useNavigate();
  const openSettings = useOpenSettings();
  const trigger = useRef<HTMLButtonElement>(null);
  const name = me.data?.name ?? 'Account';

  useLayoutEffect(() => {
    if (takeFocus && !defaultOpen) trigger.current?.focus();
  }, [takeFocus, defaultOpen]);

  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger ref={trigger} className={userMenuButtonClass}>
        <UserMenuButtonContent name={name} />
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel>
          <span className="block font-medium text-slate-900">{name}</span>
          <span className="block truncate">{me.data?.email}</span>
        </DropdownMenuLabel>
        {credits ?? <DropdownMenuSeparator />}
        {isStaff(me.data) ? (
          <>
            <DropdownMenuItem asChild>
              <Link to={paths.staff}>
                <ShieldCheck aria-hidden="true" className="size-4" />
                Staff console
              </Link>
            </DropdownMenuItem>
            <DropdownMenuSeparator />
          </>
        ) : null}
        {isTeamMember(me.data) ? (
          <>
            {/* The quick actions panel is hidden below the xl width: team members reach their features here too. */}
            <DropdownMenuItem asChild>
              <Link to={paths.marketplace}>
                <Store aria-hidden="true" className="size-4" />
                Marketplace
              </Link>
            </DropdownMenuItem>
            <DropdownMenuItem asChild>
              <Link to={paths.aiStore}>
                <Sparkles aria-hidden="true" className="size-4" />
                AI Store Builder
              </Link>
            </DropdownMenuItem>
            <DropdownMenuSeparator />
          </>
        ) : null}
        {quickActions}
        <DropdownMenuItem onSelect={() => openSettings('profile')}>
          <Settings aria-hidden="true" className="size-4" />
          Settings
        </DropdownMenuItem>
        <DropdownMenuItem
          onSelect={() => logout.mutate(undefined, { onSettled: () => navigate(paths.login, { replace: true }) })}
        >
          <LogOut aria-hidden="true" className="size-4" />
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
