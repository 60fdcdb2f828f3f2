/**
 * Fastify's logger for each request (`request.log`), made only when the request logs something.
 * Fastify builds a pino child per request, its bindings serialised, 2 % of a cached hit's CPU;
 * a hit never logs through it (its access line has a logger of its own, packages/shared/src/http/service.ts), while a
 * request that does log gets the same child, request id bound, as Fastify would have made.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
type Forward = (...args: unknown[]) => void;

class RequestLogger {
  #made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get made(): FastifyBaseLogger {
    return (this.#made ??= this.parent.child(this.bindings, this.options));
  }
  get level(): string {
    return this.made.level;
  }
  set level(level: string) {
    this.made.level = level;
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made.child(bindings, options);
  }
  #log(level: Level, args: unknown[]): void {
    (this.made[level] as Forward).apply(this.made, args);
  }
  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#log('error', args);
  }
  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }
  info(...args: unknown[]): void {
    this.#log('info', args);
  }
  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }
  silent(...args: unknown[]): void {
    this.#log('silent', args);
  }
}

/** For Fastify's `childLoggerFactory` option. */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
