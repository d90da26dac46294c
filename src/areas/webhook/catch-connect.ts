import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyBaseLogger } from 'fastify';
import { DevutilError, errorBody } from '../../errors.js';
import { clientAddress } from '../../http/client-address.js';
import { logFailure, payloadTooLarge, toDevutilError } from '../../http/error-handler.js';
import { recordRequest, requestCompletedLog } from '../../http/request-record.js';
import type { Metrics } from '../../ops/metrics.js';
import type { RawCapture } from './catch-capture.js';

export interface CatchConnectOptions {
  /** Store a capture; resolves with its request id once committed, rejects with 404 for an unknown bin. */
  capture: (raw: RawCapture) => Promise<string>;
  requestId: (req: IncomingMessage) => string;
  log: FastifyBaseLogger;
  maxBodyBytes: number;
  /** TRUST_PROXY as configured: false, true, or the trusted proxies (addresses/CIDRs), read as Fastify reads it. */
  trustProxy: boolean | string[];
  /** Headers of every catch answer, errors included. */
  headers: Record<string, string>;
  /** Where every answered CONNECT is counted, as the routes' requests are. */
  metrics: Metrics;
}

/** Answer JSON on the CONNECT's own response, then the connection closes (see {@link catchConnect}). */
function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The CONTRACT §0 error answer, as the app's error handler gives it (5xx logged, never detailed). */
function sendError(res: ServerResponse, err: unknown, headers: Record<string, string>, log: FastifyBaseLogger, reqId: string): void {
  const e = toDevutilError(err);
  logFailure(log, reqId, err, e);
  sendJson(res, e.status, errorBody(e), { ...e.headers, ...headers });
}

/** A client that has not sent the whole body it announced within this long gets 408 (as Node's requestTimeout would answer it). */
const BODY_DEADLINE_MS = 10_000;

/** Once its answer is out, count the CONNECT in the metrics and log its line, as the app's RequestRecorder does for routes. */
function recordWhenAnswered(res: ServerResponse, metrics: Metrics, log: FastifyBaseLogger, reqId: string, route: string): void {
  const start = performance.now();
  res.once('finish', () =>
    recordRequest(metrics, requestCompletedLog(log), {
      reqId,
      method: 'CONNECT',
      route,
      status: res.statusCode,
      ms: performance.now() - start,
    }),
  );
}

/**
 * The bin a CONNECT target names, and the route pattern it is counted under in /metrics: the one
 * Fastify matches for any other method.
 *
 * @example
 *   connectTarget('/v1/catch/bin_x/a?b=1') // { binId: 'bin_x', route: '/v1/catch/:bin_id/*' }
 *   connectTarget('example.test:443') // { binId: null, route: 'unmatched' }
 */
function connectTarget(url: string): { binId: string | null; route: string } {
  const m = /^\/v1\/catch\/([^/?#]+)(\/)?/.exec(url);
  if (!m) return { binId: null, route: 'unmatched' };
  return { binId: m[1]!, route: m[2] ? '/v1/catch/:bin_id/*' : '/v1/catch/:bin_id' };
}

/**
 * The body a CONNECT announces with Content-Length: the bytes after its head (`head`), then the
 * socket's, up to that length. Node stops parsing a CONNECT at its head, so nothing else reads them.
 */
function readConnectBody(req: IncomingMessage, socket: Socket, head: Buffer, limit: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  const expected = declared === undefined ? 0 : Number(declared);
  if (req.headers['transfer-encoding'] !== undefined)
    return Promise.reject(new DevutilError('bad_request', 'A CONNECT body must be sent with Content-Length, not chunked.'));
  if (!Number.isSafeInteger(expected) || expected < 0)
    return Promise.reject(new DevutilError('bad_request', 'Content-Length is not a byte count.'));
  if (expected > limit) return Promise.reject(payloadTooLarge(limit));
  const chunks: Buffer[] = [head.subarray(0, expected)];
  let received = chunks[0]!.length;
  if (received >= expected) return Promise.resolve(chunks[0]!);
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => {
      socket.off('data', onData);
      reject(new DevutilError('request_timeout', `The request body did not arrive within ${BODY_DEADLINE_MS / 1000} s.`));
    }, BODY_DEADLINE_MS);
    const onData = (chunk: Buffer) => {
      const take = chunk.subarray(0, expected - received);
      chunks.push(take);
      received += take.length;
      if (received < expected) return;
      socket.off('data', onData);
      clearTimeout(deadline);
      resolve(Buffer.concat(chunks));
    };
    socket.on('data', onData);
    socket.once('close', () => clearTimeout(deadline));
  });
}

