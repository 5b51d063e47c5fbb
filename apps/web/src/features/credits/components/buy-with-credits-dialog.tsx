import { Gift, Loader2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { RedeemProduct } from '@keyport/shared/contracts/credits';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverMessage } from '../../../lib/api-client';
import { CREDIT_EVENTS, CREDIT_TIMINGS, emitCreditEvent } from '../../../lib/credit-events';
import { useRedeemProducts } from '../api/get-redeem-products';
import { useRedeemCredits } from '../api/redeem-credits';
import { pickLicenseProducts } from '../license-products';
import { CREDITS_TEXT, creditsLabel } from '../messages';
import { CreditsBalance } from './credits-balance';

/** §8 Redeem: the server's words for a failed redeem that mean "not enough credits". */
const isInsufficient = (message: string) => /insufficient/i.test(message);

interface BuyWithCreditsDialogProps {
  onClose: () => void;
  /** The person can buy credit packs (a team member, §6): too few credits leads to the credits checkout. */
  canBuyCredits: boolean;
}

/**
 * §2 dialog 9 "Buy License with Credits": the license products (§5 filter and order), each bought with one click.
 * Too few credits, for someone who can buy credit packs: 'Not enough credits. Opening credits checkout...', and 150 ms
 * later the checkout opens (or, when it cannot be opened from here, 'Please open the menu to buy credits.': their menu
 * has Buy Credits). For anyone else the server's reason (the shortfall, credits pending review), with Earn 1 Free
 * Credit below: never a promise of a checkout they do not have.
 */
export default function BuyWithCreditsDialog({ onClose, canBuyCredits }: BuyWithCreditsDialogProps) {
  const products = useRedeemProducts();
  const redeem = useRedeemCredits();
  const [buying, setBuying] = useState<number | null>(null);
  const [failure, setFailure] = useState<{ message: string; tone: 'error' | 'info' } | null>(null);
  const followUp = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => () => void (followUp.current && clearTimeout(followUp.current)), []);

  const later = (action: () => void) => {
    if (followUp.current) clearTimeout(followUp.current);
    followUp.current = setTimeout(action, CREDIT_TIMINGS.followUpDialogMs);
  };

  const buy = (product: RedeemProduct) => {
    if (buying !== null) return; // one purchase at a time: no double submit
    setBuying(product.id);
    setFailure(null);
    redeem.mutate(product.id, {
      onSuccess: (result) => {
        toast.success(CREDITS_TEXT.redeemed);
        emitCreditEvent(CREDIT_EVENTS.licenseRedeemed, { apiKey: result.key.api_key });
        emitCreditEvent(CREDIT_EVENTS.creditsBalanceChanged, { balance: result.balance });
        onClose();
      },
      onError: (error) => {
        setBuying(null);
        const message = serverMessage(error) ?? CREDITS_TEXT.redeemFailed;
        if (!isInsufficient(message) || !canBuyCredits) {
          setFailure({ message, tone: isInsufficient(message) ? 'info' : 'error' });
          return;
        }
        setFailure({ message: CREDITS_TEXT.insufficient, tone: 'info' });
        later(() => {
          const openCredits = window.openCreditsDialog;
          if (!openCredits) {
            setFailure({ message: CREDITS_TEXT.creditsDialogUnavailable, tone: 'info' });
            return;
          }
          onClose();
          openCredits();
        });
      },
    });
  };

  const earnCredit = () => {
    onClose();
    // The follow-up dialog opens once this one has gone (§9: 150 ms).
    setTimeout(() => emitCreditEvent(CREDIT_EVENTS.openReportDialog), CREDIT_TIMINGS.followUpDialogMs);
  };

  const licenses = products.data ? pickLicenseProducts(products.data.redeem_products) : [];

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent title={CREDITS_TEXT.redeemTitle} busy={buying !== null} size="lg">
        <CreditsBalance className="mb-4 rounded-lg bg-slate-50 px-3 py-2" />
        {products.isPending ? (
          <div className="space-y-3" role="status" aria-label="Loading licenses">
            <Skeleton className="h-20 rounded-xl" />
            <Skeleton className="h-20 rounded-xl" />
          </div>
        ) : products.isError ? (
          <Alert className="space-y-2">
            <p className="font-semibold">{CREDITS_TEXT.productsErrorTitle}</p>
            <p>{serverMessage(products.error) ?? CREDITS_TEXT.productsFailed}</p>
            <Button
              size="sm"
              variant="secondary"
              onClick={() => void products.refetch()}
              disabled={products.isFetching}
            >
              {CREDITS_TEXT.tryAgain}
            </Button>
          </Alert>
        ) : licenses.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center font-medium text-slate-700">
            {CREDITS_TEXT.noProducts}
          </p>
        ) : (
          <ul className="space-y-3">
            {licenses.map((product) => (
              <li
                key={product.id}
                data-testid="redeem-product"
                className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4 sm:flex-row sm:items-center"
              >
                <div className="min-w-0 flex-1">
                  <p className="font-semibold text-slate-900">{product.name}</p>
                  {product.description ? <p className="text-sm text-slate-600">{product.description}</p> : null}
                  <p className="mt-1 text-sm font-medium text-amber-700">{creditsLabel(product.cost_credits)}</p>
                </div>
                <Button
                  className="shrink-0 max-sm:w-full"
                  disabled={buying !== null}
                  aria-label={`Buy ${product.name} for ${creditsLabel(product.cost_credits)}`}
                  onClick={() => buy(product)}
                >
                  {buying === product.id ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
                  Buy
                </Button>
              </li>
            ))}
          </ul>
        )}
        {failure ? (
          <Alert tone={failure.tone} className="mt-4">
            {failure.message}
          </Alert>
        ) : null}
        <div className="mt-5 border-t border-slate-200 pt-4">
          <Button variant="ghost" size="sm" onClick={earnCredit} disabled={buying !== null}>
            <Gift aria-hidden="true" className="size-4" />
            {CREDITS_TEXT.reportTitle}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
