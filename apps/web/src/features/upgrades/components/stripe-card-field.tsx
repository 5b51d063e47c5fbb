import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeCardElementChangeEvent } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { useEffect, useId, useState } from 'react';
import { CARD_PAYMENT_MESSAGES, confirmationFailureMessage } from '@keyport/shared/domain/card-payment';
import type { CardConfirmer, CardFieldChange } from '../payment/card-confirmer';
import { PanelState } from './panel-state';

interface StripeCardFieldProps {
  publishableKey: string;
  onChange: (change: CardFieldChange) => void;
  disabled?: boolean;
}

/**
 * The card field with a real publishable key: Stripe Elements' card element (postal code hidden, §9), loaded from
 * `@stripe/stripe-js/pure` only now (this module is itself loaded only for a real key). A failed load gives §8's
 * 'Could not initialize payment provider. Please try again later.'
 */
export default function StripeCardField({ publishableKey, onChange, disabled }: StripeCardFieldProps) {
  const [stripe, setStripe] = useState<{ for: string; value: Stripe | 'failed' } | null>(null);

  useEffect(() => {
    let current = true;
    loadStripe(publishableKey).then(
      (loaded) => current && setStripe({ for: publishableKey, value: loaded ?? 'failed' }),
      () => current && setStripe({ for: publishableKey, value: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [publishableKey]);

  if (!stripe || stripe.for !== publishableKey) return <PanelState kind="loading" />;
  if (stripe.value === 'failed') return <PanelState kind="error" message={CARD_PAYMENT_MESSAGES.providerInitFailed} />;
  return (
    <Elements stripe={stripe.value}>
      <StripeCard onChange={onChange} disabled={disabled} />
    </Elements>
  );
}

function StripeCard({ onChange, disabled }: Omit<StripeCardFieldProps, 'publishableKey'>) {
  const stripe = useStripe();
  const elements = useElements();
  const id = useId();
  const [state, setState] = useState<{ complete: boolean; error: string | null }>({ complete: false, error: null });

  useEffect(() => {
    if (!stripe || !elements || !state.complete) {
      onChange({ complete: false, confirmer: null });
      return;
    }
    const confirmer: CardConfirmer = {
      async confirm(intent, billing) {
        const card = elements.getElement(CardElement);
        if (!card) return { ok: false, message: CARD_PAYMENT_MESSAGES.cardUnavailable };
        const result = await stripe.confirmCardPayment(intent.client_secret, {
          payment_method: {
            card,
            billing_details: {
              name: billing.name,
              email: billing.email,
              address: {
                line1: billing.address.line1,
                line2: billing.address.line2 ?? undefined,
                city: billing.address.city,
                state: billing.address.state ?? undefined,
                postal_code: billing.address.postal_code,
                country: billing.address.country,
              },
            },
          },
        });
        if (result.error) return { ok: false, message: confirmationFailureMessage(result.error.message) };
        const status = result.paymentIntent?.status;
        // Keyport's payments use manual capture: a confirmed card is `requires_capture` until the server captures it.
        if (status === 'requires_capture' || status === 'succeeded' || status === 'processing') return { ok: true };
        return { ok: false, message: confirmationFailureMessage(null) };
      },
    };
    onChange({ complete: true, confirmer });
  }, [stripe, elements, state.complete, onChange]);

  return (
    <div className="space-y-1.5">
      <span id={`${id}-label`} className="block text-sm font-medium text-slate-700">
        Card
      </span>
      <div
        role="group"
        aria-labelledby={`${id}-label`}
        className="rounded-lg border border-slate-300 bg-white px-3 py-3 focus-within:border-brand-500 focus-within:ring-2 focus-within:ring-brand-100"
      >
        <CardElement
          options={{ hidePostalCode: true, disabled, style: { base: { fontSize: '14px', color: '#0f172a' } } }}
          onChange={(event: StripeCardElementChangeEvent) =>
            setState({ complete: event.complete, error: event.error?.message ?? null })
          }
        />
      </div>
      {state.error ? (
        <p role="alert" className="text-sm text-red-600">
          {state.error}
        </p>
      ) : null}
    </div>
  );
}
