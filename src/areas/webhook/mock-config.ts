import { METHODS } from 'node:http';
import { DevutilError, type FieldError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { isWellFormed, wellFormed } from '../../lib/well-formed.js';
import type { MockPatch, MockRecord } from '../../storage/types.js';
import { HEADER_VALUE, HOP_BY_HOP, HTTP_TOKEN } from './replay-headers.js';

/** A mock's configurable fields as the API receives them (create and PATCH share them). */
export interface MockInput {
  name?: string;
  status_code?: number;
  headers?: Record<string, string>;
  body?: string;
  response_body?: unknown;
  content_type?: string;
  delay_ms?: number;
  ttl_seconds?: number;
  method?: string | null;
  path?: string | null;
}

/** Methods a mock can be served with: those Node's HTTP parser accepts, CONNECT aside (a tunnel request, never served). */
export const SERVABLE_METHODS = METHODS.filter((m) => m !== 'CONNECT');

/** Header names a mock may not configure, and why (a Map: names such as `__proto__` are plain keys). */
const REFUSED_HEADERS = new Map<string, string>([
  ['content-length', 'is computed from the body'],
  ['transfer-encoding', 'is chosen by the server'],
  ['x-mock-id', 'is always set by the service'],
  ['x-content-type-options', 'is always nosniff and cannot be overridden'],
  ['content-security-policy', 'is always sandbox and cannot be overridden'],
  ...[...HOP_BY_HOP].map((name): [string, string] => [name, 'is a hop-by-hop header']),
]);

/**
 * Check a mock's custom headers: names are HTTP tokens, values hold no CR, LF, NUL or other
 * control character, and no hop-by-hop, framing or service-owned header is configured.
 * Returns every problem found (empty when all is well).
 *
 * @example
 *   checkMockHeaders({ 'bad name': 'x', 'content-length': '3' }).length // 2
 */
export function checkMockHeaders(headers: Record<string, string>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const path = `headers.${name}`;
    if (!HTTP_TOKEN.test(name))
      errors.push({ path, message: "name must be an HTTP token (letters, digits and !#$%&'*+.^_`|~-, no spaces)" });
    else if (REFUSED_HEADERS.has(name.toLowerCase())) errors.push({ path, message: REFUSED_HEADERS.get(name.toLowerCase())! });
    if (!HEADER_VALUE.test(value))
      errors.push({
        path,
        message:
          'value must hold only tab, visible ASCII and Latin-1 characters (no CR, LF, NUL or other control characters, nothing above U+00FF such as emoji)',
      });
  }
  return errors;
}

function validate(input: MockInput): void {
  const errors: FieldError[] = checkMockHeaders(input.headers ?? {});
  if (input.content_type !== undefined && !HEADER_VALUE.test(input.content_type)) {
    errors.push({
      path: 'content_type',
      message:
        'must hold only tab, visible ASCII and Latin-1 characters (no CR, LF, NUL or other control characters, nothing above U+00FF such as emoji)',
    });
  }
  // The schema checks the token; a method the server's HTTP parser refuses (`FOO`) could never reach the mock.
  if (typeof input.method === 'string' && !SERVABLE_METHODS.includes(input.method.toUpperCase())) {
    errors.push({ path: 'method', message: `must be a method this server can receive: ${SERVABLE_METHODS.join(', ')}` });
  }
  if (typeof input.path === 'string') {
    // Its URL must be one a client sends as written: no lone surrogate (no URL encodes it), no `.` or
    // `..` segment (clients resolve them away before sending).
    if (!isWellFormed(input.path)) errors.push({ path: 'path', message: 'must not contain a lone surrogate' });
    else if (/\/\.\.?(?=\/|$)/.test(input.path)) errors.push({ path: 'path', message: 'must not contain . or .. segments' });
  }
  if (input.body !== undefined && input.response_body !== undefined) {
    errors.push({ path: 'response_body', message: 'cannot be given together with body' });
  }
  if (errors.length > 0) {
    throw new DevutilError('validation_error', `Invalid body: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}.`, { errors });
  }
}

const wellFormedOrNull = (text: string | undefined): string | null => (text === undefined ? null : wellFormed(text));

/** Names lower-cased (so `content_type` can win over `Content-Type`), in a null-prototype object. */
function normaliseHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}

/**
 * A new mock from a validated create body (schema defaults already applied).
 *
 * @example
 *   const mock = buildMock({ status_code: 201, body: 'ok' }, 'key_1', Date.now());
 */
export function buildMock(input: MockInput, ownerKeyId: string, now: number): MockRecord {
  validate(input);
  const headers = normaliseHeaders(input.headers ?? {});
  return {
    id: newId('mock_'),
    ownerKeyId,
    name: wellFormedOrNull(input.name),
    statusCode: input.status_code ?? 200,
    // A `content-type` header given without `content_type` is what the caller wants served.
    contentType: input.content_type ?? headers['content-type'] ?? 'application/json',
    headers,
    body: wellFormedOrNull(input.body),
    responseBodyJson: input.response_body === undefined ? null : JSON.stringify(input.response_body),
    method: input.method ? input.method.toUpperCase() : null,
    path: input.path ?? null,
    delayMs: input.delay_ms ?? 0,
    createdAt: now,
    expiresAt: now + (input.ttl_seconds ?? 86400) * 1000,
    hitCount: 0,
  };
}

/**
 * The store patch for a validated PATCH body: only given fields change; `headers` replaces
 * the whole set; `body` and `response_body` replace each other; `method`/`path` null clears
 * them; `ttl_seconds` restarts the lifetime from `now`.
 *
 * @example
 *   buildMockPatch({ delay_ms: 500 }, Date.now()) // { delayMs: 500 }
 */
export function buildMockPatch(input: MockInput, now: number): MockPatch {
  validate(input);
  const patch: MockPatch = {};
  if (input.name !== undefined) patch.name = input.name === '' ? null : wellFormed(input.name);
  if (input.status_code !== undefined) patch.statusCode = input.status_code;
  if (input.headers !== undefined) patch.headers = normaliseHeaders(input.headers);
  // As on create: new headers with a `content-type` and no `content_type` set the content type.
  const headerType = patch.headers?.['content-type'];
  if (input.content_type !== undefined) patch.contentType = input.content_type;
  else if (headerType !== undefined) patch.contentType = headerType;
  if (input.body !== undefined) Object.assign(patch, { body: wellFormed(input.body), responseBodyJson: null });
  if (input.response_body !== undefined) Object.assign(patch, { body: null, responseBodyJson: JSON.stringify(input.response_body) });
  if (input.method !== undefined) patch.method = input.method === null ? null : input.method.toUpperCase();
  if (input.path !== undefined) patch.path = input.path;
  if (input.delay_ms !== undefined) patch.delayMs = input.delay_ms;
  if (input.ttl_seconds !== undefined) patch.expiresAt = now + input.ttl_seconds * 1000;
  return patch;
}
