/** §2's return parameters, and the `PayerID` PayPal's own redirect adds: all removed once read. */
export const PAYPAL_RETURN_PARAMS = ['paypalReturn', 'paypalCancel', 'token', 'orderId', 'PayerID'] as const;

/** True when the dashboard's URL carries a PayPal return or cancel (the handler then loads). */
export const hasPaypalReturn = (params: URLSearchParams) => PAYPAL_RETURN_PARAMS.some((name) => params.has(name));
