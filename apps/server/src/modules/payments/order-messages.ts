import type { Tier } from '@keyport/shared/domain/tiers';
import { type AppError, conflict } from '../../http/errors';
import type { OrderRow } from './payments.repo';

/**
 * Why an order was not charged (issue 19, ADR 035): the spec is silent, so these are ours. The void and expiry reasons
 * are stored on the order (`processing_error`) and answered to the buyer when they confirm, sync or capture it.
 */
export const ORDER_MESSAGES = {
  /** The key moved on (a token, another purchase) before the payment was captured. */
  notApplicable: (tier: Tier) => `This upgrade no longer applies: the license is ${tier} now. Nothing was charged.`,
  /** The key left the payer's account before the payment was captured. */
  keyGone: 'This license is no longer in your account. Nothing was charged.',
  superseded: 'This payment was replaced by a newer one. Nothing was charged.',
  /** The buyer cancelled the PayPal checkout. */
  paypalCancelled: 'This PayPal checkout was cancelled. Nothing was charged.',
  /** The card payment was cancelled at the provider. */
  paymentCancelled: 'This payment was cancelled. Nothing was charged.',
  expired: 'This payment expired before it was completed. Nothing was charged. Please start again.',
  /** A token redemption (or another payment) while this key's payment is being captured. */
  keyBusy: 'A payment for this license is being completed. Please try again in a minute.',
  /** Another request is capturing this very order and has not finished yet. */
  captureInProgress: 'This payment is still being completed. Refresh the page in a minute to see it.',
} as const;

/** A provider call failed (an outage, a timeout): nothing was written; the person may retry. */
export const PROVIDER_UNAVAILABLE = 'The payment provider did not answer. Please try again.';

/** The 409 a confirmation, sync or capture of an order that will never be charged answers: its reason, its status. */
export function orderClosed(order: Pick<OrderRow, 'status' | 'processingError'>): AppError {
  switch (order.status) {
    case 'superseded':
      return conflict(ORDER_MESSAGES.superseded, 'order_superseded');
    case 'expired':
      return conflict(order.processingError ?? ORDER_MESSAGES.expired, 'order_expired');
    default:
      return conflict(order.processingError ?? ORDER_MESSAGES.paymentCancelled, 'order_void');
  }
}
