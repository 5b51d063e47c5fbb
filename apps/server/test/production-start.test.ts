import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

/**
 * Issue 19, the way a vendor runs it: the server process itself (src/server.ts through tsx), started with
 * NODE_ENV=production, with and without the sandbox opt-in.
 *
 * @run-first: four server starts, one after another (about 20 s of waiting on them); started early, the other worker
 * runs files meanwhile (vitest.config.ts).
 */
const root = path.resolve(import.meta.dirname, '../../..');
const serverScript = path.join(root, 'apps/server/src/server.ts');

const SELLER = {
  SELLER_NAME: 'Vendor Themes Ltd',
  SELLER_ADDRESS: '5 Harbour Road|Cork T12 AB34|Ireland',
  SELLER_VAT_ID: 'IE1234567T',
};

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

const children: ChildProcess[] = [];
// One data directory for the file's starts, one after another: the second start finds the database migrated.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyport-prod-start-'));

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function start(env: Record<string, string>): Started {
  // Only what a vendor's environment would hold: no variable of the test runner's leaks into the start.
  const child = spawn(process.execPath, ['--import', 'tsx', serverScript], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED: 'false',
      LOG_LEVEL: 'info',
      WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** The URL once the server logs that it listens (or the output, if it exits first). */
async function listening(started: Started): Promise<string> {
  for (;;) {
    const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(started.output());
    if (match) return match[1]!;
    const code = await Promise.race([started.exited, new Promise((resolve) => setTimeout(resolve, 100, 'running'))]);
    if (code !== 'running') throw new Error(`the server exited with ${String(code)}:\n${started.output()}`);
  }
}

/** The JSON log lines at warn level (40). */
const warnings = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((line) => line.level === 40)
    .map((line) => line.msg);

async function stop(started: Started) {
  started.child.kill('SIGTERM');
  expect(await started.exited).toBe(0);
}

describe('NODE_ENV=production', { timeout: 180_000 }, () => {
  it('without Stripe, PayPal, VIES, SMTP, the seller or the opt-in: exits 1 naming every variable to set', async () => {
    const started = start({ NODE_ENV: 'production' });
    expect(await started.exited).toBe(1);
    const output = started.output();
    expect(output).toContain('Invalid configuration:');
    for (const variable of [
      'STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET',
      'PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, PAYPAL_WEBHOOK_ID and PAYPAL_ENV=live',
      'set VIES_ADAPTER=vies',
      'set SMTP_URL',
      'set SANDBOX_INTEGRATIONS=true',
      'set SELLER_NAME',
      'set SELLER_ADDRESS',
      'set SELLER_VAT_ID',
    ]) {
      expect(output).toContain(variable);
    }
    expect(output).not.toContain('Server listening');
  });

  it('with SANDBOX_INTEGRATIONS=true: serves on the sandboxes, says so in the log and to the web app', async () => {
    const started = start({ NODE_ENV: 'production', SANDBOX_INTEGRATIONS: 'true', ...SELLER });
    const url = await listening(started);
    expect(warnings(started.output())).toEqual([
      'SANDBOX_INTEGRATIONS=true: card payments, PayPal, VIES, email, exchange rates run on their sandboxes; no real money is taken, and every page says so',
    ]);
    const config = (await (await fetch(`${url}/config`)).json()) as { sandbox: boolean };
    expect(config.sandbox).toBe(true);
    // The sandbox card confirmation exists (it asks for a session), as does the sandbox PayPal approval page.
    expect((await fetch(`${url}/sandbox/stripe/confirm`, { method: 'POST' })).status).toBe(401);
    expect((await fetch(`${url}/sandbox/paypal/checkout?token=AAAAAAAAAAAAAAAAA`)).status).toBe(404);
    await stop(started);
  });

  it('with every real integration live: no sandbox route, no banner, and analytics without a key are off (logged)', async () => {
    const started = start({
      NODE_ENV: 'production',
      ...SELLER,
      // Nothing is contacted at start: addresses that answer nothing do.
      STRIPE_SECRET_KEY: 'sk_live_vendor',
      STRIPE_PUBLISHABLE_KEY: 'pk_live_vendor',
      STRIPE_WEBHOOK_SECRET: 'whsec_vendor',
      STRIPE_API_BASE: 'http://127.0.0.1:9',
      PAYPAL_CLIENT_ID: 'paypal-client',
      PAYPAL_CLIENT_SECRET: 'paypal-secret',
      PAYPAL_WEBHOOK_ID: 'WH-1',
      PAYPAL_ENV: 'live',
      PAYPAL_API_BASE: 'http://127.0.0.1:9',
      VIES_ADAPTER: 'vies',
      VIES_API_URL: 'http://127.0.0.1:9',
      SMTP_URL: 'smtp://127.0.0.1:9',
      EXCHANGE_RATES_ADAPTER: 'ecb',
      ECB_RATES_URL: 'http://127.0.0.1:9',
    });
    const url = await listening(started);
    expect(warnings(started.output())).toEqual(['Analytics are off: KLAVIYO_PRIVATE_KEY is not set']);
    const config = (await (await fetch(`${url}/config`)).json()) as { sandbox: boolean };
    expect(config.sandbox).toBe(false);
    for (const [method, route] of [
      ['POST', '/sandbox/stripe/confirm'],
      ['GET', '/sandbox/paypal/checkout?token=AAAAAAAAAAAAAAAAA'],
      ['POST', '/sandbox/paypal/checkout'],
    ] as const) {
      const response = await fetch(`${url}${route}`, { method });
      expect(response.status, route).toBe(404);
      expect(((await response.json()) as { code: string }).code).toBe('not_found');
    }
    await stop(started);
  });
});
