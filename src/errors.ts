/**
 * The one error catalogue: every error the service can answer with has a stable `code`,
 * an HTTP status and a default message here. Pure modules throw {@link DevutilError} with a
 * code from this table and know nothing about HTTP; the error handler maps code → status.
 *
 * @example
 *   throw new DevutilError('not_found', 'No bin with id bin_123.');
 */
export const ERROR_CATALOGUE = {
  bad_request: { status: 400, message: 'The request is malformed.' },
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  invalid_expression: { status: 400, message: 'The JMESPath expression is invalid.' },
  missing_api_key: { status: 401, message: 'An API key is required: send it in the X-API-Key header.' },
  invalid_api_key: { status: 401, message: 'The API key is unknown or revoked.' },
  invalid_admin_token: { status: 401, message: 'The X-Admin-Token header is missing or wrong.' },
  forbidden: { status: 403, message: 'This key is not allowed to use this endpoint.' },
  not_found: { status: 404, message: 'Not found.' },
  method_not_allowed: { status: 405, message: 'This method is not allowed here.' },
  request_timeout: { status: 408, message: 'The request did not arrive in time.' },
  payload_too_large: { status: 413, message: 'The request body is larger than the limit.' },
  unsupported_media_type: { status: 415, message: 'This endpoint takes application/json.' },
  validation_error: { status: 422, message: 'The request has invalid fields.' },
  target_not_allowed: { status: 422, message: 'The replay target is not an allowed address.' },
  regex_timeout: { status: 422, message: 'The regular expression took too long and was stopped.' },
  decryption_failed: { status: 422, message: 'Decryption failed: wrong key or tampered data.' },
  rate_limited: { status: 429, message: 'Rate limit reached; retry after the time in Retry-After.' },
  credits_exhausted: { status: 429, message: 'No credits left this month.' },
  headers_too_large: { status: 431, message: 'The request headers are larger than the limit.' },
  internal_error: { status: 500, message: 'Internal server error.' },
  upstream_error: { status: 502, message: 'The upstream server could not be reached.' },
  storage_unavailable: { status: 503, message: 'Storage is unavailable; nothing was stored. Retry later.' },
  upstream_timeout: { status: 504, message: 'The upstream server did not answer in time.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** One entry of `errors[]` in a validation failure body. */
export interface FieldError {
  path: string;
  message: string;
}

export interface DevutilErrorOptions {
  /** Per-field failures, rendered as `errors[]`. */
  errors?: FieldError[];
  /** Extra top-level fields of the error body (e.g. JMESPath `error_type`). */
  extra?: Record<string, unknown>;
  /** Extra response headers (e.g. `Retry-After`, `Allow`). */
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * A domain error with a catalogue code. Thrown by pure modules and plugins alike.
 *
 * @example
 *   throw new DevutilError('validation_error', 'rows must be between 1 and 1000',
 *     { errors: [{ path: 'rows', message: 'must be <= 1000' }] });
 */
export class DevutilError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: FieldError[];
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, detail?: string, options: DevutilErrorOptions = {}) {
    super(detail ?? ERROR_CATALOGUE[code].message, { cause: options.cause });
    this.name = 'DevutilError';
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.errors = options.errors && onePerField(options.errors);
    this.extra = options.extra;
    this.headers = options.headers;
  }
}

/**
 * `errors[]` with one entry per field (CONTRACT §0): the messages of entries with the same path
 * joined with "; " in first-seen order, repeated messages once.
 *
 * @example
 *   onePerField([{ path: 'a', message: 'must be string' }, { path: 'a', message: 'must be one of "x"' }])
 *   // [{ path: 'a', message: 'must be string; must be one of "x"' }]
 */
export function onePerField(errors: FieldError[]): FieldError[] {
  if (errors.length < 2) return errors;
  const byPath = new Map<string, string[]>();
  for (const { path, message } of errors) {
    const messages = byPath.get(path);
    if (!messages) byPath.set(path, [message]);
    else if (!messages.includes(message)) messages.push(message);
  }
  if (byPath.size === errors.length) return errors;
  return Array.from(byPath, ([path, messages]) => ({ path, message: messages.join('; ') }));
}

/** Shorthand for a 422 on one field. */
export function invalidField(path: string, message: string): DevutilError {
  return new DevutilError('validation_error', `${path} ${message}`, { errors: [{ path, message }] });
}

/**
 * Run independent checks of request fields and return their results; when several fail with a
 * `validation_error`, one 422 lists every bad field (CONTRACT §0: one `errors` entry per bad field).
 * Any other error is thrown as it is.
 *
 * @example
 *   const [from, to] = checkFields(() => resolveZone(a, 'from_timezone'), () => resolveZone(b, 'to_timezone'));
 */
export function checkFields<T extends unknown[]>(...checks: { [K in keyof T]: () => T[K] }): T {
  const results: unknown[] = [];
  const failed: DevutilError[] = [];
  for (const check of checks) {
    try {
      results.push(check());
    } catch (err) {
      if (!(err instanceof DevutilError) || err.code !== 'validation_error' || !err.errors) throw err;
      failed.push(err);
      results.push(undefined);
    }
  }
  if (failed.length === 1) throw failed[0];
  if (failed.length > 1) {
    throw new DevutilError('validation_error', failed.map((e) => e.message.replace(/\.$/, '')).join('; ') + '.', {
      errors: failed.flatMap((e) => e.errors!),
    });
  }
  return results as T;
}

/**
 * The wire body of an error (CONTRACT §0): `detail`, `code`, `errors`, then the extra fields, in
 * the order the error schema's serializer writes them, so raw answers (catch, mock serving) are
 * byte for byte the ones Fastify sends.
 */
export function errorBody(err: DevutilError): Record<string, unknown> {
  const body: Record<string, unknown> = { detail: err.message, code: err.code };
  if (err.errors) body.errors = err.errors;
  for (const [name, value] of Object.entries(err.extra ?? {})) if (!Object.hasOwn(body, name)) body[name] = value;
  return body;
}

/** Catalogue code for a bare status (used for framework errors that carry only a status). */
export function codeForStatus(status: number): ErrorCode {
  const found = (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).find((c) => ERROR_CATALOGUE[c].status === status);
  return found ?? (status >= 500 ? 'internal_error' : 'bad_request');
}
