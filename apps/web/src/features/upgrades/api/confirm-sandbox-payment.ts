import { confirmSandboxPayment as confirmSandboxPaymentContract } from '@keyport/shared/contracts/payments';
import { callApi } from '../../../lib/api-client';

/** POST /sandbox/stripe/confirm: the offline sandbox's card confirmation (a decline is a 402 with the card's message). */
export const confirmSandboxPayment = (paymentIntentId: string, cardNumber: string) =>
  callApi(confirmSandboxPaymentContract, {
    body: { payment_intent_id: paymentIntentId, card_number: cardNumber },
  });
