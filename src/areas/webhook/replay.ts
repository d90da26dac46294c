import { performance } from 'node:perf_hooks';
import type { AppContext } from '../../context.js';
import { DevutilError, invalidField } from '../../errors.js';
import { buildReplayHeaders } from './replay-headers.js';
import { elapsedSince, REPLAY_TIMEOUT_MS, sendReplay } from './replay-send.js';
import { checkTarget, parseTargetUrl } from './ssrf-guard.js';

/** One replay: which capture, whose key, and where and how to send it. */
export interface ReplayInput {
  binId: string;
  requestId: string;
  /** The calling key; a bin belongs to one key, so without one there is nothing to replay. */
  ownerKeyId: string | undefined;
  targetUrl: string;
  /** Overrides the captured method. */
  method?: string;
  /** Merged over the captured headers. */
  headers?: Record<string, string>;
}

/** What a replay answers (CONTRACT §2.4). */
export interface WireReplay {
  replayed_to: string;
  response_status: number;
  response_headers: Record<string, string>;
  response_body: string;
  response_truncated: boolean;
  elapsed_ms: number;
}

/** Run `work` with a deadline; past it, 504 `upstream_timeout`. */
function withDeadline<T>(work: Promise<T>, ms: number, host: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DevutilError('upstream_timeout', `${host} could not be resolved within ${ms / 1000} s.`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Send a captured request again: load the capture (404 for a bin or request the key does not own),
 * check the target (422 `target_not_allowed` unless every address of its host is public), send the
 * exact body bytes with the captured headers, and report the target's answer. Resolution and the
 * exchange share one {@link REPLAY_TIMEOUT_MS} budget.
 *
 * @example
 *   const result = await replayRequest(ctx, { binId, requestId, ownerKeyId: 'key_1', targetUrl: 'https://example.com/hook' });
 *   result.response_status // 200
 */
export async function replayRequest(
  ctx: Pick<AppContext, 'store' | 'now' | 'config' | 'resolveHost'>,
  input: ReplayInput,
): Promise<WireReplay> {
  const { binId, requestId } = input;
  const bin = await ctx.store.bins.getBin(binId, ctx.now());
  if (!bin || input.ownerKeyId === undefined || bin.ownerKeyId !== input.ownerKeyId)
    throw new DevutilError('not_found', `No bin with id ${binId}.`);
  const captured = await ctx.store.bins.getRequest(binId, requestId);
  if (!captured) throw new DevutilError('not_found', `No request ${requestId} in bin ${binId}.`);

  const url = parseTargetUrl(input.targetUrl);
  const method = (input.method ?? captured.method).toUpperCase();
  if (method === 'CONNECT') throw invalidField('method', 'CONNECT cannot be replayed');
  const headers = buildReplayHeaders(captured.headers, input.headers, url.host);

  const started = performance.now();
  const target = await withDeadline(
    checkTarget(url, { allowPrivate: ctx.config.replayAllowPrivate, allowHosts: ctx.config.replayAllowHosts, resolve: ctx.resolveHost }),
    REPLAY_TIMEOUT_MS,
    url.hostname,
  );
  const answer = await sendReplay({
    target,
    method,
    headers,
    body: captured.body,
    timeoutMs: REPLAY_TIMEOUT_MS - (performance.now() - started),
  });
  return {
    replayed_to: url.href,
    response_status: answer.status,
    response_headers: answer.headers,
    response_body: answer.body,
    response_truncated: answer.truncated,
    elapsed_ms: elapsedSince(started),
  };
}
