import cluster from 'node:cluster';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { buildApp } from './app';
import { ConfigError, loadConfig, startNotices, type Config } from './config';
import { DataDirLockedError, openDatabase } from './db/client';
import { seedDemoData } from './db/seed';
import { DEMO_ACCOUNTS, UNCLAIMED_KEYS } from './db/seed-data';
import { runCluster, workersArgument } from './cluster';

/**
 * Reads config, opens the database, builds the app and listens. With WORKERS (or `--workers N`) above 1, the primary
 * prepares the database once and runs that many workers on one port (cluster.ts); each worker runs this same file.
 */
async function main() {
  const workers = workersArgument(process.argv.slice(2));
  const config = loadConfig(workers === null ? process.env : { ...process.env, WORKERS: workers });
  if (config.workers > 1 && cluster.isPrimary) {
    await runCluster(config, { prepare: () => prepare(config), welcome: config.seed ? printWelcome : null });
    return;
  }
  await serve(config, { seed: cluster.isPrimary && config.seed });
}

/** The primary's one-off work before forking: migrations, signing key and link secret files, catalogue, demo data. */
async function prepare(config: Config) {
  const lost = connectionLostLogger();
  const database = await openDatabase(config.database, { onConnectionLost: lost.report });
  const app = await buildApp(config, { db: database.db });
  lost.useLogger(app.log);
  try {
    await app.ready();
    if (config.seed) await seedDemoData(app.services, app.log);
  } finally {
    await app.close();
    await database.close();
  }
}

async function serve(config: Config, options: { seed: boolean }) {
  const lost = connectionLostLogger();
  const database = await openDatabase(config.database, { onConnectionLost: lost.report });
  // Logs are written asynchronously: lines logged while a write is under way go out together in the next one, instead
  // of two blocking writes per request (docs/performance.md). Issue 22: and in writes of at least 4 KiB, or every
  // 100 ms whatever has come (a write per request cost more than the line itself). Flushed when the server stops.
  const logDestination = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 100 });
  const app = await buildApp(config, { db: database.db, logDestination });
  // Production on sandboxes (SANDBOX_INTEGRATIONS=true) and analytics that are off are said at every start.
  for (const notice of startNotices(config)) app.log.warn(notice);
  lost.useLogger(app.log);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal} received, shutting down`);
    await app.close();
    await database.close();
    logDestination.flushSync();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  try {
    if (options.seed) await seedDemoData(app.services, app.log);
    const address = await app.listen({ port: config.port, host: config.host });
    if (options.seed) printWelcome(address.replace('0.0.0.0', 'localhost'));
  } catch (error) {
    app.log.error({ err: error }, 'start failed');
    await app.close();
    await database.close();
    logDestination.flushSync();
    process.exit(1);
  }
}

/**
 * Logs PostgreSQL dropping an idle connection (a restart, an administrator's terminate): the pool reconnects by
 * itself and requests meanwhile get 503, so the process stays up. Before the app's logger exists, standard error.
 */
function connectionLostLogger() {
  let log: Pick<FastifyBaseLogger, 'warn'> | null = null;
  return {
    report(error: Error) {
      if (log) log.warn({ err: error }, 'database connection lost; the pool opens a new one when needed');
      else console.warn(`database connection lost: ${error.message}`);
    },
    useLogger(logger: Pick<FastifyBaseLogger, 'warn'>) {
      log = logger;
    },
  };
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});

/** A plain-text welcome for the person who ran `npm start` (the JSON logs are for machines). */
function printWelcome(url: string) {
  const accounts = DEMO_ACCOUNTS.map(
    (a) => `    ${a.email.padEnd(20)} ${a.password.padEnd(16)} ${a.role ?? 'customer'}`,
  );
  process.stdout.write(
    [
      '',
      `  Keyport is running at ${url}/customer/my-keys`,
      '',
      '  Demo sign-ins:',
      ...accounts,
      '',
      `  Unclaimed keys to try "Add New Key": ${UNCLAIMED_KEYS.slice(0, 2)
        .map((k) => k.apiKey)
        .join(', ')}, … (README)`,
      '',
      '',
    ].join('\n'),
  );
}
