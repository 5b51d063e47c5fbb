import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Starts the built server (`apps/server/dist/server.js`) on a free port with a fresh data directory and the demo
 * seed, and hands its URL to the tests through E2E_BASE_URL. Returns the teardown.
 */
export default async function globalSetup() {
  // A port chosen before the start, so PUBLIC_URL is known to the seed: the demo themes' license check calls it.
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyport-e2e-'));
  const server = spawn(process.execPath, [path.join(root, 'apps/server/dist/server.js')], {
    env: {
      ...process.env,
      // Production as a demo deployment runs it (issue 19): the sandboxes by the operator's choice, a seller named.
      NODE_ENV: 'production',
      SANDBOX_INTEGRATIONS: 'true',
      SELLER_NAME: 'Keyport Themes Ltd',
      SELLER_ADDRESS: '1 Sandbox Street|London EC1A 1BB',
      SELLER_VAT_ID: 'GB123456789',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED: 'true',
      LOG_LEVEL: 'info',
      AUTH_RATE_LIMIT_MAX: '1000',
      RATE_LIMIT_PER_MINUTE: '100000',
      // Every browser and API call of the run comes from 127.0.0.1: the per-IP limits are tested in the integration suite.
      ADD_KEY_RATE_LIMIT_MAX_PER_IP: '1000',
      UPGRADE_TOKEN_RATE_LIMIT_MAX_PER_IP: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  // The whole run's log, as it is written: specs read the emails the sandbox adapter logs (E2E_SERVER_LOG).
  const logFile = path.join(dataDir, 'server.log');
  fs.writeFileSync(logFile, '');
  process.env.E2E_SERVER_LOG = logFile;
  server.stdout.on('data', (chunk: Buffer) => fs.appendFileSync(logFile, chunk));
  server.stderr.on('data', (chunk: Buffer) => fs.appendFileSync(logFile, chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log.join('')}`)), 60_000);
    const onData = (chunk: Buffer) => {
      log.push(chunk.toString());
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(chunk.toString());
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    server.stdout.on('data', onData);
    server.stderr.on('data', (chunk: Buffer) => log.push(chunk.toString()));
    server.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${log.join('')}`)));
  });
  process.env.E2E_BASE_URL = url;

  return async () => {
    await new Promise<void>((resolve) => {
      server.once('exit', () => resolve());
      server.kill('SIGTERM');
      setTimeout(() => {
        server.kill('SIGKILL');
        resolve();
      }, 5_000);
    });
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

/** A TCP port free on 127.0.0.1 right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
