import { randomBytes } from 'node:crypto';
import type { Config } from '../../config';
import { createPaypalWalletProvider, type PaypalWalletProvider } from './paypal-adapter';
import { createSandboxWalletProvider, type SandboxWalletOptions, type SandboxWalletProvider } from './sandbox-adapter';

/** What only the sandbox needs; its webhook secret defaults to a fresh one per process (it signs and verifies). */
export type SandboxWalletDependencies = Omit<SandboxWalletOptions, 'webhookSecret'> & { webhookSecret?: string };

/**
 * PayPal when PAYPAL_CLIENT_ID (with its secret and webhook id) is configured, else the offline sandbox. The answer's
 * `name` tells them apart: only the sandbox has `approve`, `checkout`, `refundCapture` and `idle`.
 */
export function createWalletProvider(
  wallet: Config['wallet'],
  sandbox: SandboxWalletDependencies,
): PaypalWalletProvider | SandboxWalletProvider {
  if (wallet.kind === 'paypal') {
    return createPaypalWalletProvider({
      clientId: wallet.clientId,
      clientSecret: wallet.clientSecret,
      webhookId: wallet.webhookId,
      environment: wallet.environment,
      apiBase: wallet.apiBase ? new URL(wallet.apiBase) : null,
    });
  }
  return createSandboxWalletProvider({
    ...sandbox,
    webhookSecret: sandbox.webhookSecret ?? `paypal_sandbox_${randomBytes(24).toString('hex')}`,
  });
}
