import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, networkReason, UnreachableError } from './failures.js';
import { ApiClient } from './http.js';
import { readEvents, type SseEvent } from './sse.js';

/** The service sends a heartbeat every 15 s: a connection silent for this long is dead. */
const IDLE_LIMIT_MS = 45_000;
/** Waits between reconnection attempts grow from the first to the last. */
const RECONNECT_DELAYS_MS = [250, 500, 1000, 2000, 3000];
/** Events read from the stream ahead of the one being handled (each announced to `onAhead`). */
const READ_AHEAD = 16;

/** One captured request's summary, as a `request` event carries it (CONTRACT §2.3). */
export interface CaptureSummary {
  request_id: string;
  bin_id: string;
  method: string;
  path: string;
  query_string: string;
  content_type: string;
  content_length: number;
  timestamp: string;
}

export interface FollowOptions {
  /** Resume after this capture (its request id), as after a reconnection. */
  lastEventId?: string;
  /** Aborting it ends {@link followBin} (resolves `stopped`). */
  signal: AbortSignal;
  /** Called once each connection is open and streaming. */
  onOpen(reconnected: boolean): void;
  /** A progress line (connecting, reconnecting, reset), for stderr. */
  onProgress(line: string): void;
  /**
   * Told of each capture as soon as it is read from the stream, up to 16 ahead of the one being
   * handled, so its details can be fetched meanwhile; `onCapture` still gets them one at a time.
   * A capture may be announced again after a reconnection.
   */
  onAhead?(summary: CaptureSummary): void;
  /**
   * Handle one capture; it counts as done when this resolves. An {@link UnreachableError} (the
   * service went away meanwhile) reconnects and gets the same capture again.
   */
  onCapture(summary: CaptureSummary): Promise<void>;
}

/** Why {@link followBin} returned: stopped by the signal, or the bin deleted or expired. */
export type FollowEnd = { reason: 'stopped' } | { reason: 'bin_deleted' | 'bin_expired' };

const isAbort = (err: unknown) => (err as { name?: string }).name === 'AbortError';

/**
 * Follow a bin's captures through `GET /v1/bins/{bin_id}/stream`, one at a time in capture
 * order, across dropped connections and restarted servers: every reconnection sends
 * `Last-Event-ID` with the last capture handled, so none is handled twice or skipped (§2.3).
 * An API error answer other than a 5xx (the bin is gone, the key revoked) throws.
 *
 * @example
 *   await followBin(api, 'bin_…', { signal, onOpen, onProgress: note, onCapture: forward });
 */
export async function followBin(api: ApiClient, binId: string, options: FollowOptions): Promise<FollowEnd> {
  let last = options.lastEventId;
  let failures = 0;
  let connectedBefore = false;
  const { signal } = options;
  while (!signal.aborted) {
    let problem: string;
    const connection = new AbortController();
    const stop = () => connection.abort();
    signal.addEventListener('abort', stop, { once: true });
    let idle: NodeJS.Timeout | undefined;
    // A slow delivery is not a silent connection: no watch while an event is handled.
    let busy = false;
    const watch = () => {
      clearTimeout(idle);
      if (!busy) idle = setTimeout(stop, IDLE_LIMIT_MS);
    };
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (last) headers['last-event-id'] = last;
      watch();
      const res = await api.ensureOk(
        await api.send('GET', `/v1/bins/${encodeURIComponent(binId)}/stream`, { headers, signal: connection.signal }),
      );
      options.onOpen(connectedBefore);
      connectedBefore = true;
      failures = 0;
      problem = 'the service closed the stream';
      const announce = (event: SseEvent) => {
        if (event.event === 'request') options.onAhead?.(JSON.parse(event.data) as CaptureSummary);
      };
      for await (const event of readAhead(readEvents(res.body!, watch), READ_AHEAD, announce)) {
        busy = true;
        clearTimeout(idle);
        const end = await handleEvent(event, options).finally(() => (busy = false));
        watch();
        if (end) return end;
        if (event.event === 'request' && event.id) last = event.id;
        if (event.event === 'end') break;
      }
    } catch (err) {
      if (signal.aborted) break;
      if (err instanceof ApiError && err.status < 500 && err.status !== 429) throw err;
      problem =
        err instanceof ApiError ? err.detail : err instanceof UnreachableError ? err.message.replace(/^Error: /, '') : networkReason(err);
      if (isAbort(err)) problem = `no data for ${IDLE_LIMIT_MS / 1000} s`;
    } finally {
      clearTimeout(idle);
      signal.removeEventListener('abort', stop);
      connection.abort();
    }
    if (signal.aborted) break;
    const delay = RECONNECT_DELAYS_MS[Math.min(failures, RECONNECT_DELAYS_MS.length - 1)]!;
    failures++;
    options.onProgress(`Reconnecting to ${api.connection.url} in ${(delay / 1000).toFixed(2)} s (attempt ${failures}): ${problem}`);
    await sleep(delay, undefined, { signal }).catch(() => undefined);
  }
  return { reason: 'stopped' };
}

/**
 * The items of `source` in order, with up to `limit` of them requested ahead of the one the
 * consumer holds; `onItem` hears each as it arrives.
 *
 * @example
 *   for await (const event of readAhead(readEvents(body), 16, prefetch)) await handle(event);
 */
export async function* readAhead<T>(source: AsyncIterator<T>, limit: number, onItem: (item: T) => void): AsyncGenerator<T> {
  // An async generator queues concurrent next() calls and settles them in order.
  const pending: Promise<IteratorResult<T>>[] = [];
  try {
    for (;;) {
      while (pending.length < limit) {
        const next = source.next();
        next.then((r) => !r.done && onItem(r.value)).catch(() => undefined);
        pending.push(next);
      }
      const result = await pending.shift()!;
      if (result.done) return;
      yield result.value;
    }
  } finally {
    // Not awaited: it settles after the reads still queued, which end when the connection is aborted.
    void source.return?.(undefined).catch(() => undefined);
  }
}

/** Act on one event; returns an end when the bin is gone. */
async function handleEvent(event: SseEvent, options: FollowOptions): Promise<FollowEnd | undefined> {
  if (event.event === 'request') {
    await options.onCapture(JSON.parse(event.data) as CaptureSummary);
  } else if (event.event === 'reset') {
    options.onProgress('The service does not know the last capture handled: continuing with new captures only');
  } else if (event.event === 'end') {
    const { reason } = JSON.parse(event.data || '{}') as { reason?: string };
    if (reason === 'bin_deleted' || reason === 'bin_expired') return { reason };
    options.onProgress(`The service ended the stream (${reason ?? 'no reason given'})`);
  }
  return undefined;
}
