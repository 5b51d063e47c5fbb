// `npm run bench:download`: the theme download with the token written in (POST /api/download-with-token) against
// the same release streamed unmodified through the same server (GET of its signed link), for 5, 50 and 250 MB theme
// zips. Reports MB/s, the ratio token/unmodified (goal ≥ 0.8) and the server's peak RSS growth while downloading
// (goal ≤ 64 MB whatever the size). Loopback only, bounded loops. Results go to docs/performance.md.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { SANDBOX_PRODUCTION_ENV, startServer } from './lib.mjs';

const root = path.resolve(import.meta.dirname, '..');
const MB = 1_000_000;
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
/** Token and unmodified measurements alternate in this many trials; each kind's median counts. */
const TRIALS = 5;

/** Edition, size in MB, sequential downloads of each kind, then that many concurrent downloads of each kind. */
const PLAN = [
  { edition: 'LITE', megabytes: 5, rounds: 10, concurrency: 4 },
  { edition: 'REGULAR', megabytes: 50, rounds: 4, concurrency: 4 },
  { edition: 'PRO', megabytes: 250, rounds: 2, concurrency: 4 },
];

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'keyport-bench-download-'));
const dataDir = path.join(work, 'data');
const zipDir = path.join(work, 'zips');
fs.mkdirSync(zipDir);

