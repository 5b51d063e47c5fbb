import type { DbOrTx } from '../../db/client';
import type { JobDefinition, Jobs } from '../../modules/jobs/jobs.service';

/** How a sandbox retries an event its webhook did not take (Stripe retries for days; the sandbox for minutes). */
export interface SandboxRetry {
  maxAttempts: number;
  backoff: { baseMs: number; maxMs: number };
}

/** 0.5 s, 1 s, 2 s … capped at 1 min: 10 attempts, about 4 minutes (a database restart fits in it). */
export const DEFAULT_SANDBOX_RETRY: SandboxRetry = { maxAttempts: 10, backoff: { baseMs: 500, maxMs: 60_000 } };

const IDLE_WAITS_FOR_RETRIES_MS = 5_000;

export interface SandboxEventDeliveryOptions {
  jobs: Pick<Jobs, 'register' | 'enqueue' | 'nudge' | 'runUntilIdle'>;
  /** The job kind, e.g. 'sandbox.payment-event'. */
  kind: string;
  /** One delivery attempt of a raw event body (signed afresh each time, as the providers do); answers the status. */
  attempt: (rawBody: string) => Promise<{ statusCode: number }>;
  retry?: SandboxRetry;
  /** How the logs and staff name these events, e.g. 'sandbox payment event'. */
  what: string;
}

export interface SandboxEventPayload extends Record<string, unknown> {
  eventId: string;
  type: string;
  /** The event exactly as it is signed and sent (no client secret: events are not for browsers). */
  body: string;
}

/**
 * How the offline sandboxes (card and wallet) hand their signed events to the portal's own webhook routes: as durable
 * jobs on the job engine (ADR 038), enqueued in the transaction that changed the sandbox's payment, so an event
 * survives the process that made it; any process delivers it (signing with its own secret, to its own route), retried
 * on a non-2xx or a throw, dead-lettered for staff after the last attempt.
 */
export function createSandboxEventDelivery({ jobs, kind, attempt, retry, what }: SandboxEventDeliveryOptions) {
  const { maxAttempts, backoff } = retry ?? DEFAULT_SANDBOX_RETRY;
  const definition: JobDefinition<SandboxEventPayload> = {
    kind,
    what,
    maxAttempts,
    backoff,
    // One webhook call through the app itself: seconds at most. A worker that dies with it frees it soon.
    leaseMs: 15_000,
    describe: (payload) => `${payload.type} (${payload.eventId})`,
    logContext: (payload) => ({ eventId: payload.eventId, type: payload.type }),
    async handler(payload) {
      const { statusCode } = await attempt(payload.body);
      if (statusCode < 200 || statusCode >= 300) throw new Error(`the webhook answered ${statusCode}`);
    },
  };
  jobs.register(definition);

  return {
    /** Queues an event in the transaction that made it happen (one job per event id). */
    async send(tx: DbOrTx, event: { id: string; type: string }, body: string): Promise<void> {
      const payload: SandboxEventPayload = { eventId: event.id, type: event.type, body };
      await jobs.enqueue(tx, kind, payload, { dedupeKey: event.id });
    },
    /** After the transaction committed: deliver now rather than at the next poll (Stripe does not wait either). */
    nudge: () => jobs.nudge(),
    /**
     * Delivers the events due now and resolves when none is being delivered, waiting for a retry due within 5 s
     * (tests; a drain). A webhook that keeps failing is left to the engine's later retries.
     */
    idle: () => jobs.runUntilIdle({ kinds: [kind], waitForRetriesMs: IDLE_WAITS_FOR_RETRIES_MS }),
  };
}
