// One call of a tool operation: the request sent with the key, the answer with its credit headers,
// an error with the fields it names, and the equivalent curl command.
import { ApiError, type ApiClient } from '../api';
import type { CallError, Credits, FieldSpec, PreparedRequest } from './types';

/** The credits left after the last metered call of any tool page, to tell the next call's cost. */
let lastRemaining: number | null = null;

/** Start the running balance from the account read at sign-in (GET /v1/account). */
export function knowCredits(remaining: number | null): void {
  if (lastRemaining === null) lastRemaining = remaining;
}

function creditsOf(headers: Headers): Credits | null {
  const limit = headers.get('x-credits-limit');
  const remaining = headers.get('x-credits-remaining');
  if (limit === null || remaining === null) return null;
  const left = Number(remaining);
  const cost = lastRemaining !== null && lastRemaining >= left ? lastRemaining - left : null;
  lastRemaining = left;
  return { limit: Number(limit), remaining: left, cost };
}

/** `/v1/x` plus the query string. */
export function urlOf(request: PreparedRequest): string {
  const query = new URLSearchParams(request.query ?? {}).toString();
  return query === '' ? request.path : `${request.path}?${query}`;
}

/**
 * Send `request` with the signed-in key; resolves with the JSON answer and the credits, rejects with
 * an ApiError (an AbortError when `signal` aborts).
 */
export async function sendRequest(
  api: ApiClient,
  request: PreparedRequest,
  signal?: AbortSignal,
): Promise<{ result: unknown; credits: Credits | null }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.body !== null) headers['content-type'] = 'application/json';
  const response = await api.fetch(urlOf(request), {
    method: request.method.toUpperCase(),
    headers,
    body: request.body === null ? undefined : JSON.stringify(request.body),
    signal,
  });
  const credits = creditsOf(response.headers);
  return { result: (await response.json()) as unknown, credits };
}

/** The field an error path names: `payload.exp` → `payload`, `fields[0].type` → `fields`. */
function fieldOfPath(path: string, fields: FieldSpec[]): string | undefined {
  const head = /^[^.[/]+/.exec(path.replace(/^\/|^(body|querystring|query)[./]/, ''))?.[0];
  return fields.find((f) => f.name === head)?.name;
}

/**
 * What a refused call says, with each message next to the field its `errors[].path` names (the
 * API's `detail` when one field is at fault), or the field the registry gives for its code.
 */
export function callErrorOf(err: unknown, fields: FieldSpec[], errorFields: Record<string, string> = {}): CallError {
  if (!(err instanceof ApiError))
    return { detail: `Something went wrong: ${String(err)}`, code: 'client_error', status: 0, fieldErrors: {} };
  const fieldErrors: Record<string, string> = {};
  const named = err.errors.map((e) => ({ field: fieldOfPath(e.path, fields), ...e }));
  for (const { field, path, message } of named) {
    if (field === undefined) continue;
    const sentence = named.length === 1 ? err.detail : `${path} ${message}`;
    fieldErrors[field] = fieldErrors[field] ? `${fieldErrors[field]}; ${sentence}` : sentence;
  }
  const byCode = errorFields[err.code];
  if (err.errors.length === 0 && byCode !== undefined && fields.some((f) => f.name === byCode)) fieldErrors[byCode] = err.detail;
  return { detail: err.detail, code: err.code, status: err.status, fieldErrors };
}

/** `text` as one shell word in single quotes. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The curl command of `request` against `origin`, with `$DEVUTIL_KEY` where the key goes.
 *
 * @example
 *   curlOf({ method: 'post', path: '/v1/auth/hash', query: null, body: { data: 'abc' } }, 'http://127.0.0.1:8080')
 *   // curl -sS -X POST 'http://127.0.0.1:8080/v1/auth/hash' -H "X-API-Key: $DEVUTIL_KEY" -H 'Content-Type: application/json' -d '{"data":"abc"}'
 */
export function curlOf(request: PreparedRequest, origin: string): string {
  const parts = ['curl -sS'];
  if (request.method === 'post') parts.push('-X POST');
  parts.push(shellQuote(origin + urlOf(request)), '-H "X-API-Key: $DEVUTIL_KEY"');
  if (request.body !== null) parts.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(request.body))}`);
  return parts.join(' ');
}
