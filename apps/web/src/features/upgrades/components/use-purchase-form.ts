import { useCallback, useState } from 'react';
import { EMPTY_BILLING_FORM, type BillingForm } from '@keyport/shared/domain/billing';
import type { CardFieldChange } from '../payment/card-confirmer';
import { useOrderAmounts } from './use-order-amounts';
import { useVatVerification } from './use-vat-verification';

/**
 * What every purchase dialog (upgrade, credit pack) holds for its payment: the billing form, the card field's state,
 * the VAT ID check, and the order amounts for the chosen price (null while nothing is chosen).
 */
export function usePurchaseForm(amountCents: number | null) {
  const [billing, setBilling] = useState<BillingForm>(EMPTY_BILLING_FORM);
  const [card, setCard] = useState<CardFieldChange>({ complete: false, confirmer: null });
  const onCardChange = useCallback(
    (change: CardFieldChange) =>
      setCard((current) =>
        current.complete === change.complete && current.confirmer === change.confirmer ? current : change,
      ),
    [],
  );
  const vat = useVatVerification(billing.vat_id, billing.is_business);
  const verifiedVatId = vat.result.status === 'valid' ? (vat.result.vatNumber ?? billing.vat_id) : null;
  const amounts = useOrderAmounts(
    amountCents === null
      ? null
      : { amountCents, country: billing.country, isBusiness: billing.is_business, verifiedVatId },
  );
  return { billing, setBilling, card, onCardChange, vat, amounts };
}
