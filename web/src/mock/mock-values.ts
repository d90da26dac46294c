// The mock form's values and their mapping to the API: a mock record into the form, the form into a
// POST /v1/mocks body or the PATCH of what changed, and an ApiError's `errors[]` onto the fields.
import { ApiError, type ApiResult, type RequestOptions } from '../api';
import type { paths } from '../api-schema';

export type Mock = ApiResult<'get', '/v1/mocks/{mock_id}'>['mock'];
export type MockCreate = NonNullable<RequestOptions<paths['/v1/mocks']['post']>['body']>;
export type MockPatch = NonNullable<RequestOptions<paths['/v1/mocks/{mock_id}']['patch']>['body']>;

/** The methods the Method select offers besides "any"; the API takes any other HTTP token too. */
export const COMMON_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
export const OTHER_METHOD = 'other';

export interface HeaderRow {
  /** Stable across edits, so a row keeps its inputs (and focus) when another is removed. */
  key: number;
  name: string;
  value: string;
}

/** What the form holds: text as typed, numbers included (the API judges them). */
export interface MockValues {
  name: string;
  status: string;
  contentType: string;
  headers: HeaderRow[];
  body: string;
  delay: string;
  /** '' for any method, one of {@link COMMON_METHODS}, or {@link OTHER_METHOD} with `customMethod`. */
  method: string;
  customMethod: string;
  path: string;
  /** Empty when editing: the expiry stays; a value restarts the lifetime from now. */
  ttl: string;
}

export type Field = 'name' | 'status' | 'contentType' | 'headers' | 'body' | 'delay' | 'method' | 'path' | 'ttl';

/** Messages per field, per header row (by key), and the sentence shown above the form. */
export interface FormErrors {
  fields: Partial<Record<Field, string[]>>;
  rows: Record<number, string[]>;
  top: string | null;
}

export const NO_ERRORS: FormErrors = { fields: {}, rows: {}, top: null };

let nextRowKey = 1;
export const headerRow = (name = '', value = ''): HeaderRow => ({ key: nextRowKey++, name, value });

export const NEW_MOCK: MockValues = {
  name: '',
  status: '200',
  contentType: 'application/json',
  headers: [],
  body: '',
  delay: '0',
  method: '',
  customMethod: '',
  path: '',
  ttl: '86400',
};

/** The body a mock serves, as the form shows it: `body`, else its structured `response_body` as JSON. */
export function bodyTextOf(mock: Mock): string {
  return mock.response_body !== undefined && mock.body === '' ? JSON.stringify(mock.response_body, null, 2) : mock.body;
}

/** The form's values for an existing mock. */
export function valuesOf(mock: Mock): MockValues {
  const method = mock.method ?? '';
  const common = method === '' || COMMON_METHODS.includes(method);
  return {
    name: mock.name,
    status: String(mock.status_code),
    contentType: mock.content_type,
    headers: Object.entries(mock.headers).map(([name, value]) => headerRow(name, value)),
    body: bodyTextOf(mock),
    delay: String(mock.delay_ms),
    method: common ? method : OTHER_METHOD,
    customMethod: common ? '' : method,
    path: mock.path ?? '',
    ttl: '',
  };
}

/** Whether a content type names JSON (`application/json`, `application/problem+json`, ...). */
export function isJsonType(contentType: string): boolean {
  return /^[^;]*[/+]json\s*(;|$)/i.test(contentType.trim());
}

