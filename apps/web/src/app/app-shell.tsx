import { KeyRound } from 'lucide-react';
import { Link, Outlet } from 'react-router';
import { SkipLink } from '../components/ui/skip-link';
import { SettingsDialogProvider } from '../features/account/components/settings-dialog-provider';
import { UserMenu } from '../features/account/components/user-menu';
import { CreditsHosts, CreditsMenu } from './credits-menu';
import { QuickActionsMenu } from './quick-actions-menu';
import { RequireAuth } from './require-auth';
import { paths } from '../lib/paths';
import { useActiveOnSite } from '../lib/analytics';

/** Rendered only for a signed-in person (inside RequireAuth): Active on Site, once per browser session. */
function ActiveOnSite() {
  useActiveOnSite();
  return null;
}

export function AppShell() {
  return (
    <RequireAuth>
      <SettingsDialogProvider>
        <ActiveOnSite />
        <div className="min-h-dvh">
          <SkipLink target="main" />
          <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur">
            <div className="mx-auto flex h-14 max-w-screen-2xl items-center justify-between px-4 sm:px-6">
              <Link to={paths.myKeys} className="flex items-center gap-2 font-semibold text-brand-700">
                <KeyRound aria-hidden="true" className="size-5" />
                Keyport
              </Link>
              <UserMenu credits={<CreditsMenu />} quickActions={<QuickActionsMenu />} />
            </div>
          </header>
          <main id="main">
            <Outlet />
          </main>
          <CreditsHosts />
        </div>
      </SettingsDialogProvider>
    </RequireAuth>
  );
}
