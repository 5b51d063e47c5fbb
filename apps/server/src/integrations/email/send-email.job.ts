import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { emailOutbox } from '../../db/schema';
import type { JobDefinition } from '../../modules/jobs/jobs.service';
import type { EmailPort } from './port';

export const SEND_EMAIL = 'email.send';

/** What the job row holds: the outbox row to send, and what staff may see of it (never the body: it holds links). */
export interface SendEmailPayload extends Record<string, unknown> {
  emailId: number;
  to: string;
  subject: string;
}

/** The message's key (its Message-ID with SMTP): the row's id, and its creation time so a new database's rows differ. */
export const emailKey = (row: { id: number; createdAt: Date }) => `keyport-email-${row.id}-${row.createdAt.getTime()}`;

/** The outbox's email gone from the table (a data fix): nothing to send, ever. */
class EmailGone extends Error {
  override name = 'EmailGone';
}

/**
 * `email.send`: delivers one `email_outbox` row through the email port and marks it sent. A row marked sent is not
 * sent again (the job of a worker that died between sending and finishing the job is claimed again and stops
 * there); a worker that dies between the SMTP server's answer and the mark sends it once more on the next claim,
 * with the same Message-ID (ADR 051).
 */
export function sendEmailJob(deps: { db: Db; port: EmailPort }): JobDefinition<SendEmailPayload> {
  const { db, port } = deps;
  return {
    kind: SEND_EMAIL,
    what: 'email delivery',
    // 10 s, 20 s, 40 s … then every 30 min: about 3 hours in all before staff see it dead.
    maxAttempts: 12,
    backoff: { baseMs: 10_000, maxMs: 30 * 60_000 },
    leaseMs: 60_000,
    describe: (payload) => `“${payload.subject}” to ${payload.to}`,
    logContext: (payload) => ({ emailId: payload.emailId }),
    isPermanent: (error) => error instanceof EmailGone,
    async handler(payload) {
      const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, payload.emailId));
      if (!row) throw new EmailGone(`Email ${payload.emailId} is no longer in the outbox`);
      if (row.sentAt) return;
      await port.send({ to: row.to, subject: row.subject, text: row.body, key: emailKey(row) });
      await db
        .update(emailOutbox)
        .set({ sentAt: new Date() })
        .where(and(eq(emailOutbox.id, row.id), isNull(emailOutbox.sentAt)));
    },
  };
}
