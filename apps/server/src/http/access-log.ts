import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Issue 22: one access-log line per request instead of Fastify's two ("incoming request" and "request completed").
 * The line Fastify writes when the exchange is over carries what the first one did too: the request (method, path
 * without the query, address: the `req` serializer in app.ts), the status and the response time. A request whose
 * client goes away still gets its "stream closed prematurely" line; errors are logged as before.
 * Saves one serialized, redacted JSON line per request (docs/performance.md).
 *
 * ADR 047: the "request completed" line goes through `useLogger`'s logger, a child of the app's made once without
 * redaction. The line holds only what the serializers pick (method, path, address, status) and numbers: no header,
 * body, password or token can be in it, so the redaction paths had nothing to find, and looking cost more than
 * writing the line. The bytes are the same; errors still go through the request's redacting logger.
 */
/** Pino's request loggers (and http/lazy-child-logger.ts's) say whether a level is on. */
type LevelledLogger = FastifyBaseLogger & { isLevelEnabled?: (level: 'info') => boolean };

export class AccessLogController extends LogController {
  #access: FastifyBaseLogger | null = null;

  /** The logger of the "request completed" lines: the app's, with its level, stream and serializers. */
  useLogger(logger: FastifyBaseLogger): void {
    this.#access = logger.child({}, { redact: [] });
  }

  override incomingRequest(): void {
    // Logged once, when the exchange is over (requestCompleted).
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
      return;
    }
    const access = this.#access;
    if (access === null) {
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
      return;
    }
    // The route's level decides, as it did when the line went through the request's logger (the license
    // validation logs warnings only: ADR 031).
    if ((reply.log as LevelledLogger).isLevelEnabled?.('info') === false) return;
    access.info({ reqId: request.id, req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
