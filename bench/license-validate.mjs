// `npm run bench:validate`: POST /api/licenses/validate on the built portal against its floor (bench/validate-floor-
// server.mjs, a bare route answering a fixed body), one process and then two workers of each, on PostgreSQL
// (DATABASE_URL, required: two workers need it) and Redis (REDIS_URL, default redis://127.0.0.1:6379), so rate limits
// and check-ins go through Redis as in a scaled deployment. Floor and portal are loaded in turns; the goal is
// portal ≥ 0.7 × floor in one process (issue 22; 0.5 at each process count in issue 13). Then the one-process portal serves BENCH_RSS_CALLS validations
// (1 million by default) while its RSS is sampled: it should stay flat. Recorded in docs/performance.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { load, printRow, SANDBOX_PRODUCTION_ENV, startServer } from './lib.mjs';

const root = path.resolve(import.meta.dirname, '..');
// BENCH_PORTAL_SCRIPT: another build of the server to compare (e.g. an older commit's apps/server/dist/server.js).
const portalScript = process.env.BENCH_PORTAL_SCRIPT ?? path.join(root, 'apps/server/dist/server.js');
const floorScript = path.join(import.meta.dirname, 'validate-floor-server.mjs');
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const duration = Number(process.env.BENCH_DURATION ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const rssCalls = Number(process.env.BENCH_RSS_CALLS ?? 1_000_000);
const databaseUrl = process.env.DATABASE_URL;
// REDIS_URL= (empty) with BENCH_WORKERS=1: the one-process default, shared state in process memory (no Redis).
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
if (!databaseUrl) {
  console.error('bench:validate needs DATABASE_URL (PostgreSQL): two workers cannot share the embedded database.');
  process.exit(1);
}
const DOMAIN = 'bench-validate-store.com';
// BENCH_WORKERS=1 (or 2): only that process count; BENCH_RSS_CALLS=0 skips the RSS run.

function portalEnv(workers, dataDir) {
  return {
    ...SANDBOX_PRODUCTION_ENV,
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    SEED: 'true',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl || undefined,
    REDIS_KEY_PREFIX: `keyport-bench:${process.pid}:`,
    WORKERS: String(workers),
    RATE_LIMIT_PER_MINUTE: '1000000000',
    LICENSE_VALIDATE_RATE_LIMIT_PER_MINUTE: '1000000000',
  };
}

/** Signs in as the demo customer, connects one of its keys to the bench store and answers the validation body. */
async function validationBody(base) {
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'demo@example.com', password: 'demo-password' }),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  const session = (await login.json()).token;
  const keys = await (await fetch(`${base}/keys/`, { headers: { authorization: `Token ${session}` } })).json();
  const key = keys.find((k) => k.pro) ?? keys[0];
  const connected = await fetch(`${base}/keys/`, {
    method: 'PUT',
    headers: { authorization: `Token ${session}`, 'content-type': 'application/json' },
    body: JSON.stringify({ key: key.api_key, main_url: DOMAIN }),
  });
  if (!connected.ok) throw new Error(`connecting the key failed: ${connected.status} ${await connected.text()}`);
  const token = (await connected.json()).tokentheme;
  const tier = key.pro ? 'PRO' : key.lite ? 'LITE' : 'REGULAR';
  return JSON.stringify({ token, domain: DOMAIN, theme_version: '4.2.0', theme_edition: tier });
}

