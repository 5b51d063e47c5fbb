import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendIndexHtml } from './static-assets';

/**
 * Issue 22 (ADR 045): the keys dashboard's HTML carries the signed-in person's first data, so the first render needs
 * no round trip. The web app keeps its session token in localStorage and mirrors it into this cookie, scoped to the
 * pages under /customer (it never travels with an API call, which reads `Authorization` only).
 */
export const FIRST_DATA_COOKIE = 'keyport_session';
/** The id of the `<script type="application/json">` element the web app reads (apps/web/src/lib/first-data.ts). */
export const FIRST_DATA_ELEMENT_ID = 'keyport-first-data';

/** What the dashboard's first render asks for, by the name the web app seeds its query cache under. */
export const FIRST_DATA_CALLS = {
  me: '/auth/me',
  keys: '/keys/',
  keysHealth: '/keys/health',
  homepage: '/staff/homepage-settings?preview=false',
  config: '/config',
} as const;
export type FirstData = Partial<Record<keyof typeof FIRST_DATA_CALLS, unknown>>;

const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;
const ENCODINGS: ('br' | 'gzip')[] = ['br', 'gzip'];

/** The session token of the first-data cookie, or null. */
export function readFirstDataCookie(header: string | undefined): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== FIRST_DATA_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return TOKEN.test(value) ? value : null;
  }
  return null;
}

/**
 * JSON that can sit inside a `<script>` element: no `<` (so no `</script>` or `<!--`), `>` and `&` written as
 * escapes, and the two line separators JavaScript once refused. JSON.parse reads it back unchanged.
 */
export function jsonForScriptElement(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The app's shell with the data inserted before `</head>` (ahead of the module script, which is deferred anyway). */
export function htmlWithFirstData(shell: string, data: FirstData): string {
  const element = `<script type="application/json" id="${FIRST_DATA_ELEMENT_ID}">${jsonForScriptElement(data)}</script>`;
  const at = shell.indexOf('</head>');
  return at === -1 ? `${element}${shell}` : `${shell.slice(0, at)}${element}${shell.slice(at)}`;
}

/**
 * GET /customer/my-keys: for a signed-in person (a valid session in the cookie), the shell with their first data,
 * `no-store` (it is theirs alone) and varying on Cookie; for anyone else, the same file every page gets.
 */
export function serveDashboardWithFirstData(app: FastifyInstance, webDist: string, pathname: string): void {
  const shell = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8');
  app.get(pathname, { schema: { hide: true } }, async (request, reply) => {
    let data: FirstData | null = null;
    try {
      data = await firstDataFor(app, request);
    } catch (error) {
      // The page never depends on the data: without it (the database away, say) it is the plain shell, whose script
      // asks for the data itself and says so if that fails.
      request.log.warn({ err: error }, 'first data for the dashboard page left out');
    }
    if (!data) return sendIndexHtml(reply);
    const html = Buffer.from(htmlWithFirstData(shell, data));
    reply
      .header('cache-control', 'no-store')
      .header('vary', 'accept-encoding, cookie')
      .type('text/html; charset=utf-8');
    return sendCompressed(request, reply, html);
  });
}

async function firstDataFor(app: FastifyInstance, request: FastifyRequest): Promise<FirstData | null> {
  const token = readFirstDataCookie(request.headers.cookie);
  if (!token) return null;
  const user = await app.services.auth.resolveSession(token);
  if (!user) return null;
  // Each answer exactly as the API gives it (its route, owner check and serialization), asked in parallel.
  const entries = await Promise.all(
    Object.entries(FIRST_DATA_CALLS).map(async ([name, url]) => {
      const response = await app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Token ${token}`, accept: 'application/json' },
        remoteAddress: request.ip,
      });
      // Anything but a plain success is left to the web app to ask for (and to handle as it always has).
      return response.statusCode === 200 ? ([name, response.json()] as const) : null;
    }),
  );
  if (!entries[0]) return null; // the session ended between the look-up and the calls
  return Object.fromEntries(entries.filter((entry) => entry !== null));
}

function sendCompressed(request: FastifyRequest, reply: FastifyReply, body: Buffer): FastifyReply {
  const accepted = request.headers['accept-encoding'];
  const encoding = typeof accepted === 'string' ? negotiate(accepted.replace(/\*/g, 'gzip'), ENCODINGS) : null;
  if (!encoding) return reply.send(body);
  const compressed =
    encoding === 'br'
      ? zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
      : zlib.gzipSync(body, { level: 6 });
  return reply.header('content-encoding', encoding).send(compressed);
}
