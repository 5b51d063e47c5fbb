import type { BodyOf } from '@keyport/shared/contracts/define';
import { createPaypalOrder as createPaypalOrderContract } from '@keyport/shared/contracts/paypal';
import { callApi } from '../../../lib/api-client';

export type PaypalOrderRequest = BodyOf<typeof createPaypalOrderContract>;

/** POST /stripe/paypal/create-order: the pending order and its PayPal order (the server computes every amount). */
export const createPaypalOrder = (body: PaypalOrderRequest) => callApi(createPaypalOrderContract, { body });
