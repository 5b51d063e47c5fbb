import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Which security headers the route's answers carry (ADR 048):
     * - 'document' (the default, and every route not declared from a contract: the web app's pages, the API docs):
     *   Helmet's full set, the CSP the pages need included;
     * - 'json' (every contract route that answers JSON, set by `registerRoute`): `JSON_SECURITY_HEADERS`, what a JSON
     *   answer for the portal's own web app needs and nothing a browser only reads on a document;
     * - 'api' (the license validation, ADR 031): a JSON answer for programs on any origin, `API_SECURITY_HEADERS`.
     */
    securityHeaders?: 'document' | 'json' | 'api';
  }
  interface FastifyInstance {
    /** Helmet's full set, for an answer that turns out to be a document on a route that answers JSON (below). */
    documentSecurityHeaders: Readonly<Record<string, string>>;
  }
}

/** What a JSON answer for programs on any origin keeps of Helmet's headers: no MIME sniffing, HTTPS only. */
export const API_SECURITY_HEADERS = ['x-content-type-options', 'strict-transport-security'] as const;

/**
 * A JSON answer of the portal's own API (OWASP's REST Security Cheat Sheet, "Security headers"): never rendered,
 * never framed (`frame-ancestors 'none'` and its older twin X-Frame-Options), never loaded by another site as a
 * no-cors resource (CORP), never MIME-sniffed, HTTPS only. Helmet's document headers (the pages' CSP, the opener and
 * agent-cluster policies, the referrer policy, DNS prefetch, IE's download and XSS switches, Flash's cross-domain
 * policy) act only on a document a browser renders: on a JSON answer they were 700 bytes of every answer for nothing.
 */
export const JSON_SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
} as const;

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
 * The security headers of every answer, by the route's `securityHeaders` (above): Helmet's full set for documents,
 * `JSON_SECURITY_HEADERS` plus Helmet's HSTS for the API's JSON, `API_SECURITY_HEADERS` for the public validation.
 * Helmet's middleware is run once here: @fastify/helmet builds it again for every request (parsing the CSP directives
 * each time), which cost more than the rest of the keys route's own work (docs/performance.md).
 */
export function registerSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  // Issue 22: Helmet's answer is the same on every response, so it is worked out once here and each response gets
  // the precomputed pairs, not a run of Helmet's middleware chain. ADR 047: into the reply's own headers (Fastify
  // hands them to Node's `writeHead` in one object with the rest), not onto the raw response: each raw `setHeader`
  // was validated and stored on its own, then merged with Fastify's headers at `writeHead` (about 1.5–2 µs of the
  // keys route). Fastify keeps them on error answers as before (its error handler replaces only the content type and
  // length), and on streamed ones. They are set when the request arrives, so a handler or a later hook may still
  // change them: the JWKS opens its resource policy, and a page navigation answered with the app's shell on a JSON
  // route's path (/staff/audit-log) gets `documentSecurityHeaders` (`answerAsDocument`).
  const documentHeaders = Object.freeze(Object.fromEntries(headersOf(helmet(options))));
  const helmetsOnly = (names: readonly string[]) =>
    Object.fromEntries(names.flatMap((name) => (name in documentHeaders ? [[name, documentHeaders[name]!]] : [])));
  const apiHeaders = Object.freeze(helmetsOnly(API_SECURITY_HEADERS));
  const jsonHeaders = Object.freeze({ ...JSON_SECURITY_HEADERS, ...helmetsOnly(['strict-transport-security']) });
  app.decorate('documentSecurityHeaders', documentHeaders);
  app.addHook('onRequest', (request, reply, done) => {
    const kind = request.routeOptions.config.securityHeaders;
    reply.headers(kind === 'json' ? jsonHeaders : kind === 'api' ? apiHeaders : documentHeaders);
    done();
  });
}

/**
 * Makes this answer carry a document's security headers whatever its route's kind: the app's shell sent for a page
 * navigation on a path a JSON route shares (http/static-assets.ts). Without it the page would get the API's
 * `default-src 'none'` and load nothing.
 */
export function answerAsDocument(reply: FastifyReply): FastifyReply {
  return reply.headers(reply.server.documentSecurityHeaders);
}
