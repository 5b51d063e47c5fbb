import { Loader2, Lock } from 'lucide-react';
import { lazy, Suspense, type ReactNode } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { billingComplete, type BillingForm } from '@keyport/shared/domain/billing';
import { CARD_PAYMENT_MESSAGES } from '@keyport/shared/domain/card-payment';
import { formatUsd } from '@keyport/shared/domain/money';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { useStripeConfig } from '../api/get-stripe-config';
import type { CardFieldChange } from '../payment/card-confirmer';
import { BillingFormFields } from './billing-form';
import { PanelState } from './panel-state';
import { SandboxCardField } from './sandbox-card-field';
import type { VatCheckResult } from './use-vat-verification';

// Stripe's own code loads only with a real publishable key.
const StripeCardField = lazy(() => import('./stripe-card-field'));

/** The offline sandbox's publishable keys start so (GET /stripe/config); Stripe's own start `pk_test_` / `pk_live_`. */
export const isSandboxPublishableKey = (key: string) => key.startsWith('pk_sandbox_');

export type PaymentState =
  { status: 'idle' } | { status: 'processing' } | { status: 'succeeded' } | { status: 'error'; message: string };

/** What is being bought (an upgrade of a key, a credit pack): its provider price id, and what to say without one. */
export interface PayableChoice {
  priceId: string | null;
  /** 'Payment Error' text when `priceId` is null. */
  missingPriceMessage: string;
}

interface PaymentColumnProps {
  selected: PayableChoice | null;
  /** The upgrade dialog's Use Token box is open: nothing to pay. */
  useToken?: boolean;
  /** The empty state while nothing is selected ('Select an Upgrade' unless told otherwise). */
  selectState?: 'select' | 'selectPack';
  /** The billing form's values as they are now, and the form (react-hook-form) its fields register with. */
  billing: BillingForm;
  billingForm: UseFormReturn<BillingForm>;
  vatCheck: VatCheckResult;
  onVerifyVat: () => void;
  card: CardFieldChange;
  onCardChange: (change: CardFieldChange) => void;
  totalCents: number | null;
  payment: PaymentState;
  onPay: () => void;
  /** The wallet (PayPal), under the card payment. */
  wallet?: ReactNode;
}

/** §8 "Payment provider setup": why the card form cannot show. */
function setupError(error: unknown): string {
  if (error instanceof ApiError) return CARD_PAYMENT_MESSAGES.configFetchFailed(error.status);
  return CARD_PAYMENT_MESSAGES.providerInitFailed;
}

/**
 * A purchase dialog's right column (upgrade, credit pack): an empty state ('Select an Upgrade', 'Loading Payment', 'Token Redemption',
 * 'Payment Error'), or the billing form, the card field and the pay button. §4: the form shows only once the payment
 * provider's configuration loaded; the pay button stays disabled until billing and card are complete.
 */
export function PaymentColumn(props: PaymentColumnProps) {
  const { selected, useToken = false, selectState = 'select', billing, card, payment } = props;
  const config = useStripeConfig();

  if (useToken) return <PanelState kind="token" />;
  if (!selected) return <PanelState kind={selectState} />;
  if (!selected.priceId) return <PanelState kind="error" message={selected.missingPriceMessage} />;
  if (config.isPending) return <PanelState kind="loading" />;
  if (config.isError) return <PanelState kind="error" message={setupError(config.error)} />;
  const publishableKey = config.data.publishableKey;
  if (!publishableKey) return <PanelState kind="error" message={CARD_PAYMENT_MESSAGES.publishableKeyMissing} />;

  const processing = payment.status === 'processing';
  const ready = billingComplete(billing) && card.complete && card.confirmer !== null;

  return (
    <div className="min-w-0 space-y-5">
      <form
        className="space-y-5"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (ready && !processing) props.onPay();
        }}
      >
        <BillingFormFields
          form={props.billingForm}
          vatCheck={props.vatCheck}
          onVerifyVat={props.onVerifyVat}
          disabled={processing}
        />
        <div className="space-y-2">
          <h3 className="text-sm font-semibold text-slate-900">Payment</h3>
          {isSandboxPublishableKey(publishableKey) ? (
            <SandboxCardField onChange={props.onCardChange} disabled={processing} />
          ) : (
            <Suspense fallback={<PanelState kind="loading" />}>
              <StripeCardField publishableKey={publishableKey} onChange={props.onCardChange} disabled={processing} />
            </Suspense>
          )}
        </div>
        {payment.status === 'error' ? <Alert>{payment.message}</Alert> : null}
        <Button type="submit" size="lg" className="w-full" disabled={!ready || processing}>
          {processing ? (
            <>
              <Loader2 aria-hidden="true" className="size-4 animate-spin motion-reduce:animate-none" />
              Processing…
            </>
          ) : (
            <>
              <Lock aria-hidden="true" className="size-4" />
              {props.totalCents === null ? 'Pay' : `Pay ${formatUsd(props.totalCents)}`}
            </>
          )}
        </Button>
      </form>
      {props.wallet}
    </div>
  );
}
