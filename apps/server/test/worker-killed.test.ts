/**
 * Issue 19 "Survives faults": a worker killed mid-settlement. The real portal runs as `server.ts --workers 2` (child
 * processes on PostgreSQL and Redis); 30 card payments are confirmed through it while their settlements wait on a lock
 * this test holds, so the sandbox's events are in the workers' hands; one worker is killed (SIGKILL) holding some.
 * Every payment must then settle by itself — no customer re-syncing — with one receipt each. Runs with
 * TEST_DATABASE_URL and TEST_REDIS_URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { emailOutbox, jobs, paymentWebhookEvents, orders } from '../src/db/schema';
import { SANDBOX_PAYMENT_EVENT } from '../src/integrations/payments/sandbox-adapter';
import { GERMAN_CONSUMER, ownedKey } from './helpers/keys';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const serverEntry = path.resolve(import.meta.dirname, '../src/server.ts');

interface LogLine {
  pid?: number;
  msg?: string;
  port?: number;
  name?: string;
}

describe.skipIf(!databaseUrl || !redisUrl)('a worker killed mid-settlement', () => {
  let t: TestApp;
  let portal: ChildProcess | null = null;
  const lines: LogLine[] = [];
  let port = 0;
  const dataDir = path.join(os.tmpdir(), `keyport-killed-${process.pid}`);

  beforeAll(async () => {
    t = await createTestApp(); // empties the tables
    // This test process is no worker of the portal under test: only the two child workers deliver.
    await t.app.services.jobs.stop();
    portal = spawn(process.execPath, ['--import', 'tsx', serverEntry, '--workers', '2'], {
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        DATABASE_URL: databaseUrl!,
        REDIS_URL: redisUrl!,
        REDIS_KEY_PREFIX: `keyport-test:killed:${process.pid}:${Date.now()}:`,
        PORT: '0',
        HOST: '127.0.0.1',
        SEED: 'false',
        LOG_LEVEL: 'info',
        DATA_DIR: dataDir,
        WEB_DIST_DIR: path.join(os.tmpdir(), 'keyport-no-web-dist'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let partial = '';
    portal.stdout!.on('data', (chunk: Buffer) => {
      const text = partial + chunk.toString('utf8');
      const complete = text.split('\n');
      partial = complete.pop() ?? '';
      for (const line of complete) {
        if (!line.startsWith('{')) continue;
        try {
          lines.push(JSON.parse(line) as LogLine);
        } catch {
          // a line that is not a log record
        }
      }
    });
    portal.stderr!.resume();
    port = await vi.waitFor(
      () => {
        const ready = lines.find((line) => line.msg === 'all workers listening');
        expect(ready?.port).toBeGreaterThan(0);
        return ready!.port!;
      },
      { timeout: 150_000, interval: 250 },
    );
  }, 180_000);

  afterAll(async () => {
    if (portal && portal.exitCode === null) {
      const exited = new Promise((resolve) => portal!.once('exit', resolve));
      portal.kill('SIGTERM'); // the primary stops its workers
      const timer = setTimeout(() => portal!.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('settles all 30 card payments by itself, one receipt each, after a worker holding their events is killed', async () => {
    const payers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => signUp(t, `killed-${i}@example.com`, { ip: `10.6.0.${i + 1}` })),
    );
    const emails = payers.map((_, i) => `killed-${i}@example.com`);
    const payments = await Promise.all(
      payers.map(async ({ token, id }, i) => {
        const key = await ownedKey(t, id, 'LITE');
        const started = await t.app.inject({
          method: 'POST',
          url: '/stripe/payment-intents',
          headers: auth(token),
          payload: {
            price_id: 'price_sandbox_lite_to_regular',
            theme_type: 'REGULAR',
            key,
            billing: { ...GERMAN_CONSUMER, email: emails[i] },
          },
        });
        expect(started.statusCode, started.body).toBe(200);
        return { token, ref: started.json<{ payment_intent: { id: string } }>().payment_intent.id };
      }),
    );
    const refs = payments.map((payment) => payment.ref);

    let victim = 0;
    await t.db.transaction(async (tx) => {
      // Settling writes orders: it waits on this lock, so each event stays in the hands of the worker delivering it.
      await tx.execute(sql`lock table orders in exclusive mode`);
      const confirmed = await Promise.all(
        payments.map(({ token, ref }) =>
          fetch(`http://127.0.0.1:${port}/sandbox/stripe/confirm`, {
            method: 'POST',
            headers: { ...auth(token), 'content-type': 'application/json' },
            body: JSON.stringify({ payment_intent_id: ref, card_number: '4242 4242 4242 4242' }),
          }),
        ),
      );
      expect(confirmed.map((response) => response.status)).toEqual(payments.map(() => 200));
      // Some events are being delivered (claimed): kill the worker that holds the first of them.
      const holder = await vi.waitFor(
        async () => {
          const [running] = await t.db
            .select({ lockedBy: jobs.lockedBy })
            .from(jobs)
            .where(and(eq(jobs.kind, SANDBOX_PAYMENT_EVENT), eq(jobs.status, 'running')))
            .limit(1);
          expect(running?.lockedBy).toBeTruthy();
          return running!.lockedBy!;
        },
        { timeout: 20_000, interval: 100 },
      );
      victim = Number(holder.split(':')[1]);
      expect(victim).not.toBe(portal!.pid);
      process.kill(victim, 'SIGKILL');
      await vi.waitFor(() => expect(lines.some((line) => line.msg === 'worker died: starting another')).toBe(true), {
        timeout: 20_000,
      });
    });

    // Nobody syncs: the killed worker's events are delivered by the other workers once its claims expire.
    await vi.waitFor(
      async () => {
        const paid = await t.db
          .select({ status: orders.status })
          .from(orders)
          .where(inArray(orders.providerPaymentId, refs));
        expect(paid.filter((order) => order.status === 'completed')).toHaveLength(30);
      },
      { timeout: 120_000, interval: 500 },
    );
    const receipts = await t.db
      .select({ to: emailOutbox.to })
      .from(emailOutbox)
      .where(and(inArray(emailOutbox.to, emails), like(emailOutbox.subject, 'Your Keyport receipt%')));
    expect(receipts.map((receipt) => receipt.to).sort()).toEqual([...emails].sort());
    const events = await t.db.select({ id: paymentWebhookEvents.eventId }).from(paymentWebhookEvents);
    expect(events.length).toBeGreaterThanOrEqual(30);
    // The killed worker had events in hand: they were taken over (a second claim), not lost.
    const events30 = await t.db
      .select({ attempts: jobs.attempts, status: jobs.status })
      .from(jobs)
      .where(eq(jobs.kind, SANDBOX_PAYMENT_EVENT));
    expect(events30.filter((job) => job.attempts > 1).length).toBeGreaterThan(0);
    expect(events30.every((job) => job.status === 'done')).toBe(true);
  }, 240_000);
});
