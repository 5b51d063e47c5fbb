import type { FastifyInstance } from 'fastify';
import * as contracts from '@keyport/shared/contracts/licenses';
import { publicCors, fixedCorsHeaders, registerPublicPreflight } from '../../http/cors';
import { registerRoute } from '../../http/route';

export async function licensesRoutes(app: FastifyInstance) {
  const licenses = app.services.licenses;
  const cors = publicCors('POST', [contracts.LICENSE_SIGNATURE_HEADER]);

  // Public, CORS open, signed (ADR 031). Every answer is readable from any origin, its errors (400, 413, 429) included:
  // the headers are set when the request arrives (`fixedCorsHeaders`: the ones @fastify/cors would set, cheaper,
  // ADR 043), and an error's answer keeps them; the preflight is @fastify/cors's. The global per-IP limit
  // is replaced by the route's own, more generous one; a request is a token and three short fields, so the body limit
  // is small. Storefronts call it on page views (ADR 031 "Performance"): it never reads a session, its requests are not
  // logged one by one (`logLevel: 'warn'`; no request's logger is built unless something is logged, on every route: ADR 047), and it
  // gets the security headers of an API answer rather than a document's.
  registerRoute(
    app,
    contracts.validateLicense,
    async ({ body }, request, reply) => {
      const signed = await licenses.validate(body, request.ip);
      // ADR 047: in the reply's headers with the others (Node gets them in one `writeHead` object).
      reply.header(contracts.LICENSE_SIGNATURE_HEADER, signed.signature);
      reply.header('cache-control', signed.cacheControl);
      // The signed bytes are the body: no second serialization may reorder or re-encode them. A custom serializer
      // leaves the type to the route (Fastify sets none then): JSON, as the contract's other answers.
      reply.type('application/json; charset=utf-8');
      reply.serializer(() => signed.body);
      return signed.answer;
    },
    {
      config: { rateLimit: false, securityHeaders: 'api' },
      bodyLimit: 16 * 1024,
      logLevel: 'warn',
      session: 'ignored',
      onRequest: fixedCorsHeaders(cors),
    },
  );
  registerPublicPreflight(app, contracts.validateLicense.path, cors);

  registerRoute(app, contracts.getKeysHealth, ({ user }) => licenses.keysHealth(user.id));
  registerRoute(app, contracts.staffListSightings, async ({ query }) => {
    const page = await licenses.listSightings(query);
    // The store reports naming each domain: the credits module's (it reads this module, so asked here, one way).
    const reports = await app.services.credits.reportCountsOfDomains(page.sightings.map((sighting) => sighting.domain));
    return {
      ...page,
      sightings: page.sightings.map((sighting) => ({
        ...sighting,
        reports: reports.get(sighting.domain) ?? { pending: 0, approved: 0, rejected: 0 },
      })),
    };
  });
}
