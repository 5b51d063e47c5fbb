// `npm run bench`: GET /keys/ for the demo customer (9 keys, session token) on the built portal against its floor,
// the least an authenticated keys list can do (bench/floor-server.mjs: a bare Fastify route, the session looked up
// by hash and the keys selected in one prepared statement). Both run at once, each in its own process on the same
// data, and are loaded in turns (floor, portal, portal, floor, …) so drift on this shared machine hits both alike;
// the CPU time each server spends per request is reported too (it moves far less than req/s on a shared machine).
// On PostgreSQL (DATABASE_URL) and on PGlite. Prints portal / floor for throughput and p99; recorded in
// docs/performance.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, load, SANDBOX_PRODUCTION_ENV, startServer } from './lib.mjs';

const root = path.resolve(import.meta.dirname, '..');
// BENCH_PORTAL_SCRIPT: another build of the server to compare (e.g. an older commit's apps/server/dist/server.js).
const portalScript = process.env.BENCH_PORTAL_SCRIPT ?? path.join(root, 'apps/server/dist/server.js');
// BENCH_BASELINE_SCRIPT (PostgreSQL only): an older build loaded in the same rounds as a third server, so a change is
// measured as a paired ratio (this build / that build) that the machine's drift hits alike.
const baselineScript = process.env.BENCH_BASELINE_SCRIPT;
const floorScript = path.join(import.meta.dirname, 'floor-server.mjs');
// BENCH_FLOOR_IN_PORTAL=1 (PostgreSQL only): the floor's route also runs inside the portal's process
// (bench/floor-in-portal.mjs) and is loaded in the same rounds: what the portal's process costs code that does none
// of its work, apart from what the portal's own work costs (ADR 048).
const floorInPortal = process.env.BENCH_FLOOR_IN_PORTAL === '1';
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
const duration = Number(process.env.BENCH_DURATION ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
const portalEnv = {
  ...SANDBOX_PRODUCTION_ENV,
  HOST: '127.0.0.1',
  // The production default: every request is logged.
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
  SEED: 'true',
  RATE_LIMIT_PER_MINUTE: '100000000',
  AUTH_RATE_LIMIT_MAX: '1000',
};
const DEMO = { email: 'demo@example.com', password: 'demo-password' };

async function signIn(base) {
  const response = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return (await response.json()).token;
}

async function keysBody(base, token) {
  const response = await fetch(`${base}/keys/`, { headers: { authorization: `Token ${token}` } });
  if (!response.ok) throw new Error(`GET /keys/ on ${base}: ${response.status}`);
  return response.text();
}

/**
 * Loads floor and portal in turns after a warm-up of each: each round runs both back to back (floor first in even
 * rounds, portal first in odd ones), and the ratios are taken within a round, so a slow spell on the machine hits
 * both sides of a ratio. Reports the median of the rounds' ratios and the mean figures of each side.
 */
async function compare(floor, portal, token, baseline, inPortalUrl = null) {
  const [floorUrl, portalUrl] = await Promise.all([floor.url, portal.url]);
  const baselineUrl = baseline ? await baseline.url : null;
  const options = { connections, duration, headers: { authorization: `Token ${token}` } };
  const floorBody = await keysBody(floorUrl, token);
  const portalBody = await keysBody(portalUrl, token);
  if (JSON.parse(portalBody).length !== 9) throw new Error('expected the 9 demo keys');
  if (floorBody !== portalBody) throw new Error(`floor and portal disagree:\n${floorBody}\n${portalBody}`);
  await load(`${floorUrl}/keys/`, { ...options, duration: 3 });
  await load(`${portalUrl}/keys/`, { ...options, duration: 3 });
  if (baselineUrl) {
    if ((await keysBody(baselineUrl, token)) !== portalBody) throw new Error('baseline and portal disagree');
    await load(`${baselineUrl}/keys/`, { ...options, duration: 3 });
  }
  if (inPortalUrl) {
    if ((await keysBody(inPortalUrl, token)) !== portalBody) throw new Error('the floor in the portal disagrees');
    await load(`${inPortalUrl}/keys/`, { ...options, duration: 3 });
  }
  const servers = {
    floor: [floorUrl, floor.pid],
    portal: [portalUrl, portal.pid],
    ...(baselineUrl ? { baseline: [baselineUrl, baseline.pid] } : {}),
    // The portal's process, idle on its own port while its floor route is loaded.
    ...(inPortalUrl ? { inPortal: [inPortalUrl, portal.pid] } : {}),
  };
  const order = Object.keys(servers);
  const runs = [];
  for (let round = 0; round < rounds; round += 1) {
    const run = {};
    // Each round in another order (rotated, and reversed in odd rounds): no server always goes first.
    const rotated = order.map((_, i) => order[(i + round) % order.length]);
    for (const which of round % 2 === 0 ? rotated : rotated.reverse()) {
      const [url, pid] = servers[which];
      run[which] = await load(`${url}/keys/`, { ...options, pid });
    }
    runs.push(run);
  }
  const ratiosOf = (a, b) => ({
    rps: runs.map((run) => run[a].rps / run[b].rps),
    p99: runs.map((run) => run[a].p99 / run[b].p99),
    cpu: runs.map((run) => run[a].cpuMicrosPerRequest / run[b].cpuMicrosPerRequest),
  });
  return {
    floor: mean(runs.map((run) => run.floor)),
    portal: mean(runs.map((run) => run.portal)),
    ratios: ratiosOf('portal', 'floor'),
    ...(baselineUrl
      ? {
          baseline: mean(runs.map((run) => run.baseline)),
          baselineRatios: ratiosOf('baseline', 'floor'),
          againstBaseline: ratiosOf('portal', 'baseline'),
        }
      : {}),
    ...(inPortalUrl
      ? {
          inPortal: mean(runs.map((run) => run.inPortal)),
          inPortalRatios: ratiosOf('inPortal', 'floor'),
          againstInPortal: ratiosOf('portal', 'inPortal'),
        }
      : {}),
  };
}

function mean(results) {
  const avg = (key) => results.reduce((sum, r) => sum + r[key], 0) / results.length;
  return {
    rps: avg('rps'),
    p50: avg('p50'),
    p99: avg('p99'),
    cpu: avg('cpuMicrosPerRequest'),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

function report(label, { floor, portal, ratios, baseline, baselineRatios, againstBaseline, ...more }) {
  const row = (name, r) =>
    `  ${name.padEnd(8)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  CPU ${r.cpu.toFixed(0).padStart(4)} µs/request  errors ${r.errors}`;
  const spread = (values) =>
    `median ${median(values).toFixed(2)} (rounds ${values.map((v) => v.toFixed(2)).join(' ')})`;
  console.log(label);
  console.log(row('floor', floor));
  console.log(row('portal', portal));
  console.log(`  portal / floor, throughput:      ${spread(ratios.rps)}`);
  console.log(`  portal / floor, p99:             ${spread(ratios.p99)}`);
  console.log(`  portal / floor, CPU per request: ${spread(ratios.cpu)}\n`);
  if (baseline) {
    console.log(row('baseline', baseline));
    console.log(`  baseline / floor, throughput:      ${spread(baselineRatios.rps)}`);
    console.log(`  baseline / floor, p99:             ${spread(baselineRatios.p99)}`);
    console.log(`  baseline / floor, CPU per request: ${spread(baselineRatios.cpu)}`);
    console.log(`  portal / baseline, throughput:      ${spread(againstBaseline.rps)}`);
    console.log(`  portal / baseline, CPU per request: ${spread(againstBaseline.cpu)}\n`);
  }
  if (more.inPortal) {
    console.log(row("floor in the portal's process", more.inPortal));
    console.log(`  floor in portal / floor, throughput:      ${spread(more.inPortalRatios.rps)}`);
    console.log(`  floor in portal / floor, CPU per request: ${spread(more.inPortalRatios.cpu)}`);
    console.log(`  portal / floor in portal, throughput:      ${spread(more.againstInPortal.rps)}`);
    console.log(`  portal / floor in portal, CPU per request: ${spread(more.againstInPortal.cpu)}\n`);
  }
}

async function onPostgres(url) {
  const inPortalPort = floorInPortal ? await freePort() : null;
  const portal = startServer(
    portalScript,
    { ...portalEnv, DATABASE_URL: url, ...(inPortalPort ? { FLOOR_PORT: String(inPortalPort) } : {}) },
    {
      quiet: true,
      nodeArgs: inPortalPort ? ['--import', path.join(import.meta.dirname, 'floor-in-portal.mjs')] : [],
    },
  );
  const floor = startServer(floorScript, { DATABASE_URL: url }, { quiet: true });
  let baseline = null;
  try {
    const token = await signIn(await portal.url);
    // Started once the portal has migrated and seeded the database: the two never seed at once.
    if (baselineScript) baseline = startServer(baselineScript, { ...portalEnv, DATABASE_URL: url }, { quiet: true });
    return await compare(floor, portal, token, baseline, inPortalPort ? `http://127.0.0.1:${inPortalPort}` : null);
  } finally {
    await Promise.all([portal.stop(), floor.stop(), baseline?.stop()]);
  }
}

async function onPglite() {
  // PGlite is one process's database: seed and sign in once, then give the floor its own copy of the data.
  const portalDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyport-bench-'));
  const floorDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyport-bench-floor-'));
  const env = { ...portalEnv, DATA_DIR: portalDir, DATABASE_URL: undefined };
  try {
    const seeding = startServer(portalScript, env, { quiet: true });
    const token = await signIn(await seeding.url);
    await seeding.stop();
    fs.cpSync(path.join(portalDir, 'pgdata'), path.join(floorDir, 'pgdata'), { recursive: true });
    const portal = startServer(portalScript, env, { quiet: true });
    const floor = startServer(floorScript, { DATA_DIR: floorDir, DATABASE_URL: undefined }, { quiet: true });
    try {
      return await compare(floor, portal, token);
    } finally {
      await Promise.all([portal.stop(), floor.stop()]);
    }
  } finally {
    fs.rmSync(portalDir, { recursive: true, force: true });
    fs.rmSync(floorDir, { recursive: true, force: true });
  }
}

console.log(
  `Node ${process.version}, ${os.cpus().length} CPUs, ${connections} connections, ${rounds} rounds of ${duration} s ` +
    `per server (after a 3 s warm-up), portal LOG_LEVEL=${portalEnv.LOG_LEVEL}\n`,
);
const only = process.env.BENCH_ONLY; // postgres | pglite
if (only !== 'pglite') {
  if (process.env.DATABASE_URL) {
    report('GET /keys/ on PostgreSQL', await onPostgres(process.env.DATABASE_URL));
  } else {
    console.log('GET /keys/ on PostgreSQL: skipped (set DATABASE_URL to include it)\n');
  }
}
if (only !== 'postgres') report('GET /keys/ on PGlite', await onPglite());
