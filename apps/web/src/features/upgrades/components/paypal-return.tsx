import { usePaypalReturn } from './use-paypal-return';

/** The dashboard's PayPal return handler, loaded only when the URL carries a return (see my-keys-page.tsx). */
export default function PaypalReturn() {
  usePaypalReturn();
  return null;
}
