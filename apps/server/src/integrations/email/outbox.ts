import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../../db/client';
import { emailOutbox } from '../../db/schema';
import type { Jobs } from '../../modules/jobs/jobs.service';
import type { EmailMessage, EmailPort } from './port';
import { SEND_EMAIL, sendEmailJob, type SendEmailPayload } from './send-email.job';

/**
 * Emails are written to the outbox inside the caller's transaction, each with an `email.send` job on the job engine
 * (ADR 038), and delivered after commit: by one process only, retried with backoff, dead-lettered for staff. No
 * network call ever runs inside a transaction and no email is lost when delivery fails.
 */
export function createOutbox(deps: {
  db: Db;
  jobs: Pick<Jobs, 'register' | 'enqueue' | 'runUntilIdle'>;
  port: EmailPort;
  log: Pick<FastifyBaseLogger, 'warn'>;
}) {
  const { db, jobs, port, log } = deps;
  jobs.register(sendEmailJob({ db, port }));
  return {
    async enqueue(tx: DbOrTx, message: EmailMessage): Promise<void> {
      const [row] = await tx
        .insert(emailOutbox)
        .values({ to: message.to, subject: message.subject, body: message.text })
        .returning({ id: emailOutbox.id });
      const payload: SendEmailPayload = { emailId: row!.id, to: message.to, subject: message.subject };
      await jobs.enqueue(tx, SEND_EMAIL, payload);
    },
    /**
     * After the transaction that enqueued has committed: sends the emails due now in this process and resolves when
     * they are done (or failed and scheduled again). Never rejects: a database that is away is logged, and the
     * engine's poll sends them later.
     */
    flush(): Promise<void> {
      return jobs
        .runUntilIdle({ kinds: [SEND_EMAIL] })
        .catch((error: unknown) => log.warn({ err: error }, 'email outbox flush failed; the job engine retries'));
    },
  };
}
export type Outbox = ReturnType<typeof createOutbox>;
