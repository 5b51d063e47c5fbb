import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

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

/** The single-page app's shell, for every client-side route: always revalidated, so a deploy shows at once. */
export function sendIndexHtml(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', REVALIDATE).sendFile('index.html');
}
