import { syncPaymentIntent as syncPaymentIntentContract } from '@keyport/shared/contracts/payments';
import { callApi } from '../../../lib/api-client';

/** POST /stripe/payment-intents/:id/sync: the server re-reads the payment and fulfils it (as its webhook would). */
export const syncPaymentIntent = (paymentIntentId: string) =>
  callApi(syncPaymentIntentContract, { params: { id: paymentIntentId } });
