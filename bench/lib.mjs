import { spawn } from 'node:child_process';
import autocannon from 'autocannon';

/**
 * Starts a server script as a child process and resolves with its URL once it logs that it listens. A variable set
 * to undefined in `env` is removed from the child's environment.
 */
export function startServer(script, env = {}) {
  const childEnv = Object.fromEntries(
    Object.entries({ ...process.env, ...env }).filter(([, value]) => value !== undefined),
  );
  const child = spawn(process.execPath, [script], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = [];
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${log.join('')}`)), 90_000);
    const onData = (chunk) => {
      log.push(chunk.toString());
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(chunk.toString());
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}:\n${log.join('')}`));
    });
  });
  return {
    url,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Runs autocannon and returns req/s, latency percentiles and error counts. */
export async function load(url, { connections = 100, duration = 10, headers = {}, method = 'GET', body } = {}) {
  const result = await autocannon({ url, connections, duration, headers, method, body });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

export function printRow(name, r, baseline) {
  const ratio = baseline ? (r.rps / baseline.rps).toFixed(3) : '1.000';
  console.log(
    `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} req/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(5)} ms  errors ${r.errors}  ratio ${ratio}`,
  );
}
