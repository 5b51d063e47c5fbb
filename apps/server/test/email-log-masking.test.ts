import { PassThrough } from 'node:stream';
import { desc } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox } from '../src/db/schema';
import { maskSecrets } from '../src/integrations/email/log-adapter';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

/**
 * Issue 19: production without SMTP (only with SANDBOX_INTEGRATIONS=true) still keeps every email in the outbox, but
 * the line the log adapter writes carries no license key, token or link in full.
 */
describe('maskSecrets', () => {
  it('keeps a link’s origin and path, never its query or fragment', () => {
    expect(maskSecrets('open https://portal.example.com/reset-password?token=Zm9vYmFyYmF6cXV4cXV1eA within')).toBe(
      'open https://portal.example.com/reset-password?…[masked] within',
    );
    expect(maskSecrets('see http://127.0.0.1:3000/customer/my-keys?settings=invoices.')).toBe(
      'see http://127.0.0.1:3000/customer/my-keys?…[masked]',
    );
    expect(maskSecrets('https://user:secret@host.example/a#frag')).toBe('https://host.example/a#…[masked]');
    expect(maskSecrets('https://portal.example.com/customer/my-keys')).toBe(
      'https://portal.example.com/customer/my-keys',
    );
  });

  it('masks a long token in a link’s path, a license key and a bare token', () => {
    expect(maskSecrets('https://portal.example.com/t/abcdefghijklmnopqrstuvwxyz012345/next')).toBe(
      'https://portal.example.com/t/abcd…[masked]/next',
    );
    expect(maskSecrets('Your license key:\n\nPR0A1-DEM0K-EY001-AURRA-PR001\n')).toBe(
      'Your license key:\n\nPR0A1…[masked]\n',
    );
    expect(maskSecrets('token eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlLWJ5dGVzLWhlcmU')).toBe(
      'token eyJh…[masked]',
    );
  });

  it('leaves ordinary text alone: names, amounts, order numbers, dates', () => {
    const text = 'Hello Ada,\n\nOrder: 42\nTotal: $142.80 (VAT 19%)\nPaid: 2026-03-02\nUpgrade: LITE to PRO';
    expect(maskSecrets(text)).toBe(text);
  });
});

describe('the log email adapter in production with SANDBOX_INTEGRATIONS=true', () => {
  let t: TestApp;
  const lines: { msg?: string; email?: { to: string; subject: string } }[] = [];
  const logged = () => lines.map((line) => JSON.stringify(line)).join('\n');

  beforeAll(async () => {
    const destination = new PassThrough();
    destination.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line));
    });
    t = await createTestApp(
      {
        NODE_ENV: 'production',
        SANDBOX_INTEGRATIONS: 'true',
        SELLER_NAME: 'Keyport Themes Ltd',
        SELLER_ADDRESS: '1 Sandbox Street|London EC1A 1BB',
        SELLER_VAT_ID: 'GB123456789',
        LOG_LEVEL: 'info',
        PUBLIC_URL: 'https://portal.example.com',
      },
      {},
      destination,
    );
  });

  const emailLine = (to: string, subject: string) =>
    lines.find((line) => line.email?.to === to && line.email.subject === subject);

  it('logs a password reset with its link masked; the outbox keeps the working link', async () => {
    const email = 'reset-me@example.com';
    await signUp(t, email, { ip: '10.94.0.1' });
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/auth/password/forgot',
      payload: { email },
      remoteAddress: '10.94.0.1',
    });
    expect(forgot.statusCode).toBe(202);
    await expect.poll(() => emailLine(email, 'Reset your Keyport password')).toBeDefined();
    const [stored] = await t.db.select().from(emailOutbox).orderBy(desc(emailOutbox.id)).limit(1);
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(stored!.body)?.[1];
    expect(token).toBeDefined();
    expect(emailLine(email, 'Reset your Keyport password')!.msg).toContain(
      'https://portal.example.com/reset-password?…[masked]',
    );
    expect(logged()).not.toContain(token!);
    expect(logged()).not.toContain(token!.slice(0, 8));
  });

  it('logs a license key email with the key masked', async () => {
    const staff = await signUp(t, 'staff@example.com', { role: 'staff', ip: '10.94.0.2' });
    const customer = await signUp(t, 'key-owner@example.com', { ip: '10.94.0.3' });
    const minted = await t.app.inject({
      method: 'POST',
      url: `/staff/customers/${customer.id}/keys`,
      headers: auth(staff.token),
      payload: { tier: 'PRO', count: 1, reason: 'Replacement for a lost key' },
    });
    expect(minted.statusCode).toBe(201);
    const [key] = minted.json<{ keys: { api_key: string }[] }>().keys;
    await expect.poll(() => emailLine('key-owner@example.com', 'Your new Keyport PRO license')).toBeDefined();
    expect(emailLine('key-owner@example.com', 'Your new Keyport PRO license')!.msg).toContain(
      `${key!.api_key.slice(0, 5)}…[masked]`,
    );
    expect(logged()).not.toContain(key!.api_key);
  });
});
