/**
 * ADR 051: every attempt to send one outbox row carries the same Message-ID, so a row sent twice (a worker that died
 * between the SMTP server's answer and marking the row sent) arrives as one message twice, not as two messages. Sent
 * through a real SMTP server (test/helpers/smtp-sink.ts).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox } from '../src/db/schema';
import { SEND_EMAIL, sendEmailJob } from '../src/integrations/email/send-email.job';
import { createSmtpEmailAdapter, senderDomain } from '../src/integrations/email/smtp-adapter';
import type { JobContext } from '../src/modules/jobs/jobs.service';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink';
import { createTestApp, type TestApp } from './helpers/test-app';

let t: TestApp;
let sink: SmtpSink;

beforeAll(async () => {
  t = await createTestApp();
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

const messageIdOf = (raw: string) =>
  /^Message-ID:\s*(.*)$/im.exec(raw.split(/\r?\n\r?\n/, 1)[0]!.replace(/\r?\n[ \t]+/g, ' '))?.[1]?.trim();

const context = (attempt: number): JobContext => ({
  job: { id: 1, kind: SEND_EMAIL, attempt, maxAttempts: 12 },
  signal: new AbortController().signal,
  progress: async () => undefined,
  now: () => new Date(),
});

describe('the Message-ID of an outbox email', () => {
  it('is the same on a second attempt at one row, and differs between rows', async () => {
    const port = createSmtpEmailAdapter(sink.url, 'Keyport Themes <no-reply@Shop.Example>');
    const job = sendEmailJob({ db: t.db, port });
    const rows = await t.db
      .insert(emailOutbox)
      .values([
        { to: 'first@example.com', subject: 'Your receipt', body: 'Thank you.' },
        { to: 'second@example.com', subject: 'Your receipt', body: 'Thank you.' },
      ])
      .returning();
    const [first, second] = rows as [(typeof rows)[number], (typeof rows)[number]];
    const payload = (row: typeof first) => ({ emailId: row.id, to: row.to, subject: row.subject });

    await job.handler(payload(first), context(1));
    // The worker died after the SMTP server took the message and before the row was marked: it is sent again.
    await t.db.update(emailOutbox).set({ sentAt: null }).where(eq(emailOutbox.id, first.id));
    await job.handler(payload(first), context(2));
    await job.handler(payload(second), context(1));
    // A row marked sent is not sent a third time.
    await job.handler(payload(first), context(3));

    const ids = sink.received.map((message) => messageIdOf(message.raw));
    expect(sink.received.map((message) => message.to)).toEqual([
      ['first@example.com'],
      ['first@example.com'],
      ['second@example.com'],
    ]);
    const expected = `<keyport-email-${first.id}-${first.createdAt.getTime()}@shop.example>`;
    expect(ids).toEqual([
      expected,
      expected,
      `<keyport-email-${second.id}-${second.createdAt.getTime()}@shop.example>`,
    ]);
  });

  it("is on the sender address's domain", () => {
    expect(senderDomain('Keyport <no-reply@keyport.local>')).toBe('keyport.local');
    expect(senderDomain('billing@Vendor-Themes.co.uk')).toBe('vendor-themes.co.uk');
    expect(senderDomain('  "Support, Keyport" <help@mail.example.com>  ')).toBe('mail.example.com');
    expect(senderDomain('no address here')).toBe('localhost');
  });
});
