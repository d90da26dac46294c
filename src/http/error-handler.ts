import type { ErrorObject } from 'ajv';
import type { FastifyBaseLogger, FastifyError, FastifyInstance } from 'fastify';
import { codeForStatus, DevutilError, errorBody } from '../errors.js';
import { emptyBodyFailure } from './json-body.js';
import { toFieldErrors } from './validation.js';

const FRAMEWORK_CODES: Record<string, () => DevutilError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new DevutilError('unsupported_media_type', 'This endpoint takes a JSON body: send Content-Type: application/json.'),
  FST_ERR_CTP_BODY_TOO_LARGE: () => new DevutilError('payload_too_large'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new DevutilError('invalid_json', 'The request body is empty but declared as JSON.'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new DevutilError('bad_request', 'Content-Length does not match the body.'),
  FST_ERR_BAD_URL: () => new DevutilError('bad_request', 'The request URL is malformed.'),
  FST_ERR_ASYNC_CONSTRAINT: () => new DevutilError('bad_request'),
};

/**
 * The 413 for a body over `limit` bytes.
 *
 * @example
 *   throw payloadTooLarge(1048576); // 413 payload_too_large, "… the limit of 1048576 bytes."
 */
export function payloadTooLarge(limit: number): DevutilError {
  return new DevutilError('payload_too_large', `The request body is larger than the limit of ${limit} bytes.`);
}

/** The 422 for a failed schema validation of one request part (ajv's errors). */
export function validationFailure(validation: ErrorObject[], part: string, cause?: unknown): DevutilError {
  const errors = toFieldErrors(validation, part);
  const summary = errors
    .slice(0, 3)
    .map((f) => `${f.path} ${f.message}`)
    .join('; ');
  return new DevutilError('validation_error', `Invalid ${part}: ${summary}.`, { errors, cause });
}

/** Any thrown value → the DevutilError the client sees. Unknown failures become a bare 500. */
export function toDevutilError(err: unknown): DevutilError {
  if (err instanceof DevutilError) return err;
  const e = err as FastifyError & { validationContext?: string };
  if (e && Array.isArray(e.validation)) return validationFailure(e.validation as never, e.validationContext ?? 'body', err);
  const framework = e?.code ? FRAMEWORK_CODES[e.code] : undefined;
  if (framework) return framework();
  if (e instanceof SyntaxError && e.statusCode === 400)
    return new DevutilError('invalid_json', `The request body is not valid JSON: ${e.message}`);
  // V8's longest string (about 512 MiB) passed while building an answer: the request asked for too much.
  if (e instanceof RangeError && /Invalid string length/.test(e.message)) {
    return new DevutilError('validation_error', 'The answer would be larger than the server can build; ask for less.', {
      errors: [{ path: 'body', message: 'asks for an answer too large to build' }],
      cause: err,
    });
  }
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) return new DevutilError(codeForStatus(status), e.message);
  return new DevutilError('internal_error', undefined, { cause: err });
}

/**
 * Log a failed request's 5xx: an upstream that failed or timed out (DNS, replay) is the upstream's
 * problem, not a fault here, so a warning with its reason and no stack trace; any other 5xx an
 * error with its cause. 4xx are not logged.
 */
export function logFailure(log: FastifyBaseLogger, reqId: string, err: unknown, e: DevutilError): void {
  if (e.code === 'upstream_error' || e.code === 'upstream_timeout') log.warn({ reqId, code: e.code, detail: e.message }, 'upstream failed');
  else if (e.status >= 500) log.error({ reqId, err, code: e.code }, 'request failed');
}

/**
 * One error handler for the whole app: CONTRACT §0 bodies for every error, Fastify's own
 * included. 5xx are logged with the request id; their bodies never carry internal messages.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    // Fastify's body reader refused a body over the route's limit: say which limit.
    const converted =
      (err as FastifyError).code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? payloadTooLarge(request.routeOptions.bodyLimit) : toDevutilError(err);
    // A schema failure of a body sent empty is a 400 invalid_json (src/http/json-body.ts).
    const schemaFailure = err as FastifyError & { validationContext?: string };
    const e =
      Array.isArray(schemaFailure.validation) && schemaFailure.validationContext === 'body'
        ? (emptyBodyFailure(request.body, converted) ?? converted)
        : converted;
    logFailure(request.log, request.id, err, e);
    if (e.headers) reply.headers(e.headers);
    return reply.status(e.status).send(errorBody(e));
  });
  app.setNotFoundHandler((request, reply) => {
    const e = new DevutilError('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`);
    return reply.status(404).send(errorBody(e));
  });
}
