import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type LogMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger that makes its child (with the request id bound) only when something is
 * actually logged at an enabled level. Fastify makes a pino child per request otherwise, which costs
 * more than many routes' whole handler.
 */
class LazyRequestLogger {
  #child: FastifyBaseLogger | null = null;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Record<string, unknown>,
    private readonly options: object,
  ) {}

  private get real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }
  private emit(level: LogMethod, args: unknown[]): void {
    // The child once it exists (its level may have been set), else the parent it would inherit from.
    const current = (this.#child ?? this.parent) as FastifyBaseLogger & { isLevelEnabled?: (l: string) => boolean };
    if (current.isLevelEnabled && !current.isLevelEnabled(level)) return;
    (this.real[level] as (...a: unknown[]) => void)(...args);
  }
  get level(): string {
    return (this.#child ?? this.parent).level;
  }
  set level(value: string) {
    this.real.level = value;
  }
  child(bindings: Record<string, unknown>, options?: object): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
  fatal(...args: unknown[]): void { this.emit('fatal', args); }
  error(...args: unknown[]): void { this.emit('error', args); }
  warn(...args: unknown[]): void { this.emit('warn', args); }
  info(...args: unknown[]): void { this.emit('info', args); }
  debug(...args: unknown[]): void { this.emit('debug', args); }
  trace(...args: unknown[]): void { this.emit('trace', args); }
  silent(): void {}
}

/** The child options of every fast-route request logger: none, one shared object. */
const NO_OPTIONS = Object.freeze({});

/**
 * A request logger with `bindings` that makes its pino child only if something is logged.
 *
 * @example
 *   lazyRequestLogger(app.log, { reqId: 'abc-1' }).error({ err }, 'request failed');
 */
export function lazyRequestLogger(parent: FastifyBaseLogger, bindings: Record<string, unknown>): FastifyBaseLogger {
  return new LazyRequestLogger(parent, bindings, NO_OPTIONS) as unknown as FastifyBaseLogger;
}

/** Fastify `childLoggerFactory`: a {@link LazyRequestLogger} per request. */
export const lazyChildLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = function (logger, bindings, options) {
  return new LazyRequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
};
