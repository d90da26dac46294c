/**
 * The ways a client command fails, each with the exit code CONTRACT §9 gives it: 1 the service
 * answered an error, 2 a usage error, 3 the service could not be reached.
 */
export class CliFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** One entry of a validation error's `errors`. */
export interface FieldProblem {
  path: string;
  message: string;
}

/** The service answered with an error body (`detail`, `code`, maybe `errors`). */
export class ApiError extends CliFailure {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors: FieldProblem[] = [],
    /** Seconds the service asked to wait (`Retry-After`), when it did. */
    readonly retryAfter?: number,
    /** A last line on what the user can do about it. */
    hint?: string,
  ) {
    const lines = [`Error: ${detail} (code: ${code}, HTTP ${status})`, ...errors.map((e) => `  ${e.path || '(body)'}: ${e.message}`)];
    if (hint) lines.push(hint);
    super(lines.join('\n'), 1);
  }
}

/** The command line itself is wrong: an unknown flag, a missing URL, an unreadable file. */
export class UsageError extends CliFailure {
  constructor(message: string) {
    super(`error: ${message}`, 2);
  }
}

/** No answer from the service: refused, reset, timed out or not resolvable. */
export class UnreachableError extends CliFailure {
  constructor(url: string, reason: string, options?: ErrorOptions) {
    super(`Error: could not reach ${url}: ${reason}`, 3, options);
  }
}

/**
 * The short reason of a failed `fetch` or socket: its system code when it has one.
 *
 * @example
 *   networkReason(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })) // 'ECONNREFUSED'
 */
export function networkReason(err: unknown): string {
  let current: unknown = err;
  for (let depth = 0; current && depth < 5; depth++) {
    const { code, message, name } = current as { code?: unknown; message?: unknown; name?: unknown };
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    if (name === 'TimeoutError' || name === 'AbortError') return 'timed out';
    const cause = (current as { cause?: unknown }).cause;
    if (!cause) return typeof message === 'string' ? message : String(current);
    current = cause;
  }
  return String(err);
}
