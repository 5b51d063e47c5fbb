/**
 * Payment secrets removed from a text before it is logged or put in an error: secret and restricted keys (Stripe
 * quotes part of a wrong key in its message), webhook secrets and PaymentIntent client secrets.
 */
export function redactSecrets(text: string): string {
  return text
    .replace(/\b(sk|rk)_(test|live)_[A-Za-z0-9_*]+/g, '$1_$2_[redacted]')
    .replace(/\bwhsec_[A-Za-z0-9*_]+/g, 'whsec_[redacted]')
    .replace(/\b(pi_[A-Za-z0-9_]+?)_secret_[A-Za-z0-9]+/g, '$1_secret_[redacted]');
}
