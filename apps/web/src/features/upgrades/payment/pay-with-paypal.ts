import type { BillingInput, OrderQuote } from '@keyport/shared/contracts/payments';
import type { Key } from '@keyport/shared/contracts/keys';
import type { UpgradeOption } from '@keyport/shared/contracts/upgrades';
import { ApiError, isNetworkError, serverMessage } from '../../../lib/api-client';
import { rememberReturnView } from '../../../lib/return-view';
import { capturePaypalOrder } from '../api/capture-paypal-order';
import { createPaypalOrder } from '../api/create-paypal-order';
import { upgradeMetadata } from './upgrade-metadata';

/** §8 "Wallet payment", shown in a yellow line under the PayPal button. ADR 018 says what triggers each. */
export const WALLET_MESSAGES = {
  /** The chosen option has no price id in the catalogue. */
  noPrice: 'No price configured',
  /** create-order answered, but without a PayPal order id. */
  noOrderId: 'Failed to create order',
  /** capture-order answered with a refusal (declined, amount mismatch, not the caller's order). */
  captureFailed: 'Capture failed',
  /** create-order failed (the server's own message is shown instead when it sent one). */
  createFailed: 'Failed to create PayPal order',
  /** The capture's outcome is unknown or not completed (no answer, or the order is not completed). */
  finalizeFailed: 'Failed to finalize PayPal payment',
  /** PayPal's own Buttons reported an error, or PayPal could not be loaded or configured. */
  paypalError: 'PayPal error',
} as const;

export type StartedPaypalOrder = { ok: true; orderId: string; approveUrl: string } | { ok: false; message: string };

export type CapturedPaypalOrder =
  | { status: 'succeeded'; order: OrderQuote; key: Key | null }
  /** `notCharged`: the server refused before any money moved and `message` is its reason (issue 19). */
  | { status: 'error'; message: string; notCharged?: boolean };

/**
 * The refusals that mean nothing was (or will be) charged: the order was replaced, cancelled, expired, or its upgrade no
 * longer applies. The server's message says which; it is shown instead of §8's generic texts.
 */
export const NOT_CHARGED_CODES: readonly string[] = ['order_void', 'order_superseded', 'order_expired'];

/**
 * Creates the pending order and its PayPal order for an upgrade: the same ownership, path, price and VAT checks as
 * the card (the server computes every amount). Every failure becomes one of §8's wallet texts.
 */
export async function startPaypalOrder(input: {
  option: UpgradeOption;
  licenseKey: Key;
  billing: BillingInput;
}): Promise<StartedPaypalOrder> {
  const { option, licenseKey, billing } = input;
  const priceId = option.priceId;
  if (!priceId) return { ok: false, message: WALLET_MESSAGES.noPrice };
  return startPaypalCheckout(() =>
    createPaypalOrder({
      price_id: priceId,
      theme_type: option.to,
      key: licenseKey.api_key,
      country_code: billing.address.country,
      vat_id: billing.vat_id ?? null,
      customer_name: billing.name,
      customer_email: billing.email,
      company_name: billing.company_name ?? null,
      is_business: billing.is_business,
      billing_address: billing.address,
      metadata: upgradeMetadata(licenseKey, option, billing),
    }),
  );
}

/**
 * Any purchase's PayPal start (an upgrade's or a credit pack's create-order route): the order id and where the
 * person approves it, or one of §8's wallet texts.
 */
export async function startPaypalCheckout(
  createOrder: () => Promise<{ order: { id: string }; approve_url: string }>,
): Promise<StartedPaypalOrder> {
  let created;
  try {
    created = await createOrder();
  } catch (error) {
    return { ok: false, message: serverMessage(error) ?? WALLET_MESSAGES.createFailed };
  }
  const orderId = created.order.id.trim();
  if (!orderId) return { ok: false, message: WALLET_MESSAGES.noOrderId };
  return { ok: true, orderId, approveUrl: created.approve_url };
}

/**
 * Captures an approved PayPal order (the server re-reads it from PayPal, checks the amount and fulfils it; a second
 * capture of the same order changes nothing). Succeeded only when the order is completed.
 */
export async function capturePaypal(orderId: string): Promise<CapturedPaypalOrder> {
  let captured;
  try {
    captured = await capturePaypalOrder(orderId);
  } catch (error) {
    if (error instanceof ApiError && NOT_CHARGED_CODES.includes(error.code)) {
      return { status: 'error', message: error.message, notCharged: true };
    }
    const refused = error instanceof ApiError && !isNetworkError(error);
    return { status: 'error', message: refused ? WALLET_MESSAGES.captureFailed : WALLET_MESSAGES.finalizeFailed };
  }
  if (captured.order.status !== 'completed') return { status: 'error', message: WALLET_MESSAGES.finalizeFailed };
  return { status: 'succeeded', order: captured.order, key: captured.key };
}

/**
 * The sandbox's approval page (or PayPal's approve link) is a full-page navigation: the person comes back to the
 * dashboard's return URL. Only http(s) addresses are followed.
 */
export function goToPaypalApproval(approveUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(approveUrl, window.location.origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  rememberReturnView(); // the return shows the same cards (search, page)
  window.location.assign(url.href);
  return true;
}
