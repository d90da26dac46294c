import assert from 'node:assert/strict';
import { get, type IncomingMessage } from 'node:http';

/**
 * Read a bin's live stream until `count` `request` events arrived: `ready` once the stream
 * answers, `events` their request ids in arrival order (the stream is then closed).
 *
 * @example
 *   const stream = collectEvents(`${base}/v1/bins/${binId}/stream`, key, 3);
 *   await stream.ready; // … capture three requests …
 *   await stream.events; // ['req_…', 'req_…', 'req_…']
 */
export function collectEvents(
  url: string,
  key: string,
  count: number,
  limitMs = 30_000,
): { ready: Promise<void>; events: Promise<string[]> } {
  let markReady!: () => void;
  const ready = new Promise<void>((r) => (markReady = r));
  const events = new Promise<string[]>((resolve, reject) => {
    const req = get(url, { headers: { 'x-api-key': key } }, (res) => {
      let buffer = '';
      const ids: string[] = [];
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        markReady();
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const data = /^event: request\ndata: (.*)$/m.exec(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (data) ids.push(JSON.parse(data[1]!).request_id);
          if (ids.length === count) {
            req.destroy();
            resolve(ids);
          }
        }
      });
    });
    req.on('error', (err) => (err.message.includes('aborted') ? undefined : reject(err)));
    setTimeout(() => reject(new Error('stream timed out')), limitMs).unref();
  });
  return { ready, events };
}

export interface SseEvent {
  event: string;
  data: string;
  /** Only when the event had an `id:` line. */
  id?: string;
}

export interface OpenStream {
  response: IncomingMessage;
  events: SseEvent[];
  comments: string[];
  /** Resolves once `n` events have arrived. */
  waitFor(n: number): Promise<void>;
  /** Resolves when the stream closes (ended by the server, or by `close`). */
  ended: Promise<void>;
  close(): void;
}

export interface StreamOptions {
  /** Sent as the `Last-Event-ID` header. */
  lastEventId?: string;
  /** Appended to the stream's URL (`?last_event_id=…`). */
  query?: string;
  /** Read this many events, then close the stream and ignore whatever else had arrived. */
  limit?: number;
}

/**
 * A minimal SSE client over a real socket, resolved once the stream answers.
 *
 * @example
 *   const stream = await openStream(base, binId, key, { lastEventId: 'req_…' });
 *   await stream.waitFor(3); // stream.events: [{ id: 'req_…', event: 'request', data: '{…}' }, …]
 */
export function openStream(base: string, binId: string, apiKey: string, options: StreamOptions = {}): Promise<OpenStream> {
  const headers: Record<string, string> = { 'x-api-key': apiKey, accept: 'text/event-stream' };
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  return new Promise((resolve, reject) => {
    const req = get(`${base}/v1/bins/${binId}/stream${options.query ?? ''}`, { headers }, (response) => {
      const events: SseEvent[] = [];
      const comments: string[] = [];
      const waiters: { n: number; resolve: () => void }[] = [];
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        for (let cut = buffer.indexOf('\n\n'); cut !== -1 && events.length !== options.limit; cut = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event: SseEvent = { event: 'message', data: '' };
          let isEvent = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('event: ')) [event.event, isEvent] = [line.slice(7), true];
            else if (line.startsWith('data: ')) [event.data, isEvent] = [line.slice(6), true];
            else if (line.startsWith('id: ')) event.id = line.slice(4);
          }
          if (isEvent) events.push(event);
        }
        if (events.length === options.limit) req.destroy();
        for (const w of waiters.filter((x) => events.length >= x.n)) w.resolve();
      });
      const ended = new Promise<void>((done) => response.on('close', () => done()));
      resolve({
        response,
        events,
        comments,
        ended,
        waitFor: (n) => (events.length >= n ? Promise.resolve() : new Promise((done) => waiters.push({ n, resolve: done }))),
        close: () => req.destroy(),
      });
    });
    req.on('error', (err) => (err.message.includes('aborted') || err.message === 'socket hang up' ? undefined : reject(err)));
  });
}

/**
 * The `id` of each event of a stream, asserting that each is a `request` event whose data names
 * the same request.
 *
 * @example
 *   assert.deepEqual(requestIds(stream), [firstId, secondId]);
 */
export function requestIds(stream: OpenStream): string[] {
  return stream.events.map((e) => {
    assert.equal(e.event, 'request');
    assert.equal(JSON.parse(e.data).request_id, e.id);
    return e.id!;
  });
}

/**
 * `promise`, or a failure naming `what` after `ms` (a stream missing an event would otherwise hang the test).
 *
 * @example
 *   await within(stream.waitFor(5), 10_000, 'five events');
 */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
