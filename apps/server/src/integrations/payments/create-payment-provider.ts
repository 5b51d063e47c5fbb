import { randomBytes } from 'node:crypto';
import type { Config } from '../../config';
import {
  createSandboxPaymentProvider,
  type SandboxPaymentProvider,
  type SandboxPaymentProviderOptions,
} from './sandbox-adapter';
import { createStripePaymentProvider, type StripePaymentProvider } from './stripe-adapter';

/** What only the sandbox needs; its webhook secret defaults to a fresh one per process (it signs and verifies). */
export type SandboxDependencies = Omit<SandboxPaymentProviderOptions, 'webhookSecret'> & { webhookSecret?: string };

/**
 * Stripe when STRIPE_SECRET_KEY (with its publishable key and webhook secret) is configured, else the offline sandbox.
 * The answer's `name` tells them apart: only the sandbox has `confirmPayment`, `refundPayment` and `idle`.
 */
export function createPaymentProvider(
  payments: Config['payments'],
  sandbox: SandboxDependencies,
): StripePaymentProvider | SandboxPaymentProvider {
  if (payments.kind === 'stripe') {
    return createStripePaymentProvider({
      secretKey: payments.secretKey,
      publishableKey: payments.publishableKey,
      webhookSecret: payments.webhookSecret,
      apiBase: payments.apiBase ? new URL(payments.apiBase) : null,
    });
  }
  return createSandboxPaymentProvider({
    ...sandbox,
    webhookSecret: sandbox.webhookSecret ?? `whsec_sandbox_${randomBytes(24).toString('hex')}`,
  });
}
