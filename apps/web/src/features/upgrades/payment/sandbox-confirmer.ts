import { confirmationFailureMessage } from '@keyport/shared/domain/card-payment';
import { ApiError, serverMessage } from '../../../lib/api-client';
import { confirmSandboxPayment } from '../api/confirm-sandbox-payment';
import type { CardConfirmer } from './card-confirmer';

/**
 * Confirms through the portal's sandbox (POST /sandbox/stripe/confirm), which plays Stripe's part: a declined test
 * card answers 402 with the card's message, shown as Stripe's would be.
 */
export function sandboxConfirmer(cardNumber: string): CardConfirmer {
  return {
    async confirm(intent) {
      try {
        await confirmSandboxPayment(intent.id, cardNumber);
        return { ok: true };
      } catch (error) {
        const declined = error instanceof ApiError && error.status === 402 && serverMessage(error) !== null;
        // A payment that was cancelled or replaced (409): the server says why, as Stripe.js's error would.
        const refused = error instanceof ApiError && error.status === 409 && serverMessage(error) !== null;
        return { ok: false, message: confirmationFailureMessage(declined || refused ? error.message : null) };
      }
    },
  };
}
