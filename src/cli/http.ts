import type { Connection } from './connection.js';
import { JSON_BODY_LIMIT } from '../http/json-body.js';
import { ApiError, CliFailure, networkReason, UnreachableError, UsageError, type FieldProblem } from './failures.js';

/** A request's answer that takes longer than this counts as unreachable. */
const REQUEST_TIMEOUT_MS = 30_000;

export interface CallOptions {
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * Build a request URL from the base, a path and the defined query values.
 *
 * @example
 *   apiUrl('http://h', '/v1/bins', { limit: 5, q: undefined }) // 'http://h/v1/bins?limit=5'
 */
export function apiUrl(base: string, path: string, query: CallOptions['query'] = {}): string {
  const url = new URL(base + path);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
  return url.href;
}

/** Bytes in MiB to one decimal, rounded up: a body just over the limit never reads as the limit itself. */
function mib(bytes: number): string {
  return (Math.ceil((bytes / (1024 * 1024)) * 10) / 10).toFixed(1).replace(/\.0$/, '');
}

/** Read an error answer into an {@link ApiError}, whatever its body holds; for a missing key, `connection` says whether the saved one was held back. */
export async function apiErrorOf(res: Response, connection?: Connection): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  let parsed: { detail?: unknown; code?: unknown; errors?: unknown } = {};
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    // Not our error body (a proxy's page): the status says what it can.
  }
  const detail = typeof parsed.detail === 'string' ? parsed.detail : text.trim().slice(0, 200) || res.statusText;
  const code = typeof parsed.code === 'string' ? parsed.code : `http_${res.status}`;
  const errors = Array.isArray(parsed.errors) ? (parsed.errors as FieldProblem[]) : [];
  const retryAfter = Number(res.headers.get('retry-after'));
  const hint =
    code === 'missing_api_key' && connection?.savedKeyUrl
      ? `The key saved by devutil login is for ${connection.savedKeyUrl}; it is sent there only: pass --key (or set DEVUTIL_KEY) for ${connection.url}.`
      : undefined;
  return new ApiError(res.status, code, detail, errors, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined, hint);
}

/**
 * The service's HTTP API as the commands use it: the key in `X-API-Key`, JSON in and out, an
 * error answer thrown as {@link ApiError} (exit 1) and no answer as {@link UnreachableError} (exit 3).
 *
 * @example
 *   const api = new ApiClient({ url: 'http://127.0.0.1:8080', key: 'dk_…' });
 *   const { bin, url } = await api.call<{ bin: { bin_id: string }; url: string }>('POST', '/v1/bins', { body: {} });
 */
export class ApiClient {
  constructor(readonly connection: Connection) {}

  /** Send one request; resolves with any answer the service gave, ok or not. */
  async send(method: string, path: string, options: CallOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (this.connection.key) headers['x-api-key'] = this.connection.key;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
      // The service answers a larger body with 413 before reading it, and fetch, still sending, reports only
      // the broken connection (EPIPE): say so here rather than call the service unreachable.
      const bytes = Buffer.byteLength(body);
      if (bytes > JSON_BODY_LIMIT) {
        throw new UsageError(`the request's JSON body would be ${mib(bytes)} MiB; the service takes at most ${mib(JSON_BODY_LIMIT)} MiB`);
      }
    }
    const signal = options.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    try {
      return await fetch(apiUrl(this.connection.url, path, options.query), { method, headers, body, signal });
    } catch (err) {
      throw new UnreachableError(this.connection.url, networkReason(err), { cause: err });
    }
  }

  /** Send one request and return its JSON answer; an error answer throws. */
  async call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
    const res = await this.send(method, path, options);
    if (!res.ok) throw await apiErrorOf(res, this.connection);
    const text = await res.text().catch((err: unknown) => {
      throw new UnreachableError(this.connection.url, networkReason(err), { cause: err });
    });
    if (text === '') return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new CliFailure(
        `Error: ${this.connection.url} answered ${method} ${path} with something that is not JSON: is it a devutil service?`,
        1,
      );
    }
  }

  /** Like {@link call}, for an answer already received (a stream's first response). */
  async ensureOk(res: Response): Promise<Response> {
    if (!res.ok) throw await apiErrorOf(res, this.connection);
    return res;
  }
}
