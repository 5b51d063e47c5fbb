import { SettingsDialogProvider } from '../../features/account/components/settings-dialog-provider';
import { UserMenu } from '../../features/account/components/user-menu';
import { StaffConsole } from '../../features/staff/staff-console';
import { NotFoundInShell } from './not-found-page';

/** `/staff/*` for a staff member (RequireStaff has checked): the console, with the app's user menu in its header. */
export function StaffConsolePage() {
  return (
    <SettingsDialogProvider>
      <StaffConsole userMenu={<UserMenu />} notFound={<NotFoundInShell />} />
    </SettingsDialogProvider>
  );
}
