/**
 * Issue 19: staff see the job engine's failures (kind, summary, attempts, last error — never a payload, so never a
 * reset link) and retry a dead job with a reason, audited. A password-reset email that failed at every attempt is the
 * case played here, on the engine's clock.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { JOB_NOT_DEAD, JOB_NOT_FOUND, type StaffJob } from '@keyport/shared/contracts/staff-jobs';
import { auditLog } from '../src/db/schema';
import type { EmailMessage } from '../src/integrations/email/port';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

let t: TestApp;
let staff: string;
let clock = Date.parse('2026-06-01T08:00:00Z');
let smtpDown = true;
const sent: EmailMessage[] = [];

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      email: {
        name: 'test',
        async send(message) {
          if (smtpDown) throw new Error('Invalid login: 535 Authentication failed');
          sent.push(message);
        },
      },
      jobs: { now: () => new Date(clock), pollMs: 3_600_000 },
    },
  );
  staff = (await signUp(t, 'jobs-staff@example.com', { role: 'staff', ip: '10.70.0.1' })).token;
});

const list = (query = '') => t.app.inject({ method: 'GET', url: `/staff/jobs${query}`, headers: auth(staff) });
const retry = (id: number | string, reason = 'SMTP password fixed') =>
  t.app.inject({ method: 'POST', url: `/staff/jobs/${id}/retry`, headers: auth(staff), payload: { reason } });

describe('the jobs staff see', () => {
  it('shows a failing reset email as retrying, then as given up after its last attempt, without its link', async () => {
    await signUp(t, 'locked-out@example.com', { ip: '10.70.0.2' });
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/auth/password/forgot',
      payload: { email: 'locked-out@example.com' },
      remoteAddress: '10.70.0.3',
    });
    expect(forgot.statusCode).toBe(202);
    await t.app.services.outbox.flush();

    const retrying = await list('?status=retrying');
    expect(retrying.statusCode).toBe(200);
    const [failing] = retrying.json<{ jobs: StaffJob[] }>().jobs;
    expect(failing).toMatchObject({
      kind: 'email.send',
      summary: '“Reset your Keyport password” to locked-out@example.com',
      status: 'queued',
      attempts: 1,
      max_attempts: 12,
      last_error: 'Invalid login: 535 Authentication failed',
    });
    expect((await list()).json<{ jobs: StaffJob[] }>().jobs).toEqual([]); // nothing given up yet

    // Its backoff plays out on the engine's clock: 10 s, 20 s … then every 30 minutes, 12 attempts in all.
    for (let i = 0; i < 12; i++) {
      clock += 31 * 60_000;
      await t.app.services.outbox.flush();
    }
    const dead = await list();
    const [job] = dead.json<{ jobs: StaffJob[] }>().jobs;
    expect(job).toMatchObject({ id: failing!.id, status: 'dead', attempts: 12, max_attempts: 12 });
    expect(job!.finished_at).not.toBeNull();
    expect((await list('?status=retrying')).json<{ jobs: StaffJob[] }>().jobs).toEqual([]);
    // The email's body holds the reset link; nothing of it reaches staff.
    expect(dead.body).not.toMatch(/token=|reset-password/);
    expect(sent).toEqual([]);
  });

  it('retries a dead job once with a reason (audited), and it is sent', async () => {
    const [job] = (await list()).json<{ jobs: StaffJob[] }>().jobs;
    smtpDown = false;
    const response = await retry(job!.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ job: StaffJob }>().job).toMatchObject({ id: job!.id, status: 'queued', attempts: 0 });
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'job.retried'), eq(auditLog.objectId, String(job!.id))));
    expect(entry).toMatchObject({ actorType: 'staff', objectType: 'job', reason: 'SMTP password fixed' });
    await t.app.services.outbox.flush();
    expect(sent.map((message) => message.to)).toEqual(['locked-out@example.com']);
    expect((await list()).json<{ jobs: StaffJob[] }>().jobs).toEqual([]);

    const again = await retry(job!.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: JOB_NOT_DEAD, code: 'job_not_dead' });
  });

  it('answers 404 for an unknown job, 400 for an id out of range or a missing reason', async () => {
    const unknown = await retry(424242);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: JOB_NOT_FOUND, code: 'job_not_found' });
    for (const id of ['9007199254740993123', '0', 'abc']) {
      const response = await retry(id);
      expect(response.statusCode, id).toBe(400);
      expect(response.json<{ code: string }>().code).toBeTruthy();
    }
    expect((await list('?cursor=99999999999999999999')).statusCode).toBe(400);
    const noReason = await t.app.inject({
      method: 'POST',
      url: '/staff/jobs/1/retry',
      headers: auth(staff),
      payload: {},
    });
    expect(noReason.statusCode).toBe(400);
  });
});
