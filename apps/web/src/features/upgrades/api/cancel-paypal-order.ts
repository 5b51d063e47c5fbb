import { cancelPaypalOrder as cancelPaypalOrderContract } from '@keyport/shared/contracts/paypal';
import { callApi } from '../../../lib/api-client';

/** POST /stripe/paypal/cancel-order: the buyer cancelled the checkout; its order is never captured (issue 19). */
export const cancelPaypalOrder = (orderId: string) =>
  callApi(cancelPaypalOrderContract, { body: { order_id: orderId } });
