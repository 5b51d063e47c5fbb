import { useQueryClient } from '@tanstack/react-query';
import { Coins } from 'lucide-react';
import { useRef, useState } from 'react';
import type { CreditPack } from '@keyport/shared/contracts/credits';
import type { OrderQuote } from '@keyport/shared/contracts/payments';
import { creditsLabel } from '@keyport/shared/domain/credit-packs';
import { toBillingInput } from '@keyport/shared/domain/billing';
import { Alert } from '../../../components/ui/alert';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import { useCreditPacks } from '../api/get-credit-packs';
import { useCreditsBalance } from '../api/get-credits-balance';
import { OrderSummary } from '../components/order-summary';
import { PaymentColumn } from '../components/payment-column';
import { PaypalCheckout } from '../components/paypal-section';
import { usePurchaseForm } from '../components/use-purchase-form';
import { announceCreditsPurchase } from './announce-credits-purchase';
import { CreditPackCards } from './credit-pack-cards';
import { CreditsPurchaseSuccess } from './credits-purchase-success';
import { CREDITS_CHECKOUT_MESSAGES, payForCreditPack, startCreditPackPaypalOrder } from './pay-for-credit-pack';

interface BuyCreditsDialogProps {
  /** `purchased`: a pack was paid for while the dialog was open (the host emits creditsDialogClosed with it). */
  onClose: (purchased: boolean) => void;
  /** What opened the dialog (a menu item is gone by the time the dialog mounts). */
  opener?: HTMLElement | null;
}

/**
 * The team members' credits checkout ("Buy Credits"), two columns like the upgrade dialog. Left: the balance, the
 * credit packs (auto-selected when there is one) and the order summary (VAT from the server). Right: billing, card
 * and "or pay with PayPal". After payment: how many credits were added and the new balance.
 */
export default function BuyCreditsDialog({ onClose, opener }: BuyCreditsDialogProps) {
  const packs = useCreditPacks();
  const balance = useCreditsBalance();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [completed, setCompleted] = useState<{ credits: number; balance: number | null } | null>(null);

  const list = packs.data?.packs ?? [];
  const selected = list.length === 1 ? list[0]! : (list.find((pack) => pack.id === chosen) ?? null);

  const { billing, card, amounts, payment, setPayment, columnProps } = usePurchaseForm(selected?.price_cents ?? null);

  // One payment at a time, even for a double click that lands before the button is disabled.
  const paying = useRef(false);
  async function pay() {
    if (!selected || paying.current) return;
    paying.current = true;
    setPayment({ status: 'processing' });
    setBusy(true);
    const outcome = await payForCreditPack({
      pack: selected,
      billing: toBillingInput(billing),
      confirmer: card.confirmer,
    }).finally(() => {
      paying.current = false;
    });
    if (outcome.status === 'error') {
      setBusy(false);
      setPayment({ status: 'error', message: outcome.message });
      return;
    }
    await paid(selected, outcome.order);
    setBusy(false);
  }

  /** A completed order, by card or PayPal: the new balance is read and announced, then the success state. */
  async function paid(pack: CreditPack, order: OrderQuote) {
    setPayment({ status: 'succeeded' });
    const newBalance = await announceCreditsPurchase(queryClient);
    setCompleted({ credits: order.credits ?? pack.credits, balance: newBalance });
  }

  const close = () => onClose(completed !== null || payment.status === 'succeeded');

  return (
    <Dialog open onOpenChange={(open) => (open || busy ? undefined : close())}>
      <DialogContent
        title="Buy Credits"
        size="xl"
        busy={busy}
        opener={opener}
        description={completed ? undefined : 'Credits buy licenses. Choose a pack and pay by card or with PayPal.'}
      >
        {completed ? (
          <CreditsPurchaseSuccess credits={completed.credits} balance={completed.balance} onClose={close} />
        ) : packs.isError ? (
          <Alert>{CREDITS_CHECKOUT_MESSAGES.packsFailed}</Alert>
        ) : !packs.isPending && list.length === 0 ? (
          <p className="py-8 text-center text-sm text-slate-600">{CREDITS_CHECKOUT_MESSAGES.noPacks}</p>
        ) : (
          <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
            <div className="min-w-0 space-y-4">
              <section aria-label="Credit balance" className="rounded-xl border border-slate-200 p-4">
                <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">Current balance</p>
                <p className="mt-1 flex items-center gap-2 text-sm text-slate-800" data-testid="credits-balance">
                  <Coins aria-hidden="true" className="size-4 shrink-0 text-amber-500" />
                  {balance.data ? creditsLabel(balance.data.balance) : '…'}
                </p>
              </section>
              {packs.isPending ? (
                <div className="space-y-2" aria-busy="true" aria-label="Loading credit packs">
                  <Skeleton className="h-16" />
                  <Skeleton className="h-16" />
                </div>
              ) : (
                <CreditPackCards packs={list} selected={selected?.id ?? null} onSelect={setChosen} disabled={busy} />
              )}
              {amounts ? <OrderSummary amounts={amounts} /> : null}
            </div>
            <PaymentColumn
              selected={
                selected && { priceId: selected.priceId, missingPriceMessage: CREDITS_CHECKOUT_MESSAGES.noPackPrice }
              }
              selectState="selectPack"
              {...columnProps(() => void pay())}
              wallet={
                selected ? (
                  <PaypalCheckout
                    billing={billing}
                    startOrder={() => startCreditPackPaypalOrder({ pack: selected, billing: toBillingInput(billing) })}
                    disabled={busy}
                    onBusyChange={setBusy}
                    onPaid={(outcome) => void paid(selected, outcome.order)}
                  />
                ) : null
              }
            />
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