/** Why `text` is not JSON, or null when it parses (or is empty: an empty body is no JSON claim). */
export function jsonProblem(text: string): string | null {
  if (text.trim() === '') return null;
  try {
    JSON.parse(text);
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

const methodOf = (v: MockValues) => (v.method === OTHER_METHOD ? v.customMethod.trim() : v.method);

function headersOf(rows: HeaderRow[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const row of rows) if (row.name.trim() !== '' || row.value !== '') headers[row.name.trim()] = row.value;
  return headers;
}

/** A number field's value; a field left empty gets a message instead (the API cannot receive "empty"). */
function numberOf(text: string, field: Field, errors: FormErrors): number {
  if (text.trim() === '') errors.fields[field] = ['Enter a number.'];
  return Number(text);
}

/** Problems the form can see before asking the API: empty number fields, a header named twice. */
function localErrors(v: MockValues, editing: boolean): FormErrors {
  const errors: FormErrors = { fields: {}, rows: {}, top: null };
  numberOf(v.status, 'status', errors);
  numberOf(v.delay, 'delay', errors);
  if (!editing) numberOf(v.ttl, 'ttl', errors);
  if (v.method === OTHER_METHOD && v.customMethod.trim() === '') errors.fields.method = ['Enter a method, or choose one.'];
  const seen = new Set<string>();
  for (const row of v.headers) {
    const name = row.name.trim().toLowerCase();
    if (name !== '' && seen.has(name)) errors.rows[row.key] = [`${row.name.trim()} is already set above (header names ignore case).`];
    seen.add(name);
  }
  return errors;
}

const hasErrors = (e: FormErrors) => Object.keys(e.fields).length > 0 || Object.keys(e.rows).length > 0;

export type Built<T> = { ok: true; body: T } | { ok: false; errors: FormErrors };

/** The POST /v1/mocks body of the form: every field, empty optional ones left to the API's defaults. */
export function createBodyOf(v: MockValues): Built<MockCreate> {
  const errors = localErrors(v, false);
  if (hasErrors(errors)) return { ok: false, errors };
  const body: MockCreate = { status_code: Number(v.status), delay_ms: Number(v.delay), ttl_seconds: Number(v.ttl) };
  if (v.name !== '') body.name = v.name;
  if (v.contentType.trim() !== '') body.content_type = v.contentType.trim();
  const headers = headersOf(v.headers);
  if (Object.keys(headers).length > 0) body.headers = headers;
  if (v.body !== '') body.body = v.body;
  if (methodOf(v) !== '') body.method = methodOf(v);
  if (v.path !== '') body.path = v.path;
  return { ok: true, body };
}

const sameHeaders = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([name, value]) => b[name] === value);

/** The PATCH /v1/mocks/{id} body: only the fields whose value differs from `mock` (empty when none do). */
export function patchBodyOf(v: MockValues, mock: Mock): Built<MockPatch> {
  const errors = localErrors(v, true);
  if (hasErrors(errors)) return { ok: false, errors };
  const patch: MockPatch = {};
  if (v.name !== mock.name) patch.name = v.name;
  if (Number(v.status) !== mock.status_code) patch.status_code = Number(v.status);
  if (v.contentType.trim() !== mock.content_type) patch.content_type = v.contentType.trim();
  const headers = headersOf(v.headers);
  if (!sameHeaders(headers, mock.headers)) patch.headers = headers;
  if (v.body !== bodyTextOf(mock)) patch.body = v.body;
  if (Number(v.delay) !== mock.delay_ms) patch.delay_ms = Number(v.delay);
  if ((methodOf(v) || null) !== mock.method) patch.method = methodOf(v) || null;
  if ((v.path || null) !== mock.path) patch.path = v.path || null;
  if (v.ttl.trim() !== '') patch.ttl_seconds = Number(v.ttl);
  return { ok: true, body: patch };
}

/** The form field of each body field the API may name in `errors[].path`. */
const FIELD_OF: Record<string, Field> = {
  name: 'name',
  status_code: 'status',
  content_type: 'contentType',
  headers: 'headers',
  body: 'body',
  response_body: 'body',
  delay_ms: 'delay',
  method: 'method',
  path: 'path',
  ttl_seconds: 'ttl',
};

/**
 * `err`'s messages placed on the fields its `errors[]` paths name (`status_code`, `/status_code`,
 * `headers.x bad` or `/headers/x bad` for a header row); its `detail` goes on top when an error
 * names no field, or when there is no `errors[]` at all (a 404, a network failure).
 *
 * @example
 *   errorsOf(new ApiError(422, { detail: 'Invalid body', code: 'validation_error', errors: [{ path: 'status_code', message: 'must be >= 100' }] }), [])
 *   // { fields: { status: ['must be >= 100'] }, rows: {}, top: null }
 */
export function errorsOf(err: unknown, rows: HeaderRow[]): FormErrors {
  if (!(err instanceof ApiError)) return { fields: {}, rows: {}, top: `Something went wrong: ${String(err)}` };
  const errors: FormErrors = { fields: {}, rows: {}, top: null };
  for (const { path, message } of err.errors) {
    const pointer = path.startsWith('/');
    const text = pointer ? path.slice(1) : path;
    const cut = text.indexOf(pointer ? '/' : '.');
    const head = cut < 0 ? text : text.slice(0, cut);
    const rest =
      cut < 0
        ? null
        : pointer
          ? text
              .slice(cut + 1)
              .replace(/~1/g, '/')
              .replace(/~0/g, '~')
          : text.slice(cut + 1);
    const field = Object.hasOwn(FIELD_OF, head) ? FIELD_OF[head] : undefined;
    const row = field === 'headers' && rest !== null ? rows.find((r) => r.name.trim() === rest) : undefined;
    if (row) (errors.rows[row.key] ??= []).push(message);
    else if (field) (errors.fields[field] ??= []).push(rest === null ? message : `${rest}: ${message}`);
    else errors.top = err.detail;
  }
  if (err.errors.length === 0) errors.top = err.detail;
  return errors;
}

/** The absolute URL the mock answers at: its base path, plus its `path` when it is restricted to one. */
export function servingUrl(mock: Mock): string {
  return new URL(mock.endpoint_url + (mock.path ?? ''), location.origin).href;
}
