import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Issue 22: one access-log line per request instead of Fastify's two ("incoming request" and "request completed").
 * The line Fastify writes when the exchange is over carries what the first one did too: the request (method, path
 * without the query, address: the `req` serializer in app.ts), the status and the response time. A request whose
 * client goes away still gets its "stream closed prematurely" line; errors are logged as before.
 * Saves one serialized, redacted JSON line per request (docs/performance.md).
 */
export class AccessLogController extends LogController {
  override incomingRequest(): void {
    // Logged once, when the exchange is over (requestCompleted).
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    } else {
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }
}
