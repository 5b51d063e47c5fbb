// `npm run bench:keys-rows` (issue 22, ADR 049): the keys list's statement as `GET /keys/` runs it (prepareArrayRows:
// the driver's prepared statement, rows as arrays made into one literal each) against how it ran before (drizzle's
// prepared `all()`: the driver builds each row by name), in one process, in alternating blocks, as CPU per call. An
// end-to-end run cannot tell a few µs apart on a shared machine (a process's whole life runs up to 25 % faster or
// slower than the next one's, docs/performance.md); two ways of running one statement in one process can.
//
// On PostgreSQL (DATABASE_URL: a scratch database is created next to it and dropped) or, without it, an in-memory
// PGlite. Before timing, the process runs 30 other statement shapes through the same driver, as the portal's process
// does (its other routes): row building by name then meets many row shapes. BENCH_BLOCKS (default 12) blocks of
// BENCH_CALLS (default 3000) calls each, 50 at a time.
import { asc, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type Database } from '../apps/server/src/db/client';
import { licenseKeys, sessions, users } from '../apps/server/src/db/schema';
import { prepareListKeysByOwner } from '../apps/server/src/modules/keys/keys.repo';

const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 12);
const CALLS = Number(process.env.BENCH_CALLS ?? 3000);
const serverUrl = process.env.DATABASE_URL;
const scratchName = `keyport_bench_keys_rows_${process.pid}`;

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The owner's keys as ADR 047 ran them: the same select, drizzle's prepared `all()`. */
function drizzleAll(db: Database['db']) {
  const query = db
    .select({
      id: sql<number>`${licenseKeys.id}`.as('id'),
      api_key: sql<string>`${licenseKeys.apiKey}`.as('api_key'),
      pro: sql<boolean>`${licenseKeys.tier} = 'PRO'`.as('pro'),
      lite: sql<boolean>`${licenseKeys.tier} = 'LITE'`.as('lite'),
      linked_app_store: sql<string | null>`${licenseKeys.linkedAppStore}`.as('linked_app_store'),
      main_url: sql<string | null>`${licenseKeys.mainUrl}`.as('main_url'),
      myshopify: sql<string | null>`${licenseKeys.myshopify}`.as('myshopify'),
      secondary_url: sql<string | null>`${licenseKeys.secondaryUrl}`.as('secondary_url'),
    })
    .from(licenseKeys)
    .where(eq(licenseKeys.ownerId, sql.placeholder('ownerId')))
    .orderBy(asc(licenseKeys.id));
  const prepared = query.prepare('bench_keys_drizzle_all') as unknown as {
    all(values: Record<string, unknown>): Promise<unknown[]>;
  };
  return (ownerId: number) => prepared.all({ ownerId });
}

/** CPU per call (µs) of `calls` calls, 50 in flight, each answer serialized as the route's would be. */
async function block(list: (ownerId: number) => Promise<unknown[]>, ownerId: number, calls: number) {
  const started = process.cpuUsage();
  let next = 0;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next++ < calls) JSON.stringify(await list(ownerId));
    }),
  );
  const used = process.cpuUsage(started);
  return (used.user + used.system) / calls;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

async function main() {
  let url: string | null = null;
  if (serverUrl) {
    await admin(`create database ${scratchName}`);
    const scratch = new URL(serverUrl);
    scratch.pathname = `/${scratchName}`;
    url = scratch.toString();
  }
  const database = await openDatabase(url ? { kind: 'postgres', url } : { kind: 'pglite', dataDir: null });
  try {
    const { db } = database;
    // Nine keys for the owner (the demo customer's count), ninety of ten other owners around them.
    await db.execute(sql`insert into users (email, name, password_hash)
      select 'owner-' || n || '@example.com', 'Owner ' || n, 'x' from generate_series(1, 11) n`);
    await db.execute(sql`insert into license_keys (api_key, tier, owner_id, myshopify, main_url, claimed_at)
      select 'BENCH-' || n, (array['LITE', 'REGULAR', 'PRO'])[1 + n % 3]::tier, (select min(id) from users) + n % 11,
             case when n % 2 = 0 then 'store-' || n || '.myshopify.com' end,
             case when n % 3 = 0 then 'https://store-' || n || '.com' end, now()
      from generate_series(1, 99) n`);
    const [owner] = await db.select({ id: users.id }).from(users).orderBy(asc(users.id)).limit(1);
    const before = drizzleAll(db);
    const now = prepareListKeysByOwner(db);
    const [a, b] = [await before(owner!.id), await now(owner!.id)];
    if (JSON.stringify(a) !== JSON.stringify(b) || a.length !== 9) throw new Error('the two ways disagree');
    for (let i = 0; i < 30; i += 1) {
      await db.select().from(users).limit(3);
      await db.select().from(sessions).limit(3);
      await db.select().from(licenseKeys).limit(3);
      await db.execute(sql.raw(`select 1 as a${i}, 2 as b${i}, 'x' as c${i}`));
      const shape = db
        .select({ [`k${i}`]: licenseKeys.id, [`m${i}`]: licenseKeys.mainUrl })
        .from(licenseKeys)
        .limit(2)
        .prepare(`bench_shape_${i}`) as unknown as { all(values: Record<string, unknown>): Promise<unknown[]> };
      await shape.all({});
    }
    await block(before, owner!.id, CALLS);
    await block(now, owner!.id, CALLS);
    const times = { before: [] as number[], now: [] as number[] };
    for (let i = 0; i < BLOCKS; i += 1) {
      // Each pair in the other order: neither way always runs first.
      for (const which of i % 2 === 0 ? (['before', 'now'] as const) : (['now', 'before'] as const)) {
        times[which].push(await block(which === 'before' ? before : now, owner!.id, CALLS));
      }
    }
    const pairs = times.now.map((value, i) => value / times.before[i]!);
    console.log(
      `The keys list's statement, ${database.kind}, ${BLOCKS} blocks of ${CALLS} calls, CPU per call (median):\n` +
        `  drizzle all() (ADR 047)          ${median(times.before).toFixed(1)} µs\n` +
        `  prepareArrayRows (ADR 049)       ${median(times.now).toFixed(1)} µs\n` +
        `  ratio now / before: ${median(pairs).toFixed(3)} (pairs ${pairs.map((p) => p.toFixed(2)).join(' ')})`,
    );
  } finally {
    await database.close();
    if (serverUrl) await admin(`drop database if exists ${scratchName} with (force)`);
  }
}

await main();
