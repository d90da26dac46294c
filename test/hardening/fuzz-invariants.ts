import Ajv2020Import from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import type { Operation } from './request-arbitrary.js';

// ajv and ajv-formats are CommonJS with `default` exports.
const Ajv2020 = ((Ajv2020Import as unknown as { default?: unknown }).default ?? Ajv2020Import) as typeof Ajv2020Import.default;
const addFormats = ((addFormatsImport as unknown as { default?: unknown }).default ?? addFormatsImport) as typeof addFormatsImport.default;

/** Upstream failures an operation documents (DNS and replay only reach loopback in the fuzz run). */
export const UPSTREAM_STATUSES: Record<string, number[]> = {
  'POST /v1/bins/{bin_id}/requests/{request_id}/replay': [502, 504],
  'GET /v1/lookup': [502, 503, 504],
  'POST /v1/devtools/dns-lookup': [502, 503, 504],
};

/** What the fuzzer saw: status, headers and body text. */
export interface Seen {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

/**
 * Checks every response against the document: no 5xx (except documented upstream ones), every
 * error has string `detail` and `code`, the status is documented, and a JSON body validates
 * against the documented schema for that status (`components` are put under the document so
 * `#/components/...` references resolve).
 *
 * @example
 *   const check = createChecker(openapiDocument);
 *   const problem = check(operation, response); // null when the response is fine
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document or schema of any shape
export function createChecker(doc: Record<string, any>): (operation: Operation, res: Seen) => string | null {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'urn:devutil:openapi', components: doc.components ?? {} });
  const compiled = new Map<string, ValidateFunction | null>();
  const validator = (operation: Operation, status: number): ValidateFunction | null | undefined => {
    const key = `${operation.method} ${operation.path} ${status}`;
    if (!compiled.has(key)) {
      const response = operation.op.responses?.[String(status)];
      const schema = response?.content?.['application/json']?.schema;
      compiled.set(key, schema ? ajv.compile(rebase(schema) as object) : null);
    }
    return compiled.get(key);
  };
  return (operation, res) => {
    const name = `${operation.method.toUpperCase()} ${operation.path}`;
    // A mock answers with whatever status and body its owner configured.
    if (operation.path.startsWith('/v1/mock/') && res.headers['x-mock-id'] !== undefined) return null;
    if (res.statusCode >= 500 && !(UPSTREAM_STATUSES[name] ?? []).includes(res.statusCode))
      return `status ${res.statusCode}: ${res.body.slice(0, 500)}`;
    if (!operation.op.responses?.[String(res.statusCode)] && !isUrlLevelError(res))
      return `undocumented status ${res.statusCode}: ${res.body.slice(0, 300)}`;
    const isJson = /json/i.test(String(res.headers['content-type'] ?? ''));
    let body: unknown;
    if (isJson) {
      try {
        body = JSON.parse(res.body);
      } catch {
        return `content-type says JSON but the body is not: ${res.body.slice(0, 200)}`;
      }
    }
    if (res.statusCode >= 400) {
      const e = body as { detail?: unknown; code?: unknown } | undefined;
      if (!e || typeof e.detail !== 'string' || typeof e.code !== 'string')
        return `error body without string detail/code: ${res.body.slice(0, 300)}`;
    }
    const validate = validator(operation, res.statusCode);
    if (validate && isJson && !validate(body)) {
      return `status ${res.statusCode} body does not match its schema: ${ajv.errorsText(validate.errors)}; body ${res.body.slice(0, 300)}`;
    }
    return null;
  };
}

/**
 * A malformed or over-long URL (a path parameter over 256 characters, bad percent-encoding) is
 * answered 400 `bad_request` by the framework before any route is chosen, for every operation.
 */
function isUrlLevelError(res: Seen): boolean {
  return res.statusCode === 400 && /"code":"bad_request"/.test(res.body);
}

/** Point `#/components/...` references at the document registered under `urn:devutil:openapi`. */
function rebase(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema), (k, v) =>
    k === '$ref' && typeof v === 'string' && v.startsWith('#/components/') ? `urn:devutil:openapi${v}` : v,
  );
}
