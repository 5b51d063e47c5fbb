import { capturePaypalOrder as capturePaypalOrderContract } from '@keyport/shared/contracts/paypal';
import { callApi } from '../../../lib/api-client';

/** POST /stripe/paypal/capture-order: capture an approved order and fulfil it (idempotent on the server). */
export const capturePaypalOrder = (orderId: string) =>
  callApi(capturePaypalOrderContract, { body: { order_id: orderId } });
