// `npm run bench`: GET /keys/ for the demo customer against a bare Fastify route, measured in one run on this
// machine (absolute numbers drift on shared machines; the ratio is what to compare). PostgreSQL too when
// DATABASE_URL is set. Results are recorded in docs/performance.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load, printRow, startServer } from './lib.mjs';

const root = path.resolve(import.meta.dirname, '..');
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
const duration = Number(process.env.BENCH_DURATION ?? 10);
const serverEnv = {
  NODE_ENV: 'production',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '100000000',
  AUTH_RATE_LIMIT_MAX: '1000',
};

async function keysOn(label, env) {
  // The Keyport server logs through pino at warn level; ask it to print its address at info for startup only.
  const server = startServer(path.join(root, 'apps/server/dist/server.js'), {
    ...serverEnv,
    ...env,
    LOG_LEVEL: 'info',
  });
  try {
    const url = await server.url;
    const login = await fetch(`${url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@example.com', password: 'demo-password' }),
    });
    const { token } = await login.json();
    const warm = await fetch(`${url}/keys/`, { headers: { authorization: `Token ${token}` } });
    if ((await warm.json()).length !== 9) throw new Error('expected the 9 demo keys');
    return await load(`${url}/keys/`, { connections, duration, headers: { authorization: `Token ${token}` } });
  } finally {
    await server.stop();
  }
}

console.log(`Node ${process.version}, ${os.cpus().length} CPUs, ${connections} connections, ${duration} s per run\n`);
const bare = startServer(path.join(import.meta.dirname, 'bare-server.mjs'));
const baseline = await load(`${await bare.url}/bare`, { connections, duration });
await bare.stop();
printRow('bare Fastify route (baseline)', baseline);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyport-bench-'));
try {
  printRow('GET /keys/ on PGlite', await keysOn('pglite', { DATA_DIR: dataDir }), baseline);
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
if (process.env.DATABASE_URL) {
  printRow('GET /keys/ on PostgreSQL', await keysOn('postgres', { DATABASE_URL: process.env.DATABASE_URL }), baseline);
} else {
  console.log('GET /keys/ on PostgreSQL: skipped (set DATABASE_URL to include it)');
}
