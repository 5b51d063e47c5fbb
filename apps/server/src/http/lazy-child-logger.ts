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
 * A child-logger factory for one hot public route (the license validation, ADR 031 "Performance"). Fastify makes a
 * child logger with the request id for every request, and with a route log level pino rebuilds every log method of
 * it: more work than such a route's own. This factory makes the route's child (its level, its serializers) once, and
 * per request a small logger that does nothing below that level and makes the request's child (request id included)
 * the first time the request logs at or above it. What is logged, and with what, is unchanged.
 */
export function createLazyChildLoggerFactory(): NonNullable<RouteOptions['childLoggerFactory']> {
  let parent: FastifyBaseLogger | undefined;
  let route: LevelledLogger | undefined;
  let enabled: Enabled | undefined;
  return function (logger, bindings, options) {
    // Fastify passes the same server logger and the route's fixed options on every request of the route.
    if (!route || !enabled || parent !== logger) {
      parent = logger;
      const made = logger.child({}, options) as LevelledLogger;
      route = made;
      enabled = Object.fromEntries(
        (['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const).map((level) => [
          level,
          // Fastify's logger when logging is off has no levels: nothing is enabled.
          typeof made.isLevelEnabled === 'function' && made.isLevelEnabled(level),
        ]),
      ) as Enabled;
    }
    return new LazyRequestLogger(route, enabled, bindings) as unknown as FastifyBaseLogger;
  };
}
