import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
export const SERVER_BUNDLE = path.join(root, 'apps/server/dist/server.js');
export const WEB_INDEX = path.join(root, 'apps/web/dist/index.html');
/** The environment variable naming the data directory every worker's portal starts from (global-setup.ts). */
export const TEMPLATE_DIR_VARIABLE = 'E2E_DATA_TEMPLATE';

export interface PortalServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The portal's DATA_DIR. */
  dataDir: string;
  /** The server's log, written as it comes: the sandbox email adapter logs every email there. */
  logFile: string;
  /** Stops the server; its data directory and log go too, unless `keepData`. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * Starts the built server (`apps/server/dist/server.js`) on a free port, as production runs it, with the demo seed
 * (unless `seed: false`) in a data directory of its own: a copy of `template` when given (an embedded database
 * already created and migrated, which is most of what a start costs), else a new one. Each Playwright worker starts
 * its own (fixtures.ts): one worker's tests never touch the demo accounts of another's.
 */
export async function startPortal(options: { template?: string; seed?: boolean } = {}): Promise<PortalServer> {
  // A port chosen before the start, so PUBLIC_URL is known to the seed: the demo themes' license check calls it.
  const port = await freePort();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'keyport-e2e-'));
  const dataDir = path.join(home, 'data');
  if (options.template) fs.cpSync(options.template, dataDir, { recursive: true });
  const logFile = path.join(home, 'server.log');
  fs.writeFileSync(logFile, '');
  const server = spawn(process.execPath, [SERVER_BUNDLE], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED: String(options.seed ?? true),
      LOG_LEVEL: 'info',
      // Production refuses the sandbox integrations and a missing seller unless told (docs/deployment.md).
      SANDBOX_INTEGRATIONS: 'true',
      SELLER_NAME: process.env.SELLER_NAME ?? 'Keyport Themes Ltd',
      SELLER_ADDRESS: process.env.SELLER_ADDRESS ?? '1 Sandbox Street|London EC1A 1BB',
      SELLER_VAT_ID: process.env.SELLER_VAT_ID ?? 'GB123456789',
      AUTH_RATE_LIMIT_MAX: '1000',
      RATE_LIMIT_PER_MINUTE: '100000',
      // Every browser and API call of the run comes from 127.0.0.1: the per-IP limits are tested in the integration suite.
      ADD_KEY_RATE_LIMIT_MAX_PER_IP: '1000',
      UPGRADE_TOKEN_RATE_LIMIT_MAX_PER_IP: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  server.stdout.on('data', (chunk: Buffer) => fs.appendFileSync(logFile, chunk));
  server.stderr.on('data', (chunk: Buffer) => fs.appendFileSync(logFile, chunk));
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));

  async function stop({ keepData = false }: { keepData?: boolean } = {}) {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    if (!keepData) fs.rmSync(home, { recursive: true, force: true });
  }

  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${log.join('')}`)), 110_000);
      server.stdout.on('data', (chunk: Buffer) => {
        log.push(chunk.toString());
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(chunk.toString());
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      server.stderr.on('data', (chunk: Buffer) => log.push(chunk.toString()));
      server.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`server exited with ${code}:\n${log.join('')}`));
      });
    });
    return { url, dataDir, logFile, stop };
  } catch (error) {
    await stop();
    throw error;
  }
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
