import { Gift, History, ShoppingCart, Ticket } from 'lucide-react';
import { DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator } from '../../../components/ui/dropdown-menu';
import { CREDIT_EVENTS, emitCreditEvent } from '../../../lib/credit-events';
import { CREDITS_TEXT } from '../messages';
import { openHistoryDialog, openRedeemDialog } from '../open-credits-dialog';
import { CreditsBalance } from './credits-balance';

/**
 * The user menu's credits section: the balance (and credits pending review) under the name and email, then Buy License
 * with Credits (dialog 9) and Earn 1 Free Credit (dialog 10) for everyone, Buy Credits (the credits checkout) for team
 * members, and the credit history for everyone.
 */
export default function CreditsMenuItems({ isTeamMember }: { isTeamMember: boolean }) {
  return (
    <>
      <DropdownMenuLabel>
        <CreditsBalance />
      </DropdownMenuLabel>
      <DropdownMenuSeparator />
      <DropdownMenuItem onSelect={openRedeemDialog}>
        <Ticket aria-hidden="true" className="size-4" />
        {CREDITS_TEXT.redeemTitle}
      </DropdownMenuItem>
      <DropdownMenuItem onSelect={() => emitCreditEvent(CREDIT_EVENTS.openReportDialog)}>
        <Gift aria-hidden="true" className="size-4" />
        {CREDITS_TEXT.reportTitle}
      </DropdownMenuItem>
      {isTeamMember ? (
        <DropdownMenuItem onSelect={() => window.openCreditsDialog?.()}>
          <ShoppingCart aria-hidden="true" className="size-4" />
          {CREDITS_TEXT.buyCredits}
        </DropdownMenuItem>
      ) : null}
      <DropdownMenuItem onSelect={openHistoryDialog}>
        <History aria-hidden="true" className="size-4" />
        {CREDITS_TEXT.creditHistory}
      </DropdownMenuItem>
      <DropdownMenuSeparator />
    </>
  );
}
