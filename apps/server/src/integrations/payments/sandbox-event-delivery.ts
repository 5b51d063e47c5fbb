import type { FastifyBaseLogger } from 'fastify';
import { redactSecrets } from './redact-secrets';

export interface SandboxEventDeliveryOptions {
  /** One delivery attempt of a raw event body (signed afresh each time, as the providers do); answers the status. */
  attempt: (rawBody: string) => Promise<{ statusCode: number }>;
  /** Waits before each retry of a failed delivery; after the last, the event is given up (and logged). */
  retryDelaysMs: readonly number[];
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** How the logs name these events, e.g. 'sandbox payment event'. */
  what: string;
}

/**
 * How the offline sandboxes (card and wallet) hand their signed events to the portal's own webhook routes: in the
 * background (the caller never waits for the webhook, as with the real providers), retried on a non-2xx or a throw,
 * and awaitable through `idle()` before the database closes.
 */
export function createSandboxEventDelivery({ attempt, retryDelaysMs, log, what }: SandboxEventDeliveryOptions) {
  const inFlight = new Set<Promise<void>>();

  async function deliverWithRetries(eventId: string, type: string, body: string): Promise<void> {
    for (let tries = 1; tries <= retryDelaysMs.length + 1; tries++) {
      let problem: string;
      try {
        const { statusCode } = await attempt(body);
        if (statusCode >= 200 && statusCode < 300) {
          if (tries > 1) log.info({ eventId, type, attempt: tries }, `${what} delivered after a retry`);
          return;
        }
        problem = `the webhook answered ${statusCode}`;
      } catch (error) {
        problem = error instanceof Error ? `${error.name}: ${redactSecrets(error.message)}` : 'delivery failed';
      }
      const delay = retryDelaysMs[tries - 1];
      if (delay === undefined) {
        log.error({ eventId, type, attempts: tries, problem }, `${what} not delivered; giving up`);
        return;
      }
      log.warn({ eventId, type, attempt: tries, problem }, `${what} not delivered; retrying`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  return {
    /** Sends an event in the background. */
    send(eventId: string, type: string, body: string): void {
      const delivery = deliverWithRetries(eventId, type, body).finally(() => inFlight.delete(delivery));
      inFlight.add(delivery);
    },
    /** Resolves when no delivery is in flight (tests; a graceful shutdown). */
    async idle(): Promise<void> {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