/** The trust function Fastify builds from TRUST_PROXY, for proxy-addr. */
function trustOf(trustProxy: boolean | string[]): ((address: string, hop: number) => boolean) | null {
  if (trustProxy === false) return null;
  return trustProxy === true ? () => true : proxyAddr.compile(trustProxy);
}

/**
 * The server's `'connect'` listener: Node hands a CONNECT request to it, not to a route, and
 * closes the socket unanswered when nobody listens. A CONNECT to a catch path is captured like any
 * other method (its Content-Length body included) and answered with the same 200 and headers, then
 * the connection is closed (no tunnel is opened); any other CONNECT target is a 404.
 *
 * @example
 *   app.server.on('connect', catchConnect({ capture, requestId, log, maxBodyBytes: 1048576, trustProxy: false, headers, metrics }));
 */
export function catchConnect(options: CatchConnectOptions): ConnectListener {
  const trust = trustOf(options.trustProxy);
  const open = new Set<Socket>();
  const answer = async (req: IncomingMessage, socket: Socket, head: Buffer) => {
    // Node takes a CONNECT socket out of the server's connections: no server timeout or close reaches it, so this does.
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    // Closed once the answer is out, whether or not the client closes its side (no half-open socket is kept).
    res.on('finish', () => socket.destroySoon());
    const requestId = options.requestId(req);
    const { binId, route } = connectTarget(req.url ?? '');
    recordWhenAnswered(res, options.metrics, options.log, requestId, route);
    const headers = { ...options.headers, 'x-request-id': requestId };
    try {
      if (binId === null) throw new DevutilError('not_found', `No route CONNECT ${(req.url ?? '').split('?')[0]}.`);
      // As for every other method: the address Fastify's request.ip gives (proxy-addr with TRUST_PROXY), then src/http/client-address.ts.
      const sourceIp = clientAddress({ ip: trust ? proxyAddr(req, trust) : (socket.remoteAddress ?? ''), socket });
      const body = await readConnectBody(req, socket, head, options.maxBodyBytes);
      // Being stored: its answer follows the commit, as any capture's does during a graceful stop.
      open.delete(socket);
      const id = await options.capture({ binId, method: 'CONNECT', url: req.url!, rawHeaders: req.rawHeaders, body, sourceIp });
      sendJson(res, 200, { ok: true, bin_id: binId, request_id: id }, headers);
    } catch (err) {
      sendError(res, err, headers, options.log, requestId);
    }
  };
  const listener = (req: IncomingMessage, duplex: Duplex, head: Buffer) => void answer(req, duplex as Socket, head);
  return Object.assign(listener, { closeAll: () => open.forEach((socket) => socket.destroy()) });
}

/** A `'connect'` listener, and a way to close the sockets still sending their body (at shutdown). */
export type ConnectListener = ((req: IncomingMessage, socket: Duplex, head: Buffer) => void) & { closeAll(): void };

/**
 * The server's `'connect'` listener when no catch path is served (AREAS without webhook): 404 in the
 * contract's shape, then the connection is closed, instead of Node dropping the socket unanswered.
 */
export function connectNotFound(
  requestId: (req: IncomingMessage) => string,
  baseLog: FastifyBaseLogger,
  metrics: Metrics,
): (req: IncomingMessage, socket: Duplex) => void {
  return (req, duplex) => {
    const socket = duplex as Socket;
    socket.on('error', () => socket.destroy());
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    res.on('finish', () => socket.destroySoon());
    const id = requestId(req);
    recordWhenAnswered(res, metrics, baseLog, id, 'unmatched');
    sendError(
      res,
      new DevutilError('not_found', `No route CONNECT ${(req.url ?? '').split('?')[0]}.`),
      { 'x-request-id': id },
      baseLog,
      id,
    );
  };
}
