import { PassThrough } from 'node:stream';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EmailMessage } from '../src/integrations/email/port';
import { claimNewKey, makeThemeZip, newStaff, uploadRelease, useDataDir } from './helpers/releases';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

const dataDir = useDataDir('log-secrecy');
const logs: string[] = [];
const sent: EmailMessage[] = [];
let t: TestApp;

beforeAll(async () => {
  const destination = new PassThrough();
  destination.on('data', (chunk: Buffer) => logs.push(chunk.toString('utf8')));
  t = await createTestApp(
    { LOG_LEVEL: 'trace', DATA_DIR: dataDir() },
    { email: { name: 'capture', send: async (message) => void sent.push(message) } },
    destination,
  );
});

describe('secrets never reach the logs', () => {
  it('passwords, session tokens, theme tokens, reset tokens and link signatures stay out of every log line', async () => {
    const password = 'very-secret-password-123';
    const { token: session } = await signUp(t, 'secretive@example.com', { password });
    await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'secretive@example.com', password } });
    await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'secretive@example.com', password: `${password}-wrong` },
    });
    await t.app.inject({ url: '/auth/me', headers: auth(session) });

    const staff = await newStaff(t);
    const zip = await makeThemeZip(dataDir(), { edition: 'PRO' });
    expect(
      (await uploadRelease(t, staff.token, { edition: 'PRO', version: '9.9.9', notes: 'n' }, { content: zip.bytes }))
        .statusCode,
    ).toBe(201);
    const { apiKey } = await claimNewKey(t, session, 'PRO');
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/keys/',
      headers: auth(session),
      payload: { key: apiKey, main_url: 'secret-shop.com' },
    });
    const themeToken = saved.json<{ tokentheme: string }>().tokentheme;
    const release = await t.app.inject({
      method: 'POST',
      url: '/staff/get-releases',
      headers: auth(session),
      payload: { key: apiKey },
    });
    const link = release.json<{ result: { download_link: string } }>().result.download_link;
    const signature = new URL(link).searchParams.get('sig')!;
    const download = await t.app.inject({
      method: 'POST',
      url: '/api/download-with-token',
      headers: auth(session),
      payload: { downloadUrl: link, token: themeToken, licenseType: 'PRO' },
    });
    expect(download.statusCode).toBe(200);
    await t.app.inject({ url: `${new URL(link).pathname}${new URL(link).search}` });

    await t.app.inject({ method: 'POST', url: '/auth/password/forgot', payload: { email: 'secretive@example.com' } });
    await t.app.services.outbox.flush();
    const resetToken = /token=([A-Za-z0-9_-]+)/.exec(sent.at(-1)?.text ?? '')![1]!;
    await t.app.inject({
      method: 'POST',
      url: '/auth/password/reset',
      payload: { token: resetToken, password: 'another-secret-pw' },
    });
    await t.app.inject({ url: `/reset-password?token=${resetToken}` });

    const text = logs.join('');
    expect(text).toContain('/keys/'); // the logs were captured at all
    for (const secret of [password, session, themeToken, resetToken, signature, 'another-secret-pw']) {
      expect(text).not.toContain(secret);
    }
  });

  it('a failed query logs neither its parameters nor values echoed by the database', async () => {
    const { token: session } = await signUp(t, 'failing@example.com');
    const licenseKey = 'SECRT-L1CEN-SEKEY-00000-77777';
    const password = 'hash-me-if-you-can-123';
    const before = logs.length;
    // Break the two tables the queries below write, so that each fails inside PostgreSQL with its parameters.
    await t.db.execute(sql`alter table users rename column password_hash to password_hash_gone`);
    await t.db.execute(sql`alter table license_keys rename column owner_id to owner_id_gone`);
    try {
      const signup = await t.app.inject({
        method: 'POST',
        url: '/auth/signup',
        payload: { email: 'broken-signup@example.com', password, name: 'Broken' },
      });
      expect(signup.statusCode).toBe(500);
      const add = await t.app.inject({
        method: 'POST',
        url: '/keys/',
        headers: auth(session),
        payload: { key: licenseKey },
      });
      expect(add.statusCode).toBe(500);
    } finally {
      await t.db.execute(sql`alter table users rename column password_hash_gone to password_hash`);
      await t.db.execute(sql`alter table license_keys rename column owner_id_gone to owner_id`);
    }
    const text = logs.slice(before).join('');
    expect(text).toContain('unhandled error'); // the failures were logged
    expect(text).toContain('Failed query'); // with the statement, so an operator can tell which one
    for (const secret of [licenseKey, password, '$argon2id$', 'broken-signup@example.com']) {
      expect(text).not.toContain(secret);
    }
  });
});
