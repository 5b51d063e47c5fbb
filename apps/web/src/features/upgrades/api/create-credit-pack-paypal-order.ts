import type { BodyOf } from '@keyport/shared/contracts/define';
import { createCreditPackPaypalOrder as createCreditPackPaypalOrderContract } from '@keyport/shared/contracts/credits';
import { callApi } from '../../../lib/api-client';

export type CreditPackPaypalOrderRequest = BodyOf<typeof createCreditPackPaypalOrderContract>;

/** POST /credits/checkout/paypal/create-order: the pending credit-pack order and its PayPal order. */
export const createCreditPackPaypalOrder = (body: CreditPackPaypalOrderRequest) =>
  callApi(createCreditPackPaypalOrderContract, { body });
