// A Server-Sent Events client on `fetch` (an EventSource cannot send the X-API-Key header): an
// incremental parser of the event-stream format, and a connection that reconnects with backoff and
// resumes with `Last-Event-ID` (CONTRACT §2.3), so a dropped connection loses no capture.

/** One dispatched event: its type (`message` when unnamed), data lines joined by `\n`, and the last id seen. */
export interface SseEvent {
  type: string;
  data: string;
  lastEventId: string | null;
}

export interface SseParser {
  /** Feed the next decoded chunk; complete events are dispatched at once, a partial one waits. */
  push(chunk: string): void;
}

/**
 * A parser of the `text/event-stream` format (HTML Living Standard, "Parsing an event stream"):
 * `event:`, `data:`, `id:` and `retry:` fields, comments, any of CRLF, LF or CR as line end, in
 * chunks split anywhere.
 *
 * @example
 *   const parser = createSseParser((e) => console.log(e.type, e.data));
 *   parser.push('event: request\ndata: {"request_id"');
 *   parser.push(':"req_1"}\nid: req_1\n\n'); // logs: request {"request_id":"req_1"}
 */
export function createSseParser(onEvent: (event: SseEvent) => void, onRetry: (ms: number) => void = () => undefined): SseParser {
  let pending = '';
  let started = false;
  let type = '';
  let data = '';
  let lastEventId: string | null = null;

  const dispatch = () => {
    const event = { type: type === '' ? 'message' : type, data: data.endsWith('\n') ? data.slice(0, -1) : data, lastEventId };
    const hasData = data !== '';
    type = '';
    data = '';
    if (hasData) onEvent(event);
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') type = value;
    else if (field === 'data') data += value + '\n';
    else if (field === 'id' && !value.includes('\0')) lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) onRetry(Number(value));
  };

  return {
    push(chunk) {
      let text = pending + chunk;
      if (!started && text !== '') {
        started = true;
        if (text.startsWith('\uFEFF')) text = text.slice(1);
      }
      let start = 0;
      for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (c !== '\n' && c !== '\r') continue;
        // A CR at the very end may be the first half of a CRLF split across chunks.
        if (c === '\r' && i === text.length - 1) break;
        line(text.slice(start, i));
        if (c === '\r' && text[i + 1] === '\n') i++;
        start = i + 1;
      }
      pending = text.slice(start);
    },
  };
}

/** `connecting` before the first answer, `live` while the stream is open, `reconnecting` between attempts, `closed` for good. */
export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'closed';

/** Reasons of an `end` event after which the stream will never come back (the bin is gone). */
const FINAL_END_REASONS = new Set(['bin_deleted', 'bin_expired']);

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;
/** A connection that lasted this long was healthy: the next drop retries quickly again. */
const HEALTHY_AFTER_MS = 5_000;
/** The server sends a heartbeat every 15 s: silence this long means a connection that died unnoticed. */
const SILENCE_LIMIT_MS = 45_000;

export interface LiveStreamOptions {
  /** Open the stream; `headers` holds `Last-Event-ID` when resuming. A rejection is a failed attempt. */
  open(headers: Record<string, string>, signal: AbortSignal): Promise<Response>;
  /** Every event but `end`, in order (`request`, `reset`, ...). */
  onEvent(event: SseEvent): void;
  onStatus(status: LiveStatus): void;
  /** The bin is gone (an `end` event saying so, or a failure `isFinal` accepts); the stream is closed. */
  onClosed(reason: string): void;
  /** Whether a failure to open is final (the bin no longer exists, the key was revoked), as a reason; else retried. */
  isFinal?(error: unknown): string | null;
  /** Resume after this id on the first connection too. */
  lastEventId?: string | null;
}

export interface LiveStream {
  /** The id of the last event received (or the one resumed from), sent as `Last-Event-ID` on reconnection. */
  readonly lastEventId: string | null;
  /** Resume from `id` at the next connection unless the stream has already seen an id of its own. */
  resumeFrom(id: string): void;
  close(): void;
}

