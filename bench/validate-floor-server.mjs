// The floor for `POST /api/licenses/validate`: a bare Fastify route that parses the JSON body and answers a fixed
// answer of the same shape, with nothing of the portal in it (no token check, no signature, no rate limit, no
// check-in). With FLOOR_WORKERS=N it runs N processes on one port with node:cluster, as the portal's --workers does.
import cluster from 'node:cluster';
import Fastify from 'fastify';

const workers = Number(process.env.FLOOR_WORKERS ?? 1);
const port = Number(process.env.PORT ?? 0);

if (workers > 1 && cluster.isPrimary) {
  let listening = 0;
  cluster.on('listening', (_worker, address) => {
    listening += 1;
    if (listening === workers) console.log(`Server listening at http://127.0.0.1:${address.port}`);
  });
  for (let i = 0; i < workers; i += 1) cluster.fork();
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
      process.exit(0);
    });
} else {
  const app = Fastify({ logger: false });
  app.post('/api/licenses/validate', async (request) => {
    const body = request.body ?? {};
    return {
      valid: typeof body.token === 'string' && body.token.length > 0,
      code: 'VALID',
      tier: 'PRO',
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      domain: String(body.domain ?? ''),
    };
  });
  await app.listen({ port, host: '127.0.0.1' });
  if (!cluster.isWorker) console.log(`Server listening at http://127.0.0.1:${app.server.address().port}`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => app.close().then(() => process.exit(0)));
}
