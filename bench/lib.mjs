import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import autocannon from 'autocannon';

/**
 * A production start of the portal on its sandboxes (issue 19: production refuses sandboxes without the opt-in, and
 * invoices need a seller): what the benchmarks run with.
 */
export const SANDBOX_PRODUCTION_ENV = {
  NODE_ENV: 'production',
  SANDBOX_INTEGRATIONS: 'true',
  SELLER_NAME: 'Keyport Themes Ltd',
  SELLER_ADDRESS: '1 Sandbox Street|London EC1A 1BB',
  SELLER_VAT_ID: 'GB123456789',
};

/**
 * Starts a server script as a child process and resolves with its URL once it logs that it listens. A variable set
 * to undefined in `env` is removed from the child's environment.
 *
 * With `{ quiet: true }` the server gets a free port in PORT, its standard output goes nowhere (a server logging
 * every request at info level would otherwise make this process read every line), and it counts as started once
 * it answers HTTP on that port. `nodeArgs` go to node before the script (`--import` of a preload, say).
 */
export function startServer(script, env = {}, { quiet = false, nodeArgs = [] } = {}) {
  let child;
  const log = [];
  const url = (async () => {
    const port = quiet ? await freePort() : null;
    const childEnv = Object.fromEntries(
      Object.entries({ ...process.env, ...env, ...(port ? { PORT: String(port) } : {}) }).filter(
        ([, value]) => value !== undefined,
      ),
    );
    child = spawn(process.execPath, [...nodeArgs, script], {
      env: childEnv,
      stdio: ['ignore', quiet ? 'ignore' : 'pipe', 'pipe'],
    });
    const exited = new Promise((_, reject) =>
      child.on('exit', (code) => reject(new Error(`${script} exited with ${code}:\n${log.join('')}`))),
    );
    exited.catch(() => {});
    const started = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${log.join('')}`)), 90_000);
      const onData = (chunk) => {
        if (log.length < 200) log.push(chunk.toString());
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(chunk.toString());
        if (match && !quiet) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout?.on('data', onData);
      child.stderr.on('data', onData);
      if (quiet) {
        const base = `http://127.0.0.1:${port}`;
        const poll = async () => {
          try {
            await fetch(`${base}/`, { signal: AbortSignal.timeout(2000) }).then((response) => response.arrayBuffer());
            clearTimeout(timer);
            resolve(base);
          } catch {
            if (child.exitCode === null) setTimeout(poll, 100);
          }
        };
        void poll();
      }
    });
    return Promise.race([started, exited]);
  })();
  return {
    url,
    get pid() {
      return child?.pid;
    },
    stop: async () => {
      await url.catch(() => {});
      if (!child || child.exitCode !== null) return;
      await new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    },
  };
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs autocannon and returns req/s, latency percentiles and error counts; with `pid`, also the server process's CPU
 * time per request (user + system, from /proc): unlike req/s, it hardly moves when other work shares the machine.
 */
export async function load(url, { connections = 100, duration = 10, headers = {}, method = 'GET', body, pid } = {}) {
  const cpuBefore = pid ? cpuSeconds(pid) : null;
  const result = await autocannon({ url, connections, duration, headers, method, body });
  const cpuAfter = pid ? cpuSeconds(pid) : null;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    cpuMicrosPerRequest:
      cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1e6) / result.requests.total,
  };
}

/** CPU seconds (user + system) used so far by a process, or null where /proc is not available. */
export function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line (11 and 12 after the command name), in clock ticks.
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
const CLOCK_TICKS = 100;

export function printRow(name, r, baseline) {
  const ratio = baseline ? (r.rps / baseline.rps).toFixed(3) : '1.000';
  console.log(
    `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} req/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(5)} ms  errors ${r.errors}  ratio ${ratio}`,
  );
}
