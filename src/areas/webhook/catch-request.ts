import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { DevutilError } from '../../errors.js';
import { clientAddress } from '../../http/client-address.js';
import { payloadTooLarge } from '../../http/error-handler.js';
import { binChannel } from './bin-actions.js';
import { buildCapture, type RawCapture } from './catch-capture.js';
import { catchConnect } from './catch-connect.js';
import { summaryOf, summaryToWire } from './wire.js';

/**
 * Sent on every catch response, errors included: browsers may post from any origin, and the
 * service's own origin never renders what a stranger sent.
 */
const CATCH_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'x-request-id',
  'x-content-type-options': 'nosniff',
  'content-security-policy': 'sandbox',
};

const EMPTY = Buffer.alloc(0);

/** Whether the request announces a body (Fastify reads none for GET, HEAD and TRACE, so the catch path reads it itself). */
function announcesBody(headers: IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
}

/**
 * The whole body of a request whose method Fastify reads no body for (GET, HEAD, TRACE), at most
 * `limit` bytes: 413 when a Content-Length over the limit is declared or more arrives, 400 when the
 * client goes away first or the length does not match Content-Length. The rest of a refused body
 * is left unread: answer with `Connection: close`, as Fastify does for its own parsers.
 */
function readRequestBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.reject(payloadTooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const finish = (err: DevutilError | null) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (err) reject(err);
      else resolve(Buffer.concat(chunks, length));
    };
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length > limit) return finish(payloadTooLarge(limit));
      chunks.push(chunk);
    };
    const onEnd = () =>
      finish(
        !Number.isNaN(declared) && declared !== length ? new DevutilError('bad_request', 'Content-Length does not match the body.') : null,
      );
    const onError = (err: Error) =>
      finish(new DevutilError('bad_request', `The request body could not be read: ${err.message}`, { cause: err }));
    const onClose = () => finish(new DevutilError('bad_request', 'The connection closed before the request body was complete.'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** A browser's CORS preflight (OPTIONS with Access-Control-Request-Method): its answer lets the real request follow. */
function preflightHeaders(request: FastifyRequest): Record<string, string> | null {
  const asked = request.headers['access-control-request-method'];
  if (request.method !== 'OPTIONS' || asked === undefined) return null;
  return {
    'access-control-allow-methods': asked,
    'access-control-allow-headers': request.headers['access-control-request-headers'] ?? '*',
    'access-control-max-age': '86400',
  };
}

/**
 * Store one capture and return its request id once it is committed; 404 for an unknown bin. The
 * store publishes the live-stream event with the capture itself, so events of captures made
 * through different instances keep the order in which the captures were stored.
 */
async function storeCapture(ctx: AppContext, raw: RawCapture): Promise<string> {
  // The clock goes as a second argument, not as `{ ...raw, now }`: V8 keeps an object made by a spread
  // plus a property past a young-generation GC, so one per capture fills the old generation (bench/README.md).
  const record = buildCapture(raw, ctx.now());
  const announce = { channel: binChannel(raw.binId), message: (id: string) => JSON.stringify(summaryToWire(summaryOf(record, id))) };
  const captured = await ctx.store.bins.captureRequest(record, { maxRequests: ctx.config.binMaxRequests, now: record.timestamp, announce });
  if (captured === null) throw new DevutilError('not_found', `No bin ${raw.binId}.`);
  return captured.id;
}

/** The body to store: the one the raw parser read, or for GET, HEAD and TRACE (which Fastify reads no body for) the one sent anyway. */
async function bodyOf(request: FastifyRequest, reply: FastifyReply, limit: number): Promise<Buffer> {
  if (Buffer.isBuffer(request.body)) return request.body;
  if (!announcesBody(request.headers)) return EMPTY;
  try {
    return await readRequestBody(request.raw, limit);
  } catch (err) {
    // The client may still be sending the rest.
    reply.header('connection', 'close');
    throw err;
  }
}

/**
 * Make a plugin scope the catch path's: the service's JSON-only body parsing is replaced by one raw
 * parser so every body is stored byte for byte, and every answer, errors included, carries the catch
 * headers. CONNECT, which Node hands to the server's 'connect' event rather than to a route, is
 * captured by src/areas/webhook/catch-connect.ts, registered here too.
 *
 * @example
 *   await app.register(async (scope) => {
 *     prepareCatchScope(scope, ctx);
 *     scope.route({ method: 'POST', url: '/v1/catch/:bin_id', config: { area: 'public' }, handler: (req, reply) => captureRequest(ctx, req, reply) });
 *   });
 */
export function prepareCatchScope(scope: FastifyInstance, ctx: AppContext): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  scope.addHook('onRequest', (request, reply, done) => {
    // Errors before the handler (413) carry the catch headers too.
    reply.headers(CATCH_HEADERS);
    // Fastify answers 415 to a content type no parser takes (`Content-Type: garbage`) and 400 to a
    // QUERY without one; a bin captures them anyway. The stored headers come from rawHeaders.
    request.headers['content-type'] = 'application/octet-stream';
    done();
  });
  const connect = catchConnect({
    capture: (raw) => storeCapture(ctx, raw),
    requestId: ctx.requestId,
    log: scope.log,
    maxBodyBytes: ctx.config.maxBodyBytes,
    trustProxy: ctx.config.trustProxy,
    headers: CATCH_HEADERS,
    metrics: ctx.metrics,
  });
  scope.server.on('connect', connect);
  scope.addHook('preClose', async () => connect.closeAll());
}

/**
 * Capture the request sent to a bin (any method, base path or sub-path) and answer once it is
 * durably stored; 404 for an unknown bin. A CORS preflight is captured and answered with what lets
 * the real request follow.
 *
 * @example
 *   scope.route({ method: 'POST', url: '/v1/catch/:bin_id', config: { area: 'public' }, handler: (req, reply) => captureRequest(ctx, req, reply) });
 */
export async function captureRequest(
  ctx: AppContext,
  request: FastifyRequest<{ Params: { bin_id: string } }>,
  reply: FastifyReply,
): Promise<{ ok: true; bin_id: string; request_id: string }> {
  const binId = request.params.bin_id;
  const body = await bodyOf(request, reply, ctx.config.maxBodyBytes);
  const requestId = await storeCapture(ctx, {
    binId,
    method: request.method,
    url: request.originalUrl,
    rawHeaders: request.raw.rawHeaders,
    body,
    sourceIp: clientAddress(request),
  });
  const preflight = preflightHeaders(request);
  if (preflight) reply.headers(preflight);
  return { ok: true, bin_id: binId, request_id: requestId };
}
