import zlib from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** application/json and its +json relatives (problem+json, …). */
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const ENCODINGS: ('br' | 'gzip')[] = ['br', 'gzip'];
export const JSON_COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Compresses JSON bodies of at least `thresholdBytes` with brotli (quality 4, about as fast as gzip) or gzip, as the
 * client's Accept-Encoding prefers. Only buffered JSON is touched: a stream (a zip download, a file) or any other
 * type passes through unchanged with its Content-Length, and so do partial (206) answers and bodies that already
 * carry a Content-Encoding (the precompressed web assets).
 */
export function registerJsonCompression(
  app: FastifyInstance,
  { thresholdBytes = JSON_COMPRESSION_THRESHOLD_BYTES }: { thresholdBytes?: number } = {},
): void {
  // A callback hook, not an async one: every answer passes here, and most leave unchanged without a promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    try {
      done(null, compressed(request, reply, payload));
    } catch (error) {
      done(error instanceof Error ? error : new Error(String(error)));
    }
  });

  function compressed(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    // Most answers are small: measured first, before any header is looked at. Issue 22: a string's UTF-8 length is
    // at least its length and at most three times it, so it is counted only when those bounds do not decide.
    if (typeof payload === 'string') {
      if (payload.length * 3 < thresholdBytes) return payload;
      if (payload.length < thresholdBytes && Buffer.byteLength(payload) < thresholdBytes) return payload;
    } else if (payload.length < thresholdBytes) {
      return payload;
    }
    if (reply.statusCode === 206 || reply.hasHeader('content-encoding') || reply.hasHeader('content-range')) {
      return payload;
    }
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !JSON_TYPE.test(type)) return payload;

    // From here the answer depends on Accept-Encoding, whichever encoding this request gets.
    addVary(reply, 'accept-encoding');
    const accepted = request.headers['accept-encoding'];
    // A bare `*` means "anything": gzip, which every client decodes.
    const encoding = typeof accepted === 'string' ? negotiate(accepted.replace(/\*/g, 'gzip'), ENCODINGS) : null;
    if (!encoding) return payload;
    const size = Buffer.byteLength(payload);
    const body =
      encoding === 'br'
        ? zlib.brotliCompressSync(payload, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
            },
          })
        : zlib.gzipSync(payload, { level: 6 });
    reply.header('content-encoding', encoding);
    // Fastify sets Content-Length from the compressed buffer.
    reply.removeHeader('content-length');
    return body;
  }
}

function addVary(reply: FastifyReply, field: string): void {
  const current = reply.getHeader('vary');
  if (current === undefined) {
    reply.header('vary', field);
    return;
  }
  const values = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  if (values.some((value) => value === '*' || value.toLowerCase() === field)) return;
  reply.header('vary', [...values, field].join(', '));
}
