// The baseline: a bare Fastify route answering a small JSON body, measured in the same run as Keyport.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => [{ id: 1, api_key: 'BASELINE', pro: true, lite: false }]);
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`Server listening at http://127.0.0.1:${app.server.address().port}`);
