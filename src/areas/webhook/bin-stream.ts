import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { BIN_CLOSED_MESSAGE, binChannel } from './bin-actions.js';

/** A comment line every 15 s keeps proxies from closing an idle stream (CONTRACT §2.3). */
const HEARTBEAT_MS = 15_000;

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/**
 * Format one Server-Sent Event. `data` never holds a newline (it is compact JSON).
 *
 * @example
 *   sseEvent('request', '{"request_id":"req_1"}') // 'event: request\ndata: {"request_id":"req_1"}\n\n'
 */
function sseEvent(event: string, data: string): string {
  return `event: ${event}\ndata: ${data}\n\n`;
}

/** The live streams of an app: open one for a bin, or end them all (at shutdown). */
export interface CaptureStreams {
  /** Stream a bin's captures as Server-Sent Events (the caller has checked that the key owns it); HEAD gets the headers only. */
  open(request: FastifyRequest, reply: FastifyReply, binId: string): Promise<FastifyReply | undefined>;
  /** End every open stream with an `end` event giving `reason`. */
  endAll(reason: string): void;
}

/**
 * Live captures of bins as Server-Sent Events, across every instance sharing the store: one
 * `request` event per capture, a heartbeat comment every {@link HEARTBEAT_MS}, and an `end` event
 * when the bin is deleted or expires or the server shuts down.
 *
 * @example
 *   const streams = createCaptureStreams(ctx);
 *   app.addHook('preClose', async () => streams.endAll('server_shutdown'));
 *   app.get('/v1/bins/:bin_id/stream', opts, async (request, reply) => streams.open(request, reply, binId));
 */
export function createCaptureStreams({ store, now }: Pick<AppContext, 'store' | 'now'>): CaptureStreams {
  /** Enders of the open streams, so shutdown is not held up by them. */
  const open = new Set<(reason?: string) => void>();

  return {
    endAll(reason) {
      for (const end of [...open]) end(reason);
    },
    async open(request, reply, binId) {
      // HEAD: the stream's headers, at once, and no stream.
      if (request.method === 'HEAD') return reply.code(200).headers(SSE_HEADERS).send();
      const res = reply.raw;
      let ended = false;
      // Set once the stream is open; `end` may run before that (a bin deleted while subscribing).
      let heartbeat: NodeJS.Timeout | undefined = undefined;

      const end = (reason?: string) => {
        if (ended) return;
        ended = true;
        open.delete(end);
        clearInterval(heartbeat);
        void unsubscribe().catch((err: unknown) => request.log.warn({ err, binId }, 'stream unsubscribe failed'));
        if (!res.writableEnded && !res.destroyed) res.end(reason ? sseEvent('end', JSON.stringify({ reason })) : undefined);
      };
      // Subscribed before the headers go out: a client that sees the stream open misses no capture.
      const unsubscribe = await store.pubsub.subscribe(binChannel(binId), (message) => {
        if (message === BIN_CLOSED_MESSAGE) end('bin_deleted');
        else if (!ended) res.write(sseEvent('request', message));
      });

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
      return undefined;
    },
  };
}
