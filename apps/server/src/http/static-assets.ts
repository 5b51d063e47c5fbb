import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { answerAsDocument } from './security-headers';

/** Vite's output names under assets/: `<name>-<8-character content hash>.<ext>`. */
const HASHED_ASSET = /^assets\/(?:[^/]+\/)*[^/]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/i;
const PRECOMPRESSED_SUFFIX = /\.(?:br|gz)$/;

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/**
 * The built web app (apps/web/dist). The build writes `.br` and `.gz` beside each text file
 * (apps/web/precompress.ts); @fastify/static picks one by Accept-Encoding (br, then gzip, then the file itself),
 * sends it with its own Content-Length and ETag, answers Range requests on it, and adds `Vary: Accept-Encoding`.
 * Hashed files under /assets/ are cached for a year; everything else (index.html, favicon) is revalidated.
 */
export async function registerStaticAssets(app: FastifyInstance, root: string): Promise<void> {
  await app.register(fastifyStatic, {
    root,
    index: false,
    wildcard: true,
    preCompressed: true,
    setHeaders: (reply, filePath) => {
      const relative = path.relative(root, filePath).split(path.sep).join('/').replace(PRECOMPRESSED_SUFFIX, '');
      reply.header('cache-control', HASHED_ASSET.test(relative) ? IMMUTABLE : REVALIDATE);
    },
  });
}

/**
 * Issue 21: the root is the keys dashboard's address for every client. A redirect, not the app's shell: the wildcard
 * file route would otherwise take `/` for a directory listing and refuse it (403) to a client without Accept-Encoding.
 * The dashboard sends a visitor who is not signed in to sign-in; the query string goes along.
 */
export function redirectRootTo(app: FastifyInstance, target: string): void {
  app.get('/', { schema: { hide: true } }, (request, reply) => {
    const query = request.url.indexOf('?');
    return reply.redirect(query === -1 ? target : `${target}${request.url.slice(query)}`, 302);
  });
}

/** The single-page app's shell, for every client-side route: always revalidated, so a deploy shows at once. */
export function sendIndexHtml(reply: FastifyReply): FastifyReply {
  // A page, also where the path is a JSON route's (a page navigation under /staff/): a document's security headers.
  return answerAsDocument(reply).header('cache-control', REVALIDATE).sendFile('index.html');
}

/**
 * Issue 12: the staff console's pages live under `/staff/`, beside the staff API's routes (GET /staff/audit-log is
 * both a page and an endpoint). A browser opening a page asks for HTML (a navigation sends `Accept: text/html,…`);
 * the web app's calls ask for JSON, and API clients for JSON or anything, never text/html by name. So a GET under
 * `prefix` that names text/html gets the app's shell before any route runs; every answer there varies on Accept.
 */
export function serveAppForPageNavigations(app: FastifyInstance, prefix: RegExp): void {
  // A callback hook, not an async one: every request passes here, and most leave at once without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    // Issue 22: the path without splitting the URL into an array on every request.
    const url = request.url;
    const query = url.indexOf('?');
    const pathname = query === -1 ? url : url.slice(0, query);
    if (!prefix.test(pathname)) {
      done();
      return;
    }
    reply.header('vary', 'accept');
    const accept = request.headers.accept ?? '';
    if ((request.method === 'GET' || request.method === 'HEAD') && accept.includes('text/html')) {
      sendIndexHtml(reply); // answered here: no later hook or route runs
      return;
    }
    done();
  });
}
