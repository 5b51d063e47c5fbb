import { Coins } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { CREDITS_TEXT } from '../messages';
import { openRedeemDialog } from '../open-credits-dialog';

/** §6: the dashboard header's Buy With Credits (team members only; the app decides who sees it). Opens dialog 9. */
export function BuyWithCreditsButton() {
  return (
    <Button variant="secondary" className="max-sm:w-full" onClick={openRedeemDialog}>
      <Coins aria-hidden="true" className="size-4" />
      {CREDITS_TEXT.buyWithCredits}
    </Button>
  );
}
