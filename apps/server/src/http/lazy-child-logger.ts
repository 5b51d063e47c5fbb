import type { FastifyBaseLogger, RouteOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
type LevelledLogger = FastifyBaseLogger & { isLevelEnabled(level: Level): boolean };
type Enabled = Record<Level, boolean>;

/** A request's logger that makes the request's real child logger only when something at an enabled level is logged. */
class LazyRequestLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly route: LevelledLogger,
    private readonly enabled: Enabled,
    private readonly bindings: Bindings,
  ) {}

  get level(): string {
    return this.route.level;
  }

  isLevelEnabled(level: Level): boolean {
    return this.enabled[level];
  }

  #log(level: Level, args: unknown[]): void {
    if (!this.enabled[level]) return;
    this.#child ??= this.route.child(this.bindings);
    (this.#child[level] as (...a: unknown[]) => void)(...args);
  }

  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }
  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }
  info(...args: unknown[]): void {
    this.#log('info', args);
  }
  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }
  error(...args: unknown[]): void {
    this.#log('error', args);
  }
  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }
  silent(): void {}
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    this.#child ??= this.route.child(this.bindings);
    return this.#child.child(bindings, options);
  }
}

/**
 * The app's child-logger factory (ADR 031 "Performance", and ADR 047 for every route). Fastify makes a child logger
 * with the request id for every request (pino serializes the bindings, and with a route log level rebuilds every log
 * method of it): on a hot route, more work than the route's own, for a logger most requests never use (the access
 * line is written by http/access-log.ts). This factory makes each route level's child (its level) once, and per
 * request a small logger that does nothing below that level and makes the request's child (request id included) the
 * first time the request logs at or above it. What is logged, and with what, is unchanged. A route with its own log
 * serializers gets a child at once, as Fastify's factory makes it.
 */
export function createLazyChildLoggerFactory(): NonNullable<RouteOptions['childLoggerFactory']> {
  let parent: FastifyBaseLogger | undefined;
  const routes = new Map<string | undefined, { route: LevelledLogger; enabled: Enabled }>();
  return function (logger, bindings, options) {
    if (options.serializers) return logger.child(bindings, options);
    // Fastify passes the same server logger, and each route's fixed options, on every request.
    if (parent !== logger) {
      parent = logger;
      routes.clear();
    }
    let made = routes.get(options.level);
    if (!made) {
      const route = logger.child({}, options) as LevelledLogger;
      const enabled = Object.fromEntries(
        (['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const).map((level) => [
          level,
          // Fastify's logger when logging is off has no levels: nothing is enabled.
          typeof route.isLevelEnabled === 'function' && route.isLevelEnabled(level),
        ]),
      ) as Enabled;
      made = { route, enabled };
      routes.set(options.level, made);
    }
    return new LazyRequestLogger(made.route, made.enabled, bindings) as unknown as FastifyBaseLogger;
  };
}
