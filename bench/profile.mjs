// `node bench/profile.mjs keys|validate` (after `npm run build -w @keyport/server`; DATABASE_URL required, and Redis at
// REDIS_URL or redis://127.0.0.1:6379 for `validate`): the V8 CPU profiles of the built portal and of the route's
// floor under the same load, one after the other, compared function by function in µs per request (issue 22,
// ADR 047). Each server runs with `node --cpu-prof`; only the samples taken while it was loaded count. Prints, per
// server, the functions with the most self time, then the functions (or, with PROFILE_BY=package, the packages)
// where the portal spends more than the floor. The profiler's own cost makes every figure about 1.5× the unprofiled
// CPU; compare within one run. PROFILE_SECONDS (default 10), PROFILE_TOP (default 40), BENCH_PORTAL_SCRIPT as in
// the other benches. The profiles stay in the printed directory (open them in Chrome's DevTools).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort, SANDBOX_PRODUCTION_ENV } from './lib.mjs';

const root = path.resolve(import.meta.dirname, '..');
const route = process.argv[2] ?? 'keys';
if (route !== 'keys' && route !== 'validate') throw new Error('usage: node bench/profile.mjs keys|validate');
if (!process.env.DATABASE_URL) throw new Error('bench/profile.mjs needs DATABASE_URL (PostgreSQL)');
const portalScript = process.env.BENCH_PORTAL_SCRIPT ?? path.join(root, 'apps/server/dist/server.js');
const seconds = Number(process.env.PROFILE_SECONDS ?? 10);
const top = Number(process.env.PROFILE_TOP ?? 40);
const byPackage = process.env.PROFILE_BY === 'package';
const out = fs.mkdtempSync(path.join(os.tmpdir(), `keyport-profile-${route}-`));
const STORE = 'bench-profile-store.com';

/** Starts a script under `--cpu-prof` on a free port; resolves once it answers HTTP. */
async function start(name, script, env) {
  const port = await freePort();
  const dir = path.join(out, name);
  const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=100', script], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    try {
      await fetch(`${base}/`).then((response) => response.arrayBuffer());
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const stop = () =>
    new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  return { name, base, dir, stop };
}

async function json(url, init) {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

const portal = await start('portal', portalScript, {
  ...SANDBOX_PRODUCTION_ENV,
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  SEED: 'true',
  RATE_LIMIT_PER_MINUTE: '1000000000',
  LICENSE_VALIDATE_RATE_LIMIT_PER_MINUTE: '1000000000',
  AUTH_RATE_LIMIT_MAX: '1000',
  DATA_DIR: path.join(out, 'data'),
  ...(route === 'validate'
    ? {
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        REDIS_KEY_PREFIX: `keyport-profile:${process.pid}:`,
      }
    : {}),
});
const { token: session } = await json(`${portal.base}/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'demo@example.com', password: 'demo-password' }),
});
let load;
if (route === 'keys') {
  load = { path: '/keys/', connections: 100, headers: { authorization: `Token ${session}` } };
} else {
  const keys = await json(`${portal.base}/keys/`, { headers: { authorization: `Token ${session}` } });
  const key = keys.find((k) => k.pro) ?? keys[0];
  const connected = await json(`${portal.base}/keys/`, {
    method: 'PUT',
    headers: { authorization: `Token ${session}`, 'content-type': 'application/json' },
    body: JSON.stringify({ key: key.api_key, main_url: STORE }),
  });
  const body = JSON.stringify({
    token: connected.tokentheme,
    domain: STORE,
    theme_version: '4.2.0',
    theme_edition: key.pro ? 'PRO' : key.lite ? 'LITE' : 'REGULAR',
  });
  load = {
    path: '/api/licenses/validate',
    connections: 50,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  };
}
const floorScript = path.join(import.meta.dirname, route === 'keys' ? 'floor-server.mjs' : 'validate-floor-server.mjs');
const floor = await start('floor', floorScript, route === 'keys' ? { DATABASE_URL: process.env.DATABASE_URL } : {});

const servers = [floor, portal];
for (const server of servers) await autocannon({ ...load, url: server.base + load.path, duration: 2 });
const windows = {};
for (const server of servers) {
  const from = Date.now();
  const result = await autocannon({ ...load, url: server.base + load.path, duration: seconds });
  windows[server.name] = { from, to: Date.now(), requests: result.requests.total };
}
await Promise.all(servers.map((server) => server.stop()));

/** Self time per function (or package) in µs, of the samples taken while the server was loaded. */
function selfTimes(server) {
  const file = fs.readdirSync(server.dir).find((name) => name.endsWith('.cpuprofile'));
  const profilePath = path.join(server.dir, file);
  const profile = JSON.parse(fs.readFileSync(profilePath, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  // The profile's clock is monotonic (µs); the file is written when the process exits: its mtime maps the two.
  const endWall = fs.statSync(profilePath).mtimeMs;
  const { from, to } = windows[server.name];
  const start = profile.endTime - (endWall - from) * 1000;
  const end = profile.endTime - (endWall - to) * 1000;
  const self = new Map();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i += 1) {
    at += profile.timeDeltas[i];
    if (at < start || at > end) continue;
    const frame = nodes.get(profile.samples[i]).callFrame;
    const key = byPackage ? packageOf(frame) : functionOf(frame);
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  }
  return self;
}

function functionOf(frame) {
  const where = frame.url.replace(/.*node_modules\//, '').replace(/.*\/dist\//, 'dist/');
  return `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
}

function packageOf(frame) {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url);
  if (pkg) return pkg[1];
  if (frame.url.includes('/dist/server.js')) return 'the portal';
  if (frame.url.startsWith('node:')) return frame.url;
  return frame.url ? path.basename(frame.url) : frame.functionName || '(native)';
}

const perRequest = {};
for (const server of servers) {
  const self = selfTimes(server);
  const { requests } = windows[server.name];
  perRequest[server.name] = new Map([...self].map(([key, micros]) => [key, micros / requests]));
  const total = [...self.values()].reduce((sum, micros) => sum + micros, 0) / requests;
  console.log(`\n${server.name}: ${requests} requests in ${seconds} s, ${total.toFixed(1)} µs of profile per request`);
  for (const [key, micros] of [...perRequest[server.name]].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${micros.toFixed(2).padStart(8)}  ${key}`);
  }
}
const keys = new Set([...perRequest.floor.keys(), ...perRequest.portal.keys()]);
const differences = [...keys]
  .map((key) => [key, (perRequest.portal.get(key) ?? 0) - (perRequest.floor.get(key) ?? 0)])
  .sort((a, b) => b[1] - a[1]);
const gap = differences.reduce((sum, [, micros]) => sum + micros, 0);
console.log(`\nportal - floor: ${gap.toFixed(1)} µs of profile per request (the largest differences)`);
for (const [key, micros] of differences.slice(0, top)) console.log(`${micros.toFixed(2).padStart(8)}  ${key}`);
console.log(`\nprofiles in ${out}`);
