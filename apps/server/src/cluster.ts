import cluster, { type Worker } from 'node:cluster';
import pino from 'pino';
import type { Config } from './config';

/** A worker that dies sooner than this after its start is restarted after a pause (no restart loop). */
const QUICK_DEATH_MS = 5_000;
const RESTART_PAUSE_MS = 1_000;
/** How long the primary waits for the workers to finish their requests on SIGINT/SIGTERM. */
const STOP_TIMEOUT_MS = 15_000;

/** `--workers N` or `--workers=N` from the command line (`npm start -- --workers 4`), or null. */
export function workersArgument(args: string[]): string | null {
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--workers') return args[i + 1] ?? '';
    if (arg.startsWith('--workers=')) return arg.slice('--workers='.length);
  }
  return null;
}

/**
 * The cluster's primary: runs `prepare` once (migrations, demo data), then forks `config.workers` workers that share
 * the port (Node's cluster hands out connections), restarts a worker that dies, and stops them all on SIGINT/SIGTERM.
 */
export async function runCluster(
  config: Config,
  options: { prepare: () => Promise<void>; welcome: ((url: string) => void) | null },
) {
  const log = pino({ level: config.logLevel, name: 'primary' });
  await options.prepare();
  let stopping = false;
  let welcomed = false;
  const startedAt = new Map<number, number>();
  const listening = new Set<number>();

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
    return worker;
  };

  cluster.on('listening', (worker: Worker, address) => {
    listening.add(worker.id);
    if (!welcomed && listening.size === config.workers) {
      welcomed = true;
      log.info({ workers: config.workers, port: address.port }, 'all workers listening');
      const host = !address.address || address.address === '0.0.0.0' ? 'localhost' : address.address;
      options.welcome?.(`http://${host}:${address.port}`);
    }
  });
  cluster.on('exit', (worker: Worker, code, signal) => {
    listening.delete(worker.id);
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (stopping) return;
    log.error({ worker: worker.id, code, signal }, 'worker died: starting another');
    if (lived < QUICK_DEATH_MS) setTimeout(() => stopping || fork(), RESTART_PAUSE_MS);
    else fork();
  });

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, stopping ${Object.keys(cluster.workers ?? {}).length} workers`);
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => Boolean(worker));
    const timer = setTimeout(() => {
      for (const worker of workers) worker.process.kill('SIGKILL');
      process.exit(1);
    }, STOP_TIMEOUT_MS);
    let left = workers.length;
    if (left === 0) process.exit(0);
    for (const worker of workers) {
      worker.once('exit', () => {
        left -= 1;
        if (left === 0) {
          clearTimeout(timer);
          process.exit(0);
        }
      });
      worker.process.kill('SIGTERM');
    }
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  for (let i = 0; i < config.workers; i += 1) fork();
}
