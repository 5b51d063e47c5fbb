import { Loader2 } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import type { Key } from '@keyport/shared/contracts/keys';
import type { OrderQuote } from '@keyport/shared/contracts/payments';
import type { UpgradeOption } from '@keyport/shared/contracts/upgrades';
import { billingComplete, toBillingInput, type BillingForm } from '@keyport/shared/domain/billing';
import { Skeleton } from '../../../components/ui/skeleton';
import { cancelPaypalOrder } from '../api/cancel-paypal-order';
import { usePaypalConfig } from '../api/get-paypal-config';
import {
  capturePaypal,
  goToPaypalApproval,
  startPaypalOrder,
  WALLET_MESSAGES,
  type StartedPaypalOrder,
} from '../payment/pay-with-paypal';
import { WalletError } from './wallet-error';

// PayPal's SDK and its React wrapper load only with a real client id.
const PaypalButtons = lazy(() => import('./paypal-buttons'));

/** §5: the wallet buttons appear only when every billing field is filled. */
export const PAYPAL_NEEDS_BILLING = 'Please fill in all billing information above to use PayPal';

interface PaypalCheckoutProps {
  billing: BillingForm;
  /** Creates the pending order and its PayPal order for what is being bought (an upgrade, a credit pack). */
  startOrder: () => Promise<StartedPaypalOrder>;
  /** Another payment is in progress. */
  disabled: boolean;
  onBusyChange: (busy: boolean) => void;
  /** The person started a PayPal checkout (analytics: Started Upgrade Checkout). */
  onStart?: () => void;
  /** A captured and fulfilled order: the dialog shows its success screen. */
  onPaid: (outcome: { order: OrderQuote; key: Key | null }) => void;
}

interface PaypalSectionProps extends Omit<PaypalCheckoutProps, 'startOrder'> {
  option: UpgradeOption;
  licenseKey: Key;
}

/** The upgrade dialog's "or pay with PayPal": a PayPal order for the chosen upgrade of this key. */
export function PaypalSection({ option, licenseKey, ...props }: PaypalSectionProps) {
  const { billing } = props;
  return (
    <PaypalCheckout
      {...props}
      startOrder={() => startPaypalOrder({ option, licenseKey, billing: toBillingInput(billing) })}
    />
  );
}

/**
 * "or pay with PayPal", under the card payment. With a client id, PayPal's Buttons (capture in a PayPal window, then
 * our capture-order); with the offline sandbox, a PayPal button that creates the order and goes to the portal's
 * approval page, which returns to the dashboard (see use-paypal-return.ts). Errors in a yellow line (§8).
 */
export function PaypalCheckout(props: PaypalCheckoutProps) {
  const { billing, startOrder, disabled, onBusyChange, onStart, onPaid } = props;
  const config = usePaypalConfig();
  const [message, setMessage] = useState<string | null>(null);
  const [redirecting, setRedirecting] = useState(false);
  // The message of the current attempt was already shown: PayPal's onError that follows must not replace it.
  const explained = useRef(false);
  const ready = billingComplete(billing);
  // The configuration could not be read, or says PayPal without a client id: PayPal cannot be offered.
  const unavailable = config.isError || (config.data?.mode === 'paypal' && !config.data.clientId);

  async function createOrder(): Promise<string> {
    setMessage(null);
    onStart?.();
    explained.current = false;
    const started = await startOrder();
    if (!started.ok) {
      explained.current = true;
      setMessage(started.message);
      throw new Error(started.message);
    }
    return started.orderId;
  }

  async function approve(orderId: string) {
    onBusyChange(true);
    const captured = await capturePaypal(orderId);
    onBusyChange(false);
    if (captured.status === 'error') {
      explained.current = true;
      setMessage(captured.message);
      return;
    }
    onPaid(captured);
  }

  async function payInSandbox() {
    if (redirecting) return;
    setMessage(null);
    setRedirecting(true);
    onStart?.();
    onBusyChange(true);
    const started = await startOrder();
    if (started.ok && goToPaypalApproval(started.approveUrl)) return; // the page is leaving: stay busy
    onBusyChange(false);
    setRedirecting(false);
    setMessage(started.ok ? WALLET_MESSAGES.createFailed : started.message);
  }

  let body;
  if (!ready) {
    body = <p className="text-sm text-slate-600">{PAYPAL_NEEDS_BILLING}</p>;
  } else if (config.isPending) {
    body = <Skeleton className="h-11" />;
  } else if (unavailable) {
    body = null; // the yellow line below says 'PayPal error'
  } else if (config.data.mode === 'paypal' && config.data.clientId) {
    body = (
      <Suspense fallback={<Skeleton className="h-11" />}>
        <PaypalButtons
          clientId={config.data.clientId}
          disabled={disabled}
          createOrder={createOrder}
          onApprove={approve}
          onCancel={(orderId) => {
            setMessage(null);
            // A cancelled checkout stays cancelled: its order is never captured, even if approved later (issue 19).
            if (orderId) void cancelPaypalOrder(orderId).catch(() => undefined);
          }}
          onError={() => {
            if (!explained.current) setMessage(WALLET_MESSAGES.paypalError);
            explained.current = false;
          }}
        />
      </Suspense>
    );
  } else {
    body = (
      <button
        type="button"
        onClick={() => void payInSandbox()}
        disabled={disabled || redirecting}
        className="inline-flex h-11 w-full items-center justify-center gap-2 rounded-lg bg-[#ffc439] text-sm font-semibold text-[#003087] hover:brightness-95 focus-visible:ring-2 focus-visible:ring-[#003087] focus-visible:ring-offset-2 focus-visible:outline-none disabled:cursor-not-allowed disabled:opacity-60"
      >
        {redirecting ? (
          <>
            <Loader2 aria-hidden="true" className="size-4 animate-spin motion-reduce:animate-none" />
            Going to PayPal…
          </>
        ) : (
          <>
            Continue to <span className="italic">PayPal</span>
          </>
        )}
      </button>
    );
  }

  const shown = message ?? (ready && unavailable ? WALLET_MESSAGES.paypalError : null);

  return (
    <section aria-labelledby="paypal-heading" className="space-y-3" data-testid="paypal-section">
      <div className="flex items-center gap-3">
        <span className="h-px flex-1 bg-slate-200" />
        <h3 id="paypal-heading" className="text-xs font-medium tracking-wide text-slate-500 uppercase">
          or pay with PayPal
        </h3>
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      {body}
      {shown ? <WalletError message={shown} /> : null}
    </section>
  );
}
