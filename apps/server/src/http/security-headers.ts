import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * 'api': a JSON answer for programs on any origin (the license validation, ADR 031), never a document a browser
     * renders: only the headers that matter to such an answer (`API_SECURITY_HEADERS`), not the document's CSP,
     * framing and opener policies. Every other route gets Helmet's full set.
     */
    securityHeaders?: 'api';
  }
}

/** What a JSON answer for programs keeps of Helmet's headers: no MIME sniffing, HTTPS only. */
export const API_SECURITY_HEADERS = ['x-content-type-options', 'strict-transport-security'] as const;

type HelmetMiddleware = ReturnType<typeof helmet>;

/** The headers `setHeaders` sets on a response (Helmet's are the same on every response: it reads nothing of it). */
function headersOf(setHeaders: HelmetMiddleware): Map<string, string> {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  setHeaders({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * Helmet's security headers (CSP, HSTS, X-Content-Type-Options, …) on every response. The middleware is run once
 * here: @fastify/helmet builds it again for every request (parsing the CSP directives each time), which cost more
 * than the rest of the keys route's own work (docs/performance.md). Routes configured `securityHeaders: 'api'` get
 * only `API_SECURITY_HEADERS`, with the values Helmet would give them.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  // Issue 22: Helmet's answer is the same on every response, so it is worked out once here and each response gets
  // the precomputed pairs, not a run of Helmet's middleware chain. ADR 047: into the reply's own headers (Fastify
  // hands them to Node's `writeHead` in one object with the rest), not onto the raw response: each raw `setHeader`
  // was validated and stored on its own, then merged with Fastify's headers at `writeHead` (about 1.5–2 µs of the
  // keys route). Fastify keeps them on error answers as before (its error handler replaces only the content type and
  // length), and on streamed ones.
  const documentHeaders = Object.freeze(Object.fromEntries(headersOf(helmet(options))));
  const apiHeaders = Object.freeze(
    Object.fromEntries(
      API_SECURITY_HEADERS.flatMap((name) => (name in documentHeaders ? [[name, documentHeaders[name]!]] : [])),
    ),
  );
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.routeOptions.config.securityHeaders === 'api' ? apiHeaders : documentHeaders);
    done();
  });
}
