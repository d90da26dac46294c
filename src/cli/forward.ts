import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildReplayHeaders } from '../areas/webhook/replay-headers.js';
import { subPathOf } from './capture-view.js';
import { UsageError } from './failures.js';

/** A target that takes longer than this to answer fails (not retried: it may have acted on it). */
export const FORWARD_TIMEOUT_MS = 30_000;
/** Waits before retries: 0.5 s, doubling, at most 8 s. */
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 8000;
/** Failures that mean the request never reached the target's application: safe to send again. */
const RETRIABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);

/** A captured request in full, as `GET /v1/bins/{bin_id}/requests/{request_id}` gives it. */
export interface Capture {
  request_id: string;
  bin_id: string;
  method: string;
  path: string;
  query_string: string;
  headers: Record<string, string>;
  body: string;
  body_encoding: 'utf8' | 'base64';
  timestamp: string;
}

export interface Delivery {
  /** The capture's path after `/v1/catch/<bin_id>` (`/` when none), and `?query` when it had one. */
  shown: string;
  url: string;
  status: number | null;
  elapsedMs: number | null;
  error: string | null;
  attempts: number;
}

export interface ForwardOptions {
  retries: number;
  /** Aborting stops further retries (the attempt in flight finishes). */
  signal?: AbortSignal;
  /** Told before each retry: the attempt about to be made (2 for the first retry), the wait, and why. */
  onRetry?(attempt: number, delayMs: number, reason: string): void;
}

/** A port alone, with or without a path or query: `3000`, `3000/webhooks`. */
const PORT_FIRST = /^\d+(?=$|[/?#])/;
/** `scheme://`, the start of a full URL. */
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Read a `--forward-to` value: an http(s) URL, `host:port[/path]` (http assumed) or a port with an
 * optional path (http://localhost:PORT/path). A port is never read as a host: the WHATWG parser
 * would take `3000/hooks` for the address 0.0.11.184. A scheme that is mistyped (`http:/host`,
 * `ht!tp://host`) is refused rather than read as a host name.
 *
 * @example
 *   parseForwardTarget('3000') // URL http://localhost:3000/
 *   parseForwardTarget('3000/hooks') // URL http://localhost:3000/hooks
 *   parseForwardTarget('localhost:3000/hooks') // URL http://localhost:3000/hooks
 */
export function parseForwardTarget(raw: string): URL {
  const notUrl = new UsageError(`--forward-to "${raw}" is not a URL (e.g. http://localhost:3000/webhooks or 3000/webhooks)`);
  let text: string;
  if (PORT_FIRST.test(raw)) text = `http://localhost:${raw}`;
  else if (SCHEME.test(raw)) text = raw;
  else if (/^[^/?#]*:\//.test(raw)) throw notUrl;
  else text = `http://${raw}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw notUrl;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--forward-to "${raw}" must be an http or https URL`);
  return url;
}

/**
 * Where a capture goes: the target's path joined with the capture's sub-path, then the target's
 * query and the captured one, both kept byte for byte.
 *
 * @example
 *   targetOf(new URL('http://localhost:3000/hooks'), { path: '/v1/catch/bin_1/stripe', query_string: 'a=1', bin_id: 'bin_1' })
 *   // { path: '/hooks/stripe?a=1', shown: '/stripe?a=1' }
 */
export function targetOf(base: URL, capture: Pick<Capture, 'path' | 'query_string' | 'bin_id'>): { path: string; shown: string } {
  const prefix = `/v1/catch/${capture.bin_id}`;
  const sub = capture.path.startsWith(prefix) ? capture.path.slice(prefix.length) : capture.path;
  const query = capture.query_string;
  const basePath = base.pathname === '/' ? '' : base.pathname.replace(/\/$/, '');
  const baseQuery = base.search.slice(1);
  const joinedQuery = [baseQuery, query].filter(Boolean).join('&');
  return {
    path: (basePath + sub || '/') + (joinedQuery ? `?${joinedQuery}` : ''),
    shown: subPathOf(capture),
  };
}

const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

/** Send one request and wait for its status (the answer's body is read and dropped). */
function sendOnce(base: URL, method: string, path: string, headers: Record<string, string | string[]>, body: Buffer): Promise<number> {
  const secure = base.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request({
      protocol: base.protocol,
      hostname: base.hostname.replace(/^\[|\]$/g, ''),
      port: base.port || (secure ? 443 : 80),
      method,
      path,
      headers,
      agent: secure ? agents.https : agents.http,
      timeout: FORWARD_TIMEOUT_MS,
    });
    req.once('timeout', () =>
      req.destroy(Object.assign(new Error(`timed out after ${FORWARD_TIMEOUT_MS / 1000} s`), { code: 'ETIMEDOUT' })),
    );
    req.once('error', reject);
    req.once('response', (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
      res.once('error', reject);
    });
    req.end(body);
  });
}

/**
 * Forward one capture to `base` (CONTRACT §9): the captured method, the target's path joined with
 * the capture's sub-path and query, the captured headers minus hop-by-hop ones, `host` and
 * `content-length`, and the body bytes exactly. A target that cannot be connected to is retried
 * `retries` times with growing waits; any answer, whatever its status, is a delivery.
 *
 * @example
 *   const d = await forwardCapture(new URL('http://localhost:3000'), capture, { retries: 5 }); // d.status === 200
 */
export async function forwardCapture(base: URL, capture: Capture, options: ForwardOptions): Promise<Delivery> {
  const { path, shown } = targetOf(base, capture);
  const body = Buffer.from(capture.body, capture.body_encoding === 'base64' ? 'base64' : 'utf8');
  const headers = buildReplayHeaders(capture.headers, undefined, base.host);
  if (body.length > 0 || 'content-length' in capture.headers) headers['content-length'] = String(body.length);
  const url = `${base.protocol}//${base.host}${path}`;
  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    try {
      const status = await sendOnce(base, capture.method, path, headers, body);
      return { shown, url, status, elapsedMs: performance.now() - started, error: null, attempts: attempt };
    } catch (err) {
      const code = (err as { code?: string }).code;
      const reason = code && code !== 'ETIMEDOUT' ? code : (err as Error).message;
      const retriable = (code !== undefined && RETRIABLE.has(code)) || (err as Error).message === 'socket hang up';
      if (!retriable || attempt > options.retries || options.signal?.aborted) {
        return { shown, url, status: null, elapsedMs: null, error: reason, attempts: attempt };
      }
      const delay = Math.min(FIRST_RETRY_MS * 2 ** (attempt - 1), MAX_RETRY_MS);
      options.onRetry?.(attempt + 1, delay, reason);
      const waited = await sleep(delay, true, { signal: options.signal }).catch(() => false);
      if (!waited) return { shown, url, status: null, elapsedMs: null, error: `${reason} (stopped before retrying)`, attempts: attempt };
    }
  }
}
