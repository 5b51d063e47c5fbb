import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import { symbols, type DestinationStream } from 'pino';
import { serializeRequest } from './log-serializers';

/** Pino's request loggers (and http/lazy-child-logger.ts's) say whether a level is on. */
type LevelledLogger = FastifyBaseLogger & { isLevelEnabled?: (level: 'info') => boolean };

/** What a pino logger keeps under `pino.symbols` and the access line needs: its stream, its bindings, its clock. */
interface PinoInternals {
  [symbols.streamSym]?: DestinationStream;
  [symbols.chindingsSym]?: string;
  [symbols.timeSym]?: () => string;
}

/** Writes "request completed" lines as the app's pino logger would, to its stream. */
type AccessLineWriter = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * Issue 22: one access-log line per request instead of Fastify's two ("incoming request" and "request completed").
 * The line Fastify writes when the exchange is over carries what the first one did too: the request (method, path
 * without the query, address: `serializeRequest`), the status and the response time. A request whose client goes
 * away still gets its "stream closed prematurely" line; errors are logged as before.
 *
 * ADR 047: the "request completed" line is put together here, byte for byte what pino wrote for it (its level, time,
 * the logger's bindings, then `reqId`, `req`, `res`, `responseTime` and `msg`), and written to the logger's stream.
 * Through pino it was the keys route's second largest item in the profiles after drizzle's row mapping (about 27 µs
 * of profile time per request, redaction 14 of them; 4–11 µs in a micro-benchmark, docs/performance.md): the
 * redaction paths looked through an object that cannot hold a header, a body, a password or a token (only what
 * `serializeRequest` picks, the status and a number), then the serializers and the generic JSON building. Errors
 * and everything else still go through the request's logger, redaction included.
 */
export class AccessLogController extends LogController {
  #writeLine: AccessLineWriter | null = null;

  /** The app's logger: its level, stream, time and bindings are the access line's. */
  useLogger(logger: FastifyBaseLogger): void {
    this.#writeLine = accessLineWriter(logger);
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
    // The route's level decides, as it did when the line went through the request's logger (the license
    // validation logs warnings only: ADR 031).
    if ((reply.log as LevelledLogger).isLevelEnabled?.('info') === false) return;
    if (this.#writeLine) {
      this.#writeLine(request, reply);
    } else {
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }
}

/**
 * The access line's writer for a pino logger at info or below, or null (another logger, or info off): then the line
 * goes through the request's logger as Fastify's does. The line is pino's for
 * `log.child({ reqId }).info({ req, res, responseTime }, 'request completed')` with the app's serializers.
 */
function accessLineWriter(logger: FastifyBaseLogger): AccessLineWriter | null {
  const internals = logger as unknown as PinoInternals;
  const stream = internals[symbols.streamSym];
  const bindings = internals[symbols.chindingsSym];
  const time = internals[symbols.timeSym];
  if (!stream || typeof bindings !== 'string' || typeof time !== 'function') return null;
  if ((logger as LevelledLogger).isLevelEnabled?.('info') !== true) return null;
  const head = `{"level":30`;
  return (request, reply) => {
    stream.write(
      `${head}${time()}${bindings},"reqId":${JSON.stringify(request.id)},"req":${JSON.stringify(serializeRequest(request))},"res":{"statusCode":${reply.statusCode}},"responseTime":${finiteOrNull(reply.elapsedTime)},"msg":"request completed"}\n`,
    );
  };
}

/** A number as pino writes it: JSON has no NaN or Infinity. */
function finiteOrNull(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}
