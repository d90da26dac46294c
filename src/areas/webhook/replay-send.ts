import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { DevutilError } from '../../errors.js';
import { joinHeaders } from './catch-capture.js';
import type { CheckedTarget } from './ssrf-guard.js';

/** Bytes of the target's answer kept in `response_body` (CONTRACT §2.4). */
export const REPLAY_BODY_LIMIT = 10240;
/** The whole exchange (resolution included) must finish within this. */
export const REPLAY_TIMEOUT_MS = 10_000;

export interface ReplaySend {
  target: CheckedTarget;
  method: string;
  /** Values as the bytes to send, one character per byte (what `headerValueBytes` gives); an array sends one line each. */
  headers: Record<string, string | string[]>;
  body: Buffer;
  /** Milliseconds left of the replay's budget. */
  timeoutMs: number;
}

export interface ReplayAnswer {
  status: number;
  /** As a capture stores them ({@link joinHeaders}): lower-cased names, repeated ones joined, UTF-8 text or `base64:` bytes. */
  headers: Record<string, string>;
  /** The first {@link REPLAY_BODY_LIMIT} bytes as UTF-8 text. */
  body: string;
  /** More bytes were sent (or the body did not finish in time) than `body` holds. */
  truncated: boolean;
}

/** A `lookup` that answers with the address the SSRF guard already checked, whatever name is asked. */
function pinnedLookup(target: CheckedTarget): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** The exact body length; `0` announced for methods that normally carry a body. */
function withLength(headers: Record<string, string | string[]>, method: string, body: Buffer): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.assign(Object.create(null), headers);
  if (body.length > 0 || BODY_METHODS.has(method.toUpperCase())) out['content-length'] = String(body.length);
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Send one request to a checked target and read at most {@link REPLAY_BODY_LIMIT} bytes of the
 * answer, then drop the connection (memory stays bounded whatever the target sends). Redirects
 * are not followed. No answer within `timeoutMs` → 504 `upstream_timeout`; a failed connection,
 * TLS handshake or malformed answer → 502 `upstream_error`. When the status line arrived but the
 * body did not finish in time, the part received is returned with `truncated: true`.
 *
 * @example
 *   const answer = await sendReplay({ target, method: 'POST', headers, body, timeoutMs: 10_000 });
 *   answer.status // 200
 */
export function sendReplay(input: ReplaySend): Promise<ReplayAnswer> {
  const { target, method, headers, body } = input;
  const transport = target.url.protocol === 'https:' ? https : http;
  return new Promise<ReplayAnswer>((resolve, reject) => {
    let response: IncomingMessage | null = null;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const req = transport.request({
      host: target.hostname,
      port: target.port,
      method,
      path: `${target.url.pathname}${target.url.search}`,
      headers: withLength(headers, method, body),
      lookup: pinnedLookup(target),
      servername: isIP(target.hostname) ? undefined : target.hostname,
      agent: false,
      setHost: false,
      auth: target.url.username ? `${safeDecode(target.url.username)}:${safeDecode(target.url.password)}` : undefined,
    });
    const timer = setTimeout(
      () => {
        if (response) finish(true);
        else fail(new DevutilError('upstream_timeout', `${target.url.host} did not answer within ${REPLAY_TIMEOUT_MS / 1000} s.`));
      },
      Math.max(0, input.timeoutMs),
    );

    function settle(): boolean {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      return true;
    }
    function finish(truncated: boolean): void {
      if (!settle() || !response) return;
      const all = Buffer.concat(chunks);
      resolve({
        status: response.statusCode ?? 0,
        headers: joinHeaders(response.rawHeaders),
        body: all.subarray(0, REPLAY_BODY_LIMIT).toString('utf8'),
        truncated: truncated || all.length > REPLAY_BODY_LIMIT,
      });
      req.destroy();
    }
    function fail(err: DevutilError): void {
      if (!settle()) return;
      reject(err);
      req.destroy();
    }

    req.on('error', (err: NodeJS.ErrnoException) => {
      if (response) finish(true);
      else fail(new DevutilError('upstream_error', `Could not reach ${target.url.host}: ${err.code ?? err.message}.`, { cause: err }));
    });
    req.on('response', (res) => {
      response = res;
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size > REPLAY_BODY_LIMIT) finish(true);
      });
      res.on('end', () => finish(false));
      res.on('aborted', () => finish(true));
      res.on('error', () => finish(true));
    });
    req.end(body.length > 0 ? body : undefined);
  });
}

/** Milliseconds since `start` (a `performance.now()` reading), rounded to microseconds. */
export function elapsedSince(start: number): number {
  return Math.round((performance.now() - start) * 1000) / 1000;
}