async function check(base, body) {
  const response = await fetch(`${base}/api/licenses/validate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const answer = await response.json();
  if (!response.ok || answer.code !== 'VALID') throw new Error(`${base} answered ${JSON.stringify(answer)}`);
}

async function compare(label, floor, portal, body, pids) {
  const [floorUrl, portalUrl] = await Promise.all([floor.url, portal.url]);
  await check(floorUrl, body);
  await check(portalUrl, body);
  const options = { connections, method: 'POST', headers: { 'content-type': 'application/json' }, body };
  await load(`${floorUrl}/api/licenses/validate`, { ...options, duration: 2 });
  await load(`${portalUrl}/api/licenses/validate`, { ...options, duration: 2 });
  const ratios = [];
  const sums = {
    floor: { rps: 0, p50: 0, p99: 0, errors: 0, cpu: 0 },
    portal: { rps: 0, p50: 0, p99: 0, errors: 0, cpu: 0 },
  };
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? ['floor', 'portal'] : ['portal', 'floor'];
    const results = {};
    for (const side of order) {
      const url = side === 'floor' ? floorUrl : portalUrl;
      results[side] = await load(`${url}/api/licenses/validate`, {
        ...options,
        duration,
        pid: pids?.[side],
      });
    }
    ratios.push(results.portal.rps / results.floor.rps);
    for (const side of ['floor', 'portal']) {
      sums[side].rps += results[side].rps / rounds;
      sums[side].p50 += (results[side].p50 ?? 0) / rounds;
      sums[side].p99 += results[side].p99 / rounds;
      sums[side].cpu += (results[side].cpuMicrosPerRequest ?? 0) / rounds;
      sums[side].errors += results[side].errors;
    }
  }
  ratios.sort((x, y) => x - y);
  const median = ratios[Math.floor(ratios.length / 2)];
  console.log(`\n${label}`);
  printRow('floor (bare route)', sums.floor, null);
  printRow('portal POST /api/licenses/validate', sums.portal, sums.floor);
  console.log(`median ratio of ${rounds} rounds: ${median.toFixed(3)} (goal ≥ 0.7 in one process, issue 22)`);
  if (pids) {
    const cpu = (side) => `${sums[side].cpu.toFixed(0)} µs`;
    console.log(
      `CPU per request: floor ${cpu('floor')}, portal ${cpu('portal')} (floor / portal ${(sums.floor.cpu / sums.portal.cpu).toFixed(3)}: the ratio with the machine's other load taken out)`,
    );
  }
  return median;
}

function rssKiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
}

/** `calls` validations on the one-process portal, its RSS sampled every 5 s. */
async function rssOver(url, pid, body, calls) {
  const samples = [];
  const started = Date.now();
  const timer = setInterval(
    () => samples.push({ at: Math.round((Date.now() - started) / 1000), rss: rssKiB(pid) }),
    5000,
  );
  const result = await autocannon({
    url: `${url}/api/licenses/validate`,
    connections,
    amount: calls,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  clearInterval(timer);
  samples.push({ at: Math.round((Date.now() - started) / 1000), rss: rssKiB(pid) });
  const mib = (kib) => (kib / 1024).toFixed(1);
  console.log(`\nRSS of the one-process portal over ${result.requests.total} validations (${result.non2xx} non-2xx):`);
  console.log(samples.map((s) => `${s.at}s ${mib(s.rss)} MiB`).join(', '));
  const tail = samples.slice(Math.floor(samples.length / 2));
  console.log(
    `first ${mib(samples[0].rss)} MiB, second-half min ${mib(Math.min(...tail.map((s) => s.rss)))} / max ${mib(Math.max(...tail.map((s) => s.rss)))} MiB, last ${mib(samples.at(-1).rss)} MiB`,
  );
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keyport-bench-validate-'));
try {
  console.log(
    `POST /api/licenses/validate: ${connections} connections, ${rounds} rounds of ${duration} s, ${os.cpus().length} CPUs, PostgreSQL${redisUrl ? ' + Redis' : ' (no Redis: shared state in process memory)'}`,
  );
  for (const workers of (process.env.BENCH_WORKERS ?? '1,2').split(',').map(Number)) {
    const floor = startServer(floorScript, { FLOOR_WORKERS: String(workers) }, { quiet: true });
    const portal = startServer(portalScript, portalEnv(workers, dataDir), { quiet: true });
    try {
      const body = await validationBody(await portal.url);
      await compare(
        `${workers === 1 ? 'one process' : `${workers} workers`} each`,
        floor,
        portal,
        body,
        workers === 1 ? { floor: floor.pid, portal: portal.pid } : undefined,
      );
      if (workers === 1 && rssCalls > 0) await rssOver(await portal.url, portal.pid, body, rssCalls);
    } finally {
      await Promise.all([floor.stop(), portal.stop()]);
    }
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
