import { lazy, Suspense } from 'react';
import { isTeamMember } from '@keyport/shared/domain/roles';
import { useMe } from '../features/account/api/get-me';

// Loaded with the open menu (it renders menu items, so it needs the menu's code anyway).
const CreditsMenuItems = lazy(() => import('../features/credits/components/credits-menu-items'));

/** The user menu's credits section (balance, dialogs 9 and 10, and Buy Credits for team members). */
export function CreditsMenu() {
  const me = useMe();
  return (
    <Suspense fallback={null}>
      <CreditsMenuItems isTeamMember={isTeamMember(me.data)} />
    </Suspense>
  );
}
