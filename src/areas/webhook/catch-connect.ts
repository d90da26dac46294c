import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { DevutilError } from '../../errors.js';
import { clientAddress } from '../../http/client-address.js';
import { sendRawError } from '../../http/raw-response.js';
import { lazyRequestLogger } from '../../http/request-logger.js';

/** One CONNECT request to capture: what the catch responder needs, its body already read. */
export interface ConnectExchange {
  req: IncomingMessage;
  res: ServerResponse;
  binId: string;
  requestId: string;
  log: FastifyBaseLogger;
  sourceIp: string;
  body: Buffer;
}

export interface CatchConnectOptions {
  respond: (exchange: ConnectExchange) => void;
  requestId: (req: IncomingMessage) => string;
  log: FastifyBaseLogger;
  maxBodyBytes: number;
  /** TRUST_PROXY=true: the source address is the first X-Forwarded-For hop (with a list of proxies the socket's address is kept: CONNECT is not worth checking the list for). */
  trustProxy: boolean;
  /** Headers of every catch answer, errors included. */
  headers: Record<string, string>;
}

/** A client that sends less body than it announced is let go after this long. */
const BODY_IDLE_MS = 10_000;

/** The bin id of `/v1/catch/{bin_id}[/…][?…]`, or null for any other target. */
export function connectBinId(url: string): string | null {
  const m = /^\/v1\/catch\/([^/?#]+)/.exec(url);
  return m ? m[1]! : null;
}

/**
 * The body a CONNECT announces with Content-Length: the bytes after its head (`head`), then the
 * socket's, up to that length. Node stops parsing a CONNECT at its head, so nothing else reads them.
 */
function readConnectBody(req: IncomingMessage, socket: Socket, head: Buffer, limit: number, done: (err: DevutilError | null, body?: Buffer) => void): void {
  const declared = req.headers['content-length'];
  const expected = declared === undefined ? 0 : Number(declared);
  if (req.headers['transfer-encoding'] !== undefined) return done(new DevutilError('bad_request', 'A CONNECT body must be sent with Content-Length, not chunked.'));
  if (!Number.isSafeInteger(expected) || expected < 0) return done(new DevutilError('bad_request', 'Content-Length is not a byte count.'));
  if (expected > limit) return done(new DevutilError('payload_too_large', `The request body is larger than the limit of ${limit} bytes.`));
  const chunks: Buffer[] = [head.subarray(0, expected)];
  let received = chunks[0]!.length;
  if (received >= expected) return done(null, chunks[0]);
  socket.setTimeout(BODY_IDLE_MS, () => socket.destroy());
  const onData = (chunk: Buffer) => {
    const take = chunk.subarray(0, expected - received);
    chunks.push(take);
    received += take.length;
    if (received < expected) return;
    socket.off('data', onData);
    socket.setTimeout(0);
    done(null, Buffer.concat(chunks));
  };
  socket.on('data', onData);
}

/**
 * The server's `'connect'` listener: Node hands a CONNECT request to it, not to a route, and
 * closes the socket unanswered when nobody listens. A CONNECT to a catch path is captured like any
 * other method (its Content-Length body included) and answered with the same 200 and headers, then
 * the connection is closed (no tunnel is opened); any other CONNECT target is a 404.
 *
 * @example
 *   app.server.on('connect', catchConnect({ respond, requestId, log, maxBodyBytes: 1048576, trustProxy: false, headers }));
 */
export function catchConnect(options: CatchConnectOptions): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, duplex, head) => {
    const socket = duplex as Socket;
    socket.on('error', () => socket.destroy());
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    res.on('finish', () => socket.end());
    const requestId = options.requestId(req);
    const log = lazyRequestLogger(options.log, { reqId: requestId });
    const headers = { ...options.headers, 'x-request-id': requestId };
    const binId = connectBinId(req.url ?? '');
    if (binId === null) return sendRawError(res, new DevutilError('not_found', `No route CONNECT ${(req.url ?? '').split('?')[0]}.`), headers, log);
    // As for every other method (src/http/client-address.ts): the first X-Forwarded-For hop when TRUST_PROXY is set and it is an address.
    const firstHop = options.trustProxy ? String(req.headers['x-forwarded-for'] ?? '').split(',')[0]!.trim() : undefined;
    const sourceIp = clientAddress({ ip: firstHop || socket.remoteAddress || '', socket });
    readConnectBody(req, socket, head, options.maxBodyBytes, (err, body) => {
      if (err) return sendRawError(res, err, headers, log);
      options.respond({ req, res, binId, requestId, log, sourceIp, body: body! });
    });
  };
}
