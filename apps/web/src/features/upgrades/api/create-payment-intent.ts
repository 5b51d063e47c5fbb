import type { BodyOf } from '@keyport/shared/contracts/define';
import { createPaymentIntent as createPaymentIntentContract } from '@keyport/shared/contracts/payments';
import { callApi } from '../../../lib/api-client';

export type PaymentIntentRequest = BodyOf<typeof createPaymentIntentContract>;

/** POST /stripe/payment-intents: the pending order and its payment intent (the server computes every amount). */
export const createPaymentIntent = (body: PaymentIntentRequest) => callApi(createPaymentIntentContract, { body });