/**
 * Read an event stream and keep it open: after a drop (network, server restart, an `end` that is
 * not final) it waits 0.5 s, doubling up to 10 s with jitter, and reconnects with
 * `Last-Event-ID: <last id seen>`.
 *
 * @example
 *   const stream = openLiveStream({
 *     open: (headers, signal) => api.fetch(`/v1/bins/${binId}/stream`, { headers, signal }),
 *     onEvent: (e) => e.type === 'request' && add(JSON.parse(e.data)),
 *     onStatus: setStatus,
 *     onClosed: (reason) => setGone(reason),
 *   });
 *   // later: stream.close();
 */
export function openLiveStream(options: LiveStreamOptions): LiveStream {
  let lastEventId = options.lastEventId ?? null;
  let seenOwnId = false;
  let closed = false;
  let failures = 0;
  let controller: AbortController | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const setStatus = (status: LiveStatus) => {
    if (!closed || status === 'closed') options.onStatus(status);
  };

  const finish = (reason: string) => {
    if (closed) return;
    stop();
    options.onStatus('closed');
    options.onClosed(reason);
  };

  const stop = () => {
    closed = true;
    clearTimeout(retryTimer);
    window.removeEventListener('online', retryNow);
    controller?.abort();
  };

  const scheduleRetry = () => {
    if (closed) return;
    setStatus('reconnecting');
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** failures);
    failures++;
    clearTimeout(retryTimer);
    // Jitter spreads the reconnections of many tabs after a restart.
    retryTimer = setTimeout(() => void connect(), delay * (0.75 + Math.random() * 0.5));
  };

  function retryNow() {
    if (closed || controller !== null) return;
    clearTimeout(retryTimer);
    void connect();
  }

  const connect = async () => {
    const attempt = new AbortController();
    controller = attempt;
    let silence: ReturnType<typeof setTimeout> | undefined;
    const heard = () => {
      clearTimeout(silence);
      silence = setTimeout(() => attempt.abort(), SILENCE_LIMIT_MS);
    };
    // Set by an `end` event whose reason is final, or by a failure `isFinal` accepts.
    const ended: { final: string | null } = { final: null };
    const opened = Date.now();
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (lastEventId !== null) headers['last-event-id'] = lastEventId;
      const response = await options.open(headers, attempt.signal);
      if (response.body === null) throw new Error('The stream answered without a body.');
      setStatus('live');
      heard();
      const parser = createSseParser((event) => {
        if (event.lastEventId !== null) {
          // An empty `id:` resets the id, as in an EventSource.
          lastEventId = event.lastEventId === '' ? null : event.lastEventId;
          seenOwnId = true;
        }
        if (event.type === 'end') {
          const reason = reasonOf(event.data);
          if (FINAL_END_REASONS.has(reason)) ended.final = reason;
        } else if (!closed) options.onEvent(event);
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done || closed) break;
        heard();
        parser.push(value);
      }
    } catch (err) {
      const final = closed ? null : (options.isFinal?.(err) ?? null);
      if (final !== null) ended.final = final;
    } finally {
      clearTimeout(silence);
      if (controller === attempt) controller = null;
    }
    if (closed) return;
    if (ended.final !== null) return finish(ended.final);
    if (Date.now() - opened >= HEALTHY_AFTER_MS) failures = 0;
    scheduleRetry();
  };

  window.addEventListener('online', retryNow);
  setStatus('connecting');
  void connect();

  return {
    get lastEventId() {
      return lastEventId;
    },
    resumeFrom(id) {
      if (!seenOwnId) lastEventId = id;
    },
    close() {
      if (closed) return;
      stop();
      setStatus('closed');
    },
  };
}

/** The `reason` of an `end` event's data, `unknown` when it has none. */
function reasonOf(data: string): string {
  try {
    const parsed = JSON.parse(data) as { reason?: unknown };
    return typeof parsed.reason === 'string' ? parsed.reason : 'unknown';
  } catch {
    return 'unknown';
  }
}
