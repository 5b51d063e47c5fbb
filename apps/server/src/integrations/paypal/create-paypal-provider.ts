import { randomBytes } from 'node:crypto';
import type { Config } from '../../config';
import { createPaypalApiProvider, type PaypalApiProvider } from './paypal-api-adapter';
import { createSandboxPaypalProvider, type SandboxPaypalOptions, type SandboxPaypalProvider } from './sandbox-adapter';

/** What only the sandbox needs; its webhook secret defaults to a fresh one per process (it signs and verifies). */
export type SandboxPaypalDependencies = Omit<SandboxPaypalOptions, 'webhookSecret'> & { webhookSecret?: string };

/**
 * PayPal when PAYPAL_CLIENT_ID (with its secret and webhook id) is configured, else the offline sandbox. The answer's
 * `name` tells them apart: only the sandbox has `approve`, `checkout`, `refundCapture` and `idle`.
 */
export function createPaypalProvider(
  wallet: Config['wallet'],
  sandbox: SandboxPaypalDependencies,
): PaypalApiProvider | SandboxPaypalProvider {
  if (wallet.kind === 'paypal') {
    return createPaypalApiProvider({
      clientId: wallet.clientId,
      clientSecret: wallet.clientSecret,
      webhookId: wallet.webhookId,
      environment: wallet.environment,
      apiBase: wallet.apiBase ? new URL(wallet.apiBase) : null,
    });
  }
  return createSandboxPaypalProvider({
    ...sandbox,
    webhookSecret: sandbox.webhookSecret ?? `paypal_sandbox_${randomBytes(24).toString('hex')}`,
  });
}
