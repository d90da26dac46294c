import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { CapturedRequestSummary } from '../../storage/types.js';
import { BIN_CLOSED_MESSAGE, binChannel } from './bin-actions.js';
import { summaryToWire } from './wire.js';

/** A comment line every 15 s keeps proxies from closing an idle stream (CONTRACT §2.3). */
const HEARTBEAT_MS = 15_000;

/** Requests a resumed stream reads from the store at a time (a bin retains BIN_MAX_REQUESTS). */
export const BACKLOG_PAGE = 200;

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/** What a resuming client with an id that is not one of the bin's gets before the live events. */
const RESET_EVENT = 'event: reset\ndata: {"reason":"unknown_event_id"}\n\n';

/**
 * Format one Server-Sent Event. `data` never holds a newline (it is compact JSON), nor does `id`.
 *
 * @example
 *   sseEvent('end', '{"reason":"bin_deleted"}') // 'event: end\ndata: {"reason":"bin_deleted"}\n\n'
 *   sseEvent('request', '{"request_id":"req_1"}', 'req_1') // 'id: req_1\nevent: request\ndata: {"request_id":"req_1"}\n\n'
 */
function sseEvent(event: string, data: string, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${data}\n\n`;
}

const ID_FIRST = '{"request_id":"';

/**
 * The request id of a live message, a summary as `summaryToWire` writes it (`request_id` first:
 * read without parsing the message; ids hold no quote).
 *
 * @example
 *   requestIdOf('{"request_id":"req_1","bin_id":"bin_1"}') // 'req_1'
 */
function requestIdOf(message: string): string {
  const end = message.startsWith(ID_FIRST) ? message.indexOf('"', ID_FIRST.length) : -1;
  return end === -1 ? String((JSON.parse(message) as { request_id: unknown }).request_id) : message.slice(ID_FIRST.length, end);
}

/** Resolves once `res` can take more, or has closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** The live streams of an app: open one for a bin, or end them all (at shutdown). */
export interface CaptureStreams {
  /**
   * Stream a bin's captures as Server-Sent Events (the caller has checked that the key owns it); HEAD
   * gets the headers only. With `lastEventId`, the retained captures after that request come first.
   */
  open(request: FastifyRequest, reply: FastifyReply, binId: string, lastEventId?: string): Promise<FastifyReply | undefined>;
  /** End every open stream with an `end` event giving `reason`. */
  endAll(reason: string): void;
}

/**
 * Live captures of bins as Server-Sent Events, across every instance sharing the store: one
 * `request` event per capture, its request id as the event's `id`, a heartbeat comment every
 * {@link HEARTBEAT_MS}, and an `end` event when the bin is deleted or expires or the server shuts
 * down. A stream resuming after a request id first sends the retained captures after it, read from
 * the store in pages of {@link BACKLOG_PAGE}, or a `reset` event when the id is not the bin's.
 *
 * @example
 *   const streams = createCaptureStreams(ctx);
 *   app.addHook('preClose', async () => streams.endAll('server_shutdown'));
 *   app.get('/v1/bins/:bin_id/stream', opts, async (request, reply) => streams.open(request, reply, binId, lastEventId));
 */
export function createCaptureStreams({ store, now }: Pick<AppContext, 'store' | 'now'>): CaptureStreams {
  /** Enders of the open streams, so shutdown is not held up by them. */
  const open = new Set<(reason?: string) => void>();

  return {
    endAll(reason) {
      for (const end of [...open]) end(reason);
    },
    async open(request, reply, binId, lastEventId) {
      // HEAD: the stream's headers, at once, and no stream.
      if (request.method === 'HEAD') return reply.code(200).headers(SSE_HEADERS).send();
      const res = reply.raw;
      let ended = false;
      // Set once the stream is open; `end` may run before that (a bin deleted while subscribing).
      let heartbeat: NodeJS.Timeout | undefined = undefined;
      // Live messages held while a resumed stream sends the captures it missed (null once live).
      let held: string[] | null = lastEventId === undefined ? null : [];
      // The ids sent from the store, which live messages may repeat (a capture stored before the
      // backlog was read but heard after subscribing); null once a live message is past them.
      let sent: Set<string> | null = null;
      let repeating = false;

      const release = () => {
        ended = true;
        open.delete(end);
        clearInterval(heartbeat);
        void unsubscribe().catch((err: unknown) => request.log.warn({ reqId: request.id, err, binId }, 'stream unsubscribe failed'));
      };
      const end = (reason?: string) => {
        if (ended) return;
        release();
        if (!res.writableEnded && !res.destroyed) res.end(reason ? sseEvent('end', JSON.stringify({ reason })) : undefined);
      };
      const sendLive = (message: string) => {
        const id = requestIdOf(message);
        if (sent) {
          // Messages arrive in capture order and the backlog is a run of it: one outside the set after one inside is past it.
          if (sent.has(id)) return void (repeating = true);
          if (repeating) sent = null;
        }
        res.write(sseEvent('request', message, id));
      };
      // Subscribed before the store is read and the headers go out: a client that sees the stream open misses no capture.
      const unsubscribe = await store.pubsub.subscribe(binChannel(binId), (message) => {
        if (message === BIN_CLOSED_MESSAGE) end('bin_deleted');
        else if (ended) return;
        else if (held) held.push(message);
        else sendLive(message);
      });

      // The first page before the headers: a store that cannot answer is a 503, not a broken stream.
      let page: CapturedRequestSummary[] | null = null;
      if (lastEventId !== undefined) {
        try {
          page = await store.bins.listRequestsAfter(binId, lastEventId, BACKLOG_PAGE);
        } catch (err) {
          release();
          throw err;
        }
      }

      reply.hijack();
      // A client gone while subscribing has already fired 'close': let go of the subscription now.
      if (res.destroyed) {
        end();
        return undefined;
      }
      res.writeHead(200, { ...(reply.getHeaders() as Record<string, string>), ...SSE_HEADERS });
      res.write(`retry: 3000\n: streaming captures of ${binId}\n\n`);
      open.add(end);
      res.on('close', () => end());
      heartbeat = setInterval(() => {
        res.write(': heartbeat\n\n');
        store.bins.getBin(binId, now()).then(
          (bin) => {
            if (!bin) end('bin_expired');
          },
          () => undefined,
        );
      }, HEARTBEAT_MS);
      if (lastEventId === undefined) return undefined;

      if (page === null) res.write(RESET_EVENT);
      else sent = new Set();
      try {
        while (page && page.length > 0 && !ended) {
          for (const summary of page) {
            sent!.add(summary.id);
            res.write(sseEvent('request', JSON.stringify(summaryToWire(summary)), summary.id));
          }
          if (page.length < BACKLOG_PAGE) break;
          if (res.writableNeedDrain) await drained(res);
          // After the last one sent, even if it has been evicted meanwhile (the store still places it).
          if (!ended) page = await store.bins.listRequestsAfter(binId, page[page.length - 1]!.id, BACKLOG_PAGE);
        }
      } catch (err) {
        // The client reconnects with the last id it got and is sent the rest then.
        request.log.warn({ reqId: request.id, err, binId }, 'stream backlog could not be read');
        end();
      }
      const live = held ?? [];
      held = null;
      for (const message of live) if (!ended) sendLive(message);
      return undefined;
    },
  };
}