try {
  console.log(`Node ${process.version}, ${os.cpus().length} CPUs. Generating theme zips…`);
  execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(import.meta.dirname, 'make-theme-zips.ts'),
      zipDir,
      ...PLAN.map((p) => `${p.edition}:${p.megabytes}`),
    ],
    { cwd: root, stdio: 'inherit' },
  );
  const server = startServer(path.join(root, 'apps/server/dist/server.js'), {
    ...SANDBOX_PRODUCTION_ENV,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED: 'true',
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: '100000000',
    AUTH_RATE_LIMIT_MAX: '1000',
    DOWNLOAD_RATE_LIMIT_MAX: '100000',
  });
  try {
    const base = await server.url;
    const rows = await measure(base, server.pid);
    printTable(rows);
  } finally {
    agent.destroy();
    await server.stop();
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

async function measure(base, pid) {
  const staff = await login(base, 'staff@example.com', 'staff-password');
  const demo = await login(base, 'demo@example.com', 'demo-password');
  const keys = await call(base, 'GET', '/keys/', demo);
  const rows = [];
  for (const plan of PLAN) {
    await upload(base, staff, plan.edition, path.join(zipDir, `${plan.edition.toLowerCase()}.zip`));
    const key = keys.find((k) => tierOf(k) === plan.edition);
    const { tokentheme: token } = await call(base, 'PUT', '/keys/', demo, {
      key: key.api_key,
      main_url: 'bench-store.com',
      myshopify: 'bench-store',
    });
    const { result } = await call(base, 'POST', '/staff/get-releases', demo, { key: key.api_key });
    if (result.version !== '9.0.0') throw new Error(`expected the uploaded release, got ${result.version}`);
    const withToken = () =>
      download(`${base}/api/download-with-token`, {
        method: 'POST',
        headers: { authorization: `Token ${demo}`, 'content-type': 'application/json' },
        body: JSON.stringify({ downloadUrl: result.download_link, token, licenseType: plan.edition }),
      });
    const unmodified = () => download(result.download_link, {});

    await withToken(); // warm-up: the first rewrite opens the file cold
    await unmodified();
    // Shared machines drift: alternate the two kinds in several trials and keep each kind's median.
    const [sequentialToken, sequentialUnmodified] = await pairedTrials(
      () => sequentially(plan.rounds, withToken, pid),
      () => sequentially(plan.rounds, unmodified, pid),
    );
    const [concurrentToken, concurrentUnmodified] = await pairedTrials(
      () => concurrently(plan.concurrency, withToken, pid),
      () => concurrently(plan.concurrency, unmodified, pid),
    );
    rows.push({
      size: `${plan.megabytes} MB`,
      mode: `sequential ×${plan.rounds}`,
      token: sequentialToken.mbps,
      unmodified: sequentialUnmodified.mbps,
      rssToken: sequentialToken.rss,
      rssUnmodified: sequentialUnmodified.rss,
    });
    rows.push({
      size: `${plan.megabytes} MB`,
      mode: `${plan.concurrency} concurrent`,
      token: concurrentToken.mbps,
      unmodified: concurrentUnmodified.mbps,
      rssToken: concurrentToken.rss,
      rssUnmodified: concurrentUnmodified.rss,
    });
  }
  return rows;
}

/** Runs the two measurements alternately (A B A B …) TRIALS times; each one's median trial. */
async function pairedTrials(measureA, measureB) {
  const a = [];
  const b = [];
  for (let i = 0; i < TRIALS; i++) {
    a.push(await measureA());
    b.push(await measureB());
  }
  return [median(a), median(b)];
}

/** The trial with the median throughput, with the highest RSS growth seen in any trial. */
function median(results) {
  const sorted = [...results].sort((a, b) => a.mbps - b.mbps);
  return { mbps: sorted[Math.floor(sorted.length / 2)].mbps, rss: Math.max(...results.map((r) => r.rss)) };
}

/** N downloads one after another; MB/s over the time spent downloading, and the RSS growth meanwhile. */
async function sequentially(count, start, pid) {
  const rss = await watchRss(pid);
  const results = [];
  for (let i = 0; i < count; i++) results.push(await start());
  const bytes = results.reduce((sum, r) => sum + r.bytes, 0);
  const seconds = results.reduce((sum, r) => sum + r.seconds, 0);
  return { mbps: bytes / MB / seconds, rss: await rss.stop() };
}

/** Starts N downloads at once; aggregate MB/s over the wall time, and the RSS growth while they ran. */
async function concurrently(count, start, pid) {
  const rss = await watchRss(pid);
  const began = performance.now();
  const results = await Promise.all(Array.from({ length: count }, start));
  const seconds = (performance.now() - began) / 1000;
  const bytes = results.reduce((sum, r) => sum + r.bytes, 0);
  return { mbps: bytes / MB / seconds, rss: await rss.stop() };
}

/**
 * One download through node:http on a keep-alive agent (fetch adds several milliseconds to a POST on loopback, which
 * would be measured as the server's), counting and discarding the bytes.
 */
function download(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const request = http.request(url, { method, headers: { ...headers, ...length }, agent }, (response) => {
      let bytes = 0;
      response.on('data', (chunk) => (bytes += chunk.length));
      response.on('error', reject);
      response.on('end', () => {
        const expected = Number(response.headers['content-length']);
        if (response.statusCode !== 200) reject(new Error(`${url} → ${response.statusCode}`));
        else if (bytes !== expected) reject(new Error(`${url}: ${bytes} bytes, Content-Length said ${expected}`));
        else resolve({ bytes, seconds: (performance.now() - began) / 1000 });
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * Samples the server's RSS every 20 ms from /proc (ps elsewhere) and, on Linux, resets and reads the kernel's own
 * peak (VmHWM), so a spike between two samples is not missed. `stop()` answers the growth in MB over the RSS at start.
 */
async function watchRss(pid) {
  const procStatus = `/proc/${pid}/status`;
  const hasProc = fs.existsSync(procStatus);
  const readKb = (field) => {
    if (!hasProc)
      return Number(
        execFileSync('ps', ['-o', 'rss=', '-p', String(pid)])
          .toString()
          .trim(),
      );
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(procStatus, 'utf8'));
    return Number(match?.[1] ?? 0);
  };
  let peakResetWorks = false;
  if (hasProc) {
    try {
      fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
      peakResetWorks = true;
    } catch {
      // Not allowed here: rely on sampling.
    }
  }
  const baseline = readKb('VmRSS');
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, readKb('VmRSS'));
  }, 20);
  return {
    async stop() {
      clearInterval(timer);
      if (peakResetWorks) peak = Math.max(peak, readKb('VmHWM'));
      return (peak - baseline) / 1024;
    },
  };
}

async function login(base, email, password) {
  const { token } = await call(base, 'POST', '/auth/login', null, { email, password });
  return token;
}

async function call(base, method, url, session, body) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(session ? { authorization: `Token ${session}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${url} → ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** POST /staff/releases with the zip streamed from disk (a file-backed Blob). */
async function upload(base, staff, edition, file) {
  const form = new FormData();
  form.append('edition', edition);
  form.append('version', '9.0.0');
  form.append('notes', 'Benchmark release');
  form.append('reason', 'Benchmark release');
  form.append('file', await fs.openAsBlob(file, { type: 'application/zip' }), path.basename(file));
  const response = await fetch(`${base}/staff/releases`, {
    method: 'POST',
    headers: { authorization: `Token ${staff}` },
    body: form,
  });
  if (response.status !== 201) throw new Error(`upload ${edition}: ${response.status} ${await response.text()}`);
}

function tierOf(key) {
  if (key.pro) return 'PRO';
  return key.lite ? 'LITE' : 'REGULAR';
}

function printTable(rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  console.log();
  console.log(
    line(['zip', 'downloads', 'token MB/s', 'unmodified MB/s', 'ratio', 'RSS growth token', 'RSS growth unmodified']),
  );
  console.log(line(['---', '---', '---:', '---:', '---:', '---:', '---:']));
  for (const r of rows) {
    console.log(
      line([
        r.size,
        r.mode,
        r.token.toFixed(0),
        r.unmodified.toFixed(0),
        (r.token / r.unmodified).toFixed(2),
        `${r.rssToken.toFixed(1)} MB`,
        `${r.rssUnmodified.toFixed(1)} MB`,
      ]),
    );
  }
  const worstRatio = Math.min(...rows.map((r) => r.token / r.unmodified));
  const worstRss = Math.max(...rows.flatMap((r) => [r.rssToken, r.rssUnmodified]));
  console.log();
  console.log(`lowest ratio ${worstRatio.toFixed(2)} (goal ≥ 0.80): ${worstRatio >= 0.8 ? 'met' : 'NOT met'}`);
  console.log(`highest RSS growth ${worstRss.toFixed(1)} MB (goal ≤ 64 MB): ${worstRss <= 64 ? 'met' : 'NOT met'}`);
}
