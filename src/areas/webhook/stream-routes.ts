import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { errorResponses } from '../../http/schemas.js';
import { BIN_CLOSED_MESSAGE, binChannel, findOwnedBin } from './bin-actions.js';
import { binIdParams, callerKeyId } from './bin-routes.js';

/** A comment line every 15 s keeps proxies from closing an idle stream (CONTRACT §2.3). */
export const HEARTBEAT_MS = 15_000;

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
export function sseEvent(event: string, data: string): string {
  return `event: ${event}\ndata: ${data}\n\n`;
}

/** `GET /v1/bins/{bin_id}/stream`: live captures as Server-Sent Events. */
export default async function streamRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { store, now } = ctx;
  /** Enders of the open streams, so shutdown is not held up by them. */
  const open = new Set<(reason?: string) => void>();

  app.addHook('preClose', async () => {
    for (const end of [...open]) end('server_shutdown');
  });

  app.get('/v1/bins/:bin_id/stream', {
    config: { area: 'webhook' },
    schema: {
      summary: 'Live stream of captures (Server-Sent Events)',
      description:
        'Answers `text/event-stream`. Each capture arrives as one `request` event whose `data` is the request summary ' +
        '(the list item) as JSON, in capture order, across every server instance sharing the store. A `: heartbeat` ' +
        'comment is sent every 15 s. The stream ends when the bin is deleted or expires and ' +
        'when the server shuts down, after an `end` event whose data is `{"reason": "bin_deleted" | "bin_expired" | ' +
        '"server_shutdown"}`. Needs the key that owns the bin.',
      params: binIdParams,
      response: {
        200: {
          description: 'An open event stream.',
          content: { 'text/event-stream': { schema: { type: 'string', examples: ['event: request\ndata: {"request_id":"req_0VbrioQK7hJ2kLm9Np0Qr3StUvWxYz"}\n\n'] } } },
        },
        ...errorResponses('not_found'),
      },
    },
  }, async (request, reply) => {
    const { bin_id: binId } = request.params as { bin_id: string };
    await findOwnedBin(store, binId, callerKeyId(request), now());
    // HEAD: the stream's headers, at once, and no stream.
    if (request.method === 'HEAD') return reply.code(200).headers(SSE_HEADERS).send();
    const res = reply.raw;
    let ended = false;
    let heartbeat: NodeJS.Timeout | undefined;

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
  });
}
