import { useCallback, useEffect, useState } from 'react';
import { useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import { EMPTY_BILLING_FORM, validateBilling, type BillingForm } from '@keyport/shared/domain/billing';
import type { CardFieldChange } from '../payment/card-confirmer';
import type { PaymentState } from './payment-column';
import { useOrderAmounts } from './use-order-amounts';
import { useVatVerification } from './use-vat-verification';

/**
 * The billing form's rules are the shared domain's (`validateBilling`, the spec's texts; the server applies the same
 * ones to the contract's billing): react-hook-form asks them for the fields it validates.
 */
const billingResolver: Resolver<BillingForm> = (values) => {
  const errors = Object.entries(validateBilling(values));
  if (errors.length === 0) return { values, errors: {} };
  return {
    values: {},
    errors: Object.fromEntries(
      errors.map(([field, message]) => [field, { type: 'validate', message }]),
    ) as FieldErrors<BillingForm>,
  };
};

/**
 * What every purchase dialog (upgrade, credit pack) holds for its payment: the billing form (react-hook-form, a
 * field's error shown once the person has left it), the card field's state, the VAT ID check, the order amounts for
 * the chosen price (null while nothing is chosen) and the payment's state. `columnProps(onPay)` are the
 * `PaymentColumn` props both dialogs share (editing the billing or the card clears a payment error).
 */
export function usePurchaseForm(amountCents: number | null) {
  const form = useForm<BillingForm>({
    defaultValues: { ...EMPTY_BILLING_FORM },
    mode: 'onTouched',
    resolver: billingResolver,
  });
  const billing = form.watch();
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
  // Another billing detail: the last payment's error no longer applies.
  useEffect(() => {
    const subscription = form.watch(() =>
      setPayment((current) => (current.status === 'error' ? { status: 'idle' } : current)),
    );
    return () => subscription.unsubscribe();
  }, [form]);
  const vat = useVatVerification(billing.vat_id, billing.is_business);
  const verifiedVatId = vat.result.status === 'valid' ? (vat.result.vatNumber ?? billing.vat_id) : null;
  const amounts = useOrderAmounts(
    amountCents === null
      ? null
      : { amountCents, country: billing.country, isBusiness: billing.is_business, verifiedVatId },
  );
  const columnProps = (onPay: () => void) => ({
    billing,
    billingForm: form,
    vatCheck: vat.result,
    onVerifyVat: vat.verifyNow,
    card,
    onCardChange,
    totalCents: amounts?.totalCents ?? null,
    payment,
    onPay,
  });
  return { billing, billingForm: form, card, onCardChange, vat, amounts, payment, setPayment, columnProps };
}
