// The floor for `GET /keys/`: the least an authenticated keys list can do, with nothing of the portal in it. A bare
// Fastify route reads `Authorization: Token <t>`, hashes the token (SHA-256, as the portal stores it), and runs one
// prepared statement that checks the session and selects the owner's keys: no framework hooks, no validation,
// no cache. It answers the same JSON as the portal (bench/run.mjs checks the bytes). PostgreSQL through raw `pg`
// (a pool of 10, as the portal's) when DATABASE_URL is set; else PGlite on DATA_DIR/pgdata.
import { createHash } from 'node:crypto';
import path from 'node:path';
import Fastify from 'fastify';

const KEYS_OF_SESSION = `
  select k.id, k.api_key, k.tier = 'PRO' as pro, k.tier = 'LITE' as lite,
         k.linked_app_store, k.main_url, k.myshopify, k.secondary_url
  from sessions s
  left join license_keys k on k.owner_id = s.user_id
  where s.token_hash = $1 and s.expires_at > now()
  order by k.id`;
const SCHEME = /^(?:Token|Bearer)\s+([A-Za-z0-9_-]{16,128})\s*$/i;

const query = await connect();
const app = Fastify({ logger: false });
app.get('/keys/', async (request, reply) => {
  const token = SCHEME.exec(request.headers.authorization ?? '')?.[1];
  if (!token) return reply.code(401).send({ error: 'Please sign in.', code: 'unauthorized' });
  const rows = await query(createHash('sha256').update(token).digest('hex'));
  if (rows.length === 0) return reply.code(401).send({ error: 'Please sign in.', code: 'unauthorized' });
  // A valid session without keys gives one row of nulls.
  return rows[0].id === null ? [] : rows;
});
// In the portal's process (bench/floor-in-portal.mjs) it listens on FLOOR_PORT and leaves the shutdown to the portal.
const inPortal = process.env.FLOOR_PORT !== undefined;
await app.listen({ port: Number((inPortal ? process.env.FLOOR_PORT : process.env.PORT) ?? 0), host: '127.0.0.1' });
console.log(`Server listening at http://127.0.0.1:${app.server.address().port}`);
if (!inPortal) {
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => app.close().then(() => process.exit(0)));
}

async function connect() {
  if (process.env.DATABASE_URL) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
    return async (tokenHash) =>
      (await pool.query({ name: 'floor_keys_of_session', text: KEYS_OF_SESSION, values: [tokenHash] })).rows;
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite(path.join(process.env.DATA_DIR, 'pgdata'));
  await db.waitReady;
  return async (tokenHash) => (await db.query(KEYS_OF_SESSION, [tokenHash])).rows;
}
