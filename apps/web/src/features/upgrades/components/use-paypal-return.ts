import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { queryKeys } from '../../../lib/query-keys';
import type { OrderQuote } from '@keyport/shared/contracts/payments';
import type { Key } from '@keyport/shared/contracts/keys';
import { findUpgradePath, type UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import { restoreReturnView } from '../../../lib/return-view';
import { announceCreditsPurchase } from '../credits-checkout/announce-credits-purchase';
import { CREDITS_CHECKOUT_MESSAGES } from '../credits-checkout/pay-for-credit-pack';
import { cancelPaypalOrder } from '../api/cancel-paypal-order';
import { capturePaypal } from '../payment/pay-with-paypal';
import { hasPaypalReturn, PAYPAL_RETURN_PARAMS } from './paypal-return-params';

/** §8 "Dashboard", payment return. */
export const PAYPAL_RETURN_MESSAGES = {
  cancelled: 'PayPal checkout was cancelled',
  completed: 'Payment completed. Your license was upgraded.',
  failed: 'Failed to finalize PayPal payment. Please contact support if you were charged.',
} as const;

/** sessionStorage: the orders this tab has already asked to capture (it survives a reload of the tab). */
const CAPTURE_CLAIM_PREFIX = 'keyport.paypal-capture.';
/** This page load's claims: React's double effects, and a browser whose sessionStorage refuses writes. */
const claimedThisLoad = new Set<string>();

/**
 * True the first time this tab sees the order, false after: a second effect run, a reload of the return URL, a
 * back-navigation to it. The server is idempotent as well (a second capture changes nothing), so this only spares
 * the person a second request and a second toast.
 */
export function claimPaypalCapture(orderId: string): boolean {
  if (claimedThisLoad.has(orderId)) return false;
  claimedThisLoad.add(orderId);
  try {
    const key = CAPTURE_CLAIM_PREFIX + orderId;
    if (sessionStorage.getItem(key) !== null) return false;
    sessionStorage.setItem(key, new Date().toISOString());
  } catch {
    // Storage unavailable (a private mode, a full quota): this load's claim still holds.
  }
  return true;
}

/** A paid upgrade the return completed: the key as it is now and the path it took. */
export interface PaypalUpgrade {
  key: Key;
  path: UpgradePath;
}

const upgradeOf = (order: OrderQuote, key: Key | null): PaypalUpgrade | null => {
  const path = order.from && order.to ? findUpgradePath(order.from, order.to) : null;
  return key && path ? { key, path } : null;
};

/** Navigations (history entries) already handled: a cancel toast shows once per return, not per effect run. */
const handledNavigations = new Set<string>();

/**
 * §2, §4 "Dashboard: payment return is handled only once". On `/customer/my-keys?paypalReturn=true&token=…` (or
 * `orderId=…`) captures the order once, says how it went, and refreshes the keys; on `?paypalCancel=true` says the
 * checkout was cancelled. The parameters are removed at once, replacing the history entry.
 */
export function usePaypalReturn(options: { onUpgraded?: (upgrade: PaypalUpgrade) => void } = {}) {
  const onUpgraded = useRef(options.onUpgraded);
  onUpgraded.current = options.onUpgraded;
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const queryClient = useQueryClient();
  const present = hasPaypalReturn(params);
  const returned = params.get('paypalReturn') === 'true';
  const cancelled = params.get('paypalCancel') === 'true';
  const orderId = params.get('token') ?? params.get('orderId');

  useEffect(() => {
    if (!present) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        PAYPAL_RETURN_PARAMS.forEach((name) => next.delete(name));
        return restoreReturnView(next); // the search and page the person left for PayPal from
      },
      { replace: true },
    );
    if (handledNavigations.has(location.key)) return;
    handledNavigations.add(location.key);

    if (cancelled) {
      toast.info(PAYPAL_RETURN_MESSAGES.cancelled);
      // The cancel sticks: the server voids the order, so approving it later can never charge (issue 19).
      if (orderId) void cancelPaypalOrder(orderId).catch(() => undefined);
      return;
    }
    if (!returned) return; // a stray token or orderId: nothing to do
    if (!orderId) {
      toast.error(PAYPAL_RETURN_MESSAGES.failed);
      return;
    }
    if (!claimPaypalCapture(orderId)) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.keys });
      return;
    }
    void capturePaypal(orderId).then((captured) => {
      if (captured.status === 'succeeded' && captured.order.kind === 'credit_pack') {
        // A credit pack bought from the credits checkout: our own words, and the balance announced (§4).
        toast.success(CREDITS_CHECKOUT_MESSAGES.paypalCompleted(captured.order.credits ?? 0));
        void announceCreditsPurchase(queryClient);
        return;
      }
      if (captured.status === 'succeeded') {
        const upgrade = upgradeOf(captured.order, captured.key);
        // The card path's success screen when the page shows one (ADR 042), otherwise the toast. Completed Upgrade
        // Purchase is the server's event, recorded with the settled order (issue 19).
        if (upgrade && onUpgraded.current) onUpgraded.current(upgrade);
        else toast.success(PAYPAL_RETURN_MESSAGES.completed);
        // Nothing was charged (the upgrade no longer applied, the checkout was replaced or expired): the server's why.
      } else toast.error(captured.notCharged ? captured.message : PAYPAL_RETURN_MESSAGES.failed);
      void queryClient.invalidateQueries({ queryKey: queryKeys.keys });
      void queryClient.invalidateQueries({ queryKey: queryKeys.purchasedUpgrades });
      void queryClient.invalidateQueries({ queryKey: queryKeys.upgradeOptionsAll });
    });
  }, [present, returned, cancelled, orderId, location.key, setParams, queryClient]);
}
