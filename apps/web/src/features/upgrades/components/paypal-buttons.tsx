import { loadScript } from '@paypal/paypal-js';
import {
  DISPATCH_ACTION,
  PayPalButtons,
  PayPalScriptProvider,
  SCRIPT_LOADING_STATE,
  usePayPalScriptReducer,
  type ReactPayPalScriptOptions,
} from '@paypal/react-paypal-js';
import { useEffect, useMemo } from 'react';

export interface PaypalButtonsProps {
  clientId: string;
  disabled: boolean;
  /** Our create-order; resolves to the PayPal order id, or rejects (the caller has shown why). */
  createOrder: () => Promise<string>;
  onApprove: (orderId: string) => Promise<void>;
  /** The payer closed PayPal's window without paying: the order it had (when PayPal says which). */
  onCancel: (orderId: string | null) => void;
  /** PayPal's Buttons failed, or the SDK could not be loaded. */
  onError: () => void;
}

/**
 * Loads PayPal's SDK with the provider's own options, but through our hands: the provider's loader writes a console
 * error when the script cannot load (offline, blocked); here a rejected load only marks the provider rejected and
 * tells the section, which shows 'PayPal error'.
 */
function SdkLoader({ onFailed }: { onFailed: () => void }) {
  const [{ options }, dispatch] = usePayPalScriptReducer();
  useEffect(() => {
    let live = true;
    loadScript(options).then(
      () => {
        if (live) dispatch({ type: DISPATCH_ACTION.LOADING_STATUS, value: SCRIPT_LOADING_STATE.RESOLVED });
      },
      (error: unknown) => {
        if (!live) return;
        dispatch({
          type: DISPATCH_ACTION.LOADING_STATUS,
          value: { state: SCRIPT_LOADING_STATE.REJECTED, message: String(error) },
        });
        onFailed();
      },
    );
    return () => {
      live = false;
    };
    // Load once per options; `onFailed` may change identity on every render of the section.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [options, dispatch]);
  return null;
}

/**
 * PayPal's own Buttons (Orders v2, capture intent, USD), used only with a real client id. This file and PayPal's
 * packages load lazily: the sandbox and the dashboard never download them.
 */
export default function PaypalButtons({
  clientId,
  disabled,
  createOrder,
  onApprove,
  onCancel,
  onError,
}: PaypalButtonsProps) {
  const options = useMemo<ReactPayPalScriptOptions>(
    () => ({ clientId, intent: 'capture', currency: 'USD' }),
    [clientId],
  );
  return (
    <PayPalScriptProvider options={options} deferLoading>
      <SdkLoader onFailed={onError} />
      <PayPalButtons
        style={{ layout: 'horizontal', label: 'paypal', tagline: false, height: 44 }}
        fundingSource="paypal"
        disabled={disabled}
        createOrder={createOrder}
        onApprove={(data) => onApprove(data.orderID)}
        onCancel={(data) => onCancel(typeof data.orderID === 'string' ? data.orderID : null)}
        onError={onError}
      />
    </PayPalScriptProvider>
  );
}
