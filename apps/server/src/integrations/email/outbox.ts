import { and, asc, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../../db/client';
import { emailOutbox } from '../../db/schema';
import type { EmailMessage, EmailPort } from './port';

/**
 * Emails are written to the outbox inside the caller's transaction and delivered after commit,
 * so no network call ever runs inside a transaction and no email is lost when delivery fails.
 */
export function createOutbox(db: Db, port: EmailPort, log: FastifyBaseLogger) {
  let running: Promise<void> | null = null;

  async function deliverPending(): Promise<void> {
    const pending = await db
      .select()
      .from(emailOutbox)
      .where(and(isNull(emailOutbox.sentAt), isNull(emailOutbox.error)))
      .orderBy(asc(emailOutbox.id))
      .limit(50);
    for (const row of pending) {
      try {
        await port.send({ to: row.to, subject: row.subject, text: row.body });
        await db.update(emailOutbox).set({ sentAt: new Date() }).where(eq(emailOutbox.id, row.id));
      } catch (error) {
        log.error({ err: error, outboxId: row.id }, 'email delivery failed');
        await db
          .update(emailOutbox)
          .set({ error: String(error) })
          .where(eq(emailOutbox.id, row.id));
      }
    }
  }

  return {
    async enqueue(tx: DbOrTx, message: EmailMessage): Promise<void> {
      await tx.insert(emailOutbox).values({ to: message.to, subject: message.subject, body: message.text });
    },
    /** Delivers what is waiting; call after the transaction that enqueued has committed. */
    flush(): Promise<void> {
      running ??= deliverPending()
        .catch((error: unknown) => log.error({ err: error }, 'email outbox flush failed'))
        .finally(() => {
          running = null;
        });
      return running;
    },
  };
}
export type Outbox = ReturnType<typeof createOutbox>;
