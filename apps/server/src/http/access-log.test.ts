import { PassThrough } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AccessLogController } from './access-log';
import { createLazyChildLoggerFactory } from './lazy-child-logger';
import { serializeRequest } from './log-serializers';

/**
 * ADR 047: the "request completed" line is put together by hand, no longer by pino. It must stay the line pino wrote
 * for it: the same fields, in the same order, the same JSON.
 */
async function appWritingTo(lines: string[], level = 'info') {
  const destination = new PassThrough();
  destination.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const accessLog = new AccessLogController();
  const app = Fastify({
    logger: { level, stream: destination, serializers: { req: serializeRequest } },
    logController: accessLog,
  });
  accessLog.useLogger(app.log);
  app.setChildLoggerFactory(createLazyChildLoggerFactory());
  app.get('/keys/', async () => ({ ok: true }));
  app.get('/quiet', { logLevel: 'warn' }, async () => ({ ok: true }));
  app.get('/fails', async (request) => {
    request.log.warn({ why: 'test' }, 'about to fail');
    throw new Error('boom');
  });
  await app.ready();
  return app;
}

describe('the access line', () => {
  it('is byte for byte the line pino writes for the same request', async () => {
    const lines: string[] = [];
    const app = await appWritingTo(lines);
    const response = await app.inject({ method: 'GET', url: '/keys/?token=secret', remoteAddress: '203.0.113.9' });
    expect(response.statusCode).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(1);
    const written = JSON.parse(lines[0]!) as { time: number; reqId: string; responseTime: number };

    // What pino writes for Fastify's own line, with the same time, id and response time.
    const expected: string[] = [];
    const reference = await appWritingTo(expected);
    const fakeRequest = { method: 'GET', url: '/keys/?token=secret', ip: '203.0.113.9' };
    const original = Date.now;
    Date.now = () => written.time;
    try {
      reference.log
        .child({ reqId: written.reqId })
        .info({ req: fakeRequest, res: { statusCode: 200 }, responseTime: written.responseTime }, 'request completed');
    } finally {
      Date.now = original;
    }
    await new Promise((resolve) => setImmediate(resolve));
    // Fastify's `res` serializer reads the status code as the plain object gives it.
    expect(lines[0]).toBe(expected[0]);
    expect(lines[0]).not.toContain('secret');
    await Promise.all([app.close(), reference.close()]);
  });

  it('follows the route level, and errors and warnings still go through the request logger', async () => {
    const lines: string[] = [];
    const app = await appWritingTo(lines);
    await app.inject({ method: 'GET', url: '/quiet' });
    expect((await app.inject({ method: 'GET', url: '/fails' })).statusCode).toBe(500);
    await new Promise((resolve) => setImmediate(resolve));
    const parsed = lines.map((line) => JSON.parse(line) as { msg: string; reqId?: string; why?: string });
    expect(parsed.map((line) => line.msg)).toEqual(['about to fail', 'boom', 'request completed']);
    // The lazily made request logger carries the request id, as Fastify's does.
    expect(new Set(parsed.map((line) => line.reqId)).size).toBe(1);
    expect(parsed[0]!.why).toBe('test');
    await app.close();
  });

  it('writes nothing below its level', async () => {
    const lines: string[] = [];
    const app = await appWritingTo(lines, 'warn');
    await app.inject({ method: 'GET', url: '/keys/' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([]);
    await app.close();
  });
});
