import { useCallback, useState } from 'react';
import { EMPTY_BILLING_FORM, validateBilling, type BillingForm } from '@keyport/shared/domain/billing';
import type { CardFieldChange } from '../payment/card-confirmer';
import type { PaymentState } from './payment-column';
import { useOrderAmounts } from './use-order-amounts';
import { useVatVerification } from './use-vat-verification';

/**
 * What every purchase dialog (upgrade, credit pack) holds for its payment: the billing form, the card field's state,
 * the VAT ID check, the order amounts for the chosen price (null while nothing is chosen) and the payment's state.
 * `columnProps(onPay)` are the `PaymentColumn` props both dialogs share (editing the billing or the card clears a
 * payment error).
 */
export function usePurchaseForm(amountCents: number | null) {
  const [billing, setBilling] = useState<BillingForm>(EMPTY_BILLING_FORM);
  const [payment, setPayment] = useState<PaymentState>({ status: 'idle' });
  const [card, setCard] = useState<CardFieldChange>({ complete: false, confirmer: null });
  const onCardChange = useCallback((change: CardFieldChange) => {
    setCard((current) =>
      current.complete === change.complete && current.confirmer === change.confirmer ? current : change,
    );
    // Another card being typed: the last card's decline no longer applies (the field reports the first keystroke,
    // which makes the declined card incomplete).
    if (!change.complete) setPayment((current) => (current.status === 'error' ? { status: 'idle' } : current));
  }, []);
  const vat = useVatVerification(billing.vat_id, billing.is_business);
  const verifiedVatId = vat.result.status === 'valid' ? (vat.result.vatNumber ?? billing.vat_id) : null;
  const amounts = useOrderAmounts(
    amountCents === null
      ? null
      : { amountCents, country: billing.country, isBusiness: billing.is_business, verifiedVatId },
  );
  const billingErrors = validateBilling(billing);
  const columnProps = (onPay: () => void) => ({
    billing,
    onBillingChange: (next: BillingForm) => {
      setBilling(next);
      if (payment.status === 'error') setPayment({ status: 'idle' });
    },
    billingErrors,
    vatCheck: vat.result,
    onVerifyVat: vat.verifyNow,
    card,
    onCardChange,
    totalCents: amounts?.totalCents ?? null,
    payment,
    onPay,
  });
  return { billing, setBilling, card, onCardChange, vat, amounts, payment, setPayment, billingErrors, columnProps };
}
