import { lazy, Suspense } from 'react';
import { isTeamMember } from '@keyport/shared/domain/roles';
import { useMe } from '../features/account/api/get-me';
import { CreditsDialogsHost } from '../features/credits/components/credits-dialogs-host';
import { CreditsCheckoutHost } from '../features/upgrades/credits-checkout/credits-checkout-host';

// Loaded with the open menu (it renders menu items, so it needs the menu's code anyway).
const CreditsMenuItems = lazy(() => import('../features/credits/components/credits-menu-items'));

/** The user menu's credits section (balance, dialogs 9 and 10, the history, and Buy Credits for team members). */
export function CreditsMenu() {
  const me = useMe();
  return (
    <Suspense fallback={null}>
      <CreditsMenuItems isTeamMember={isTeamMember(me.data)} />
    </Suspense>
  );
}

/**
 * The credits dialogs and, for team members, the credits checkout (`window.openCreditsDialog`), on every page of the
 * signed-in app: the menu's Buy Credits and dialog 9's 'Not enough credits' path work wherever the menu is (ADR 037).
 */
export function CreditsHosts() {
  const me = useMe();
  const team = isTeamMember(me.data);
  return (
    <>
      <CreditsDialogsHost canBuyCredits={team} />
      <CreditsCheckoutHost enabled={team} />
    </>
  );
}
