import type { BodyOf } from '@keyport/shared/contracts/define';
import { createCreditPackPaymentIntent as createCreditPackPaymentIntentContract } from '@keyport/shared/contracts/credits';
import { callApi } from '../../../lib/api-client';

export type CreditPackPaymentIntentRequest = BodyOf<typeof createCreditPackPaymentIntentContract>;

/** POST /credits/checkout/payment-intents: the pending credit-pack order and its payment intent (server amounts). */
export const createCreditPackPaymentIntent = (body: CreditPackPaymentIntentRequest) =>
  callApi(createCreditPackPaymentIntentContract, { body });
