import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { DevutilError, errorBody, type ErrorCode } from '../errors.js';

/** Node's parser errors that have their own status; any other is a malformed request (400). */
const PARSER_ERRORS: Record<string, { code: ErrorCode; detail: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'request_timeout', detail: 'The request headers or body did not arrive in time.' },
  HPE_HEADER_OVERFLOW: { code: 'headers_too_large', detail: 'The request headers are larger than the limit (16 KiB).' },
};
const MALFORMED = { code: 'bad_request' as const, detail: 'The request is not valid HTTP/1.1 (request line or headers malformed).' };
/** A raw byte above 0x7F in the request target (`curl "…?city=Zürich"`): HTTP allows only ASCII there. */
const RAW_BYTES = {
  query: {
    code: 'bad_request' as const,
    detail:
      "The query string must be percent-encoded: use curl -G --data-urlencode 'city=Zürich' URL (it held a raw non-ASCII byte, which HTTP does not allow in a request line).",
  },
  path: {
    code: 'bad_request' as const,
    detail:
      'The path must be percent-encoded (e.g. /Z%C3%BCrich for /Zürich): it held a raw non-ASCII byte, which HTTP does not allow in a request line.',
  },
};

/**
 * Which part of a refused request target holds a raw non-ASCII byte, from the parser's own
 * account (`rawPacket`, and `bytesParsed`, the offset of the byte it stopped at), or undefined.
 */
function findRawByte(err: Error & { code?: string; rawPacket?: unknown; bytesParsed?: unknown }): 'query' | 'path' | undefined {
  const packet = err.rawPacket;
  const at = err.bytesParsed;
  if (err.code !== 'HPE_INVALID_URL' || !Buffer.isBuffer(packet) || typeof at !== 'number' || (packet[at] ?? 0) < 0x80) return undefined;
  // The packet may hold earlier pipelined requests: the refused line starts after the last line feed.
  const line = packet.subarray(packet.lastIndexOf(0x0a, at) + 1, at);
  return line.includes(0x3f /* ? */) ? 'query' : 'path';
}

/** Whether an answer written now would land inside a response, or ahead of one, on this connection. */
function responseUnderWay(latest: ServerResponse | undefined): boolean {
  if (latest === undefined || latest.writableFinished) return false;
  // Started, or (no socket yet) queued behind an earlier pipelined response that is still going.
  return latest.headersSent || latest.socket === null;
}

/** Fastify's `clientErrorHandler`, and `follow`, told of every request the server takes. */
export interface ClientErrorAnswers {
  handler: (err: Error & { code?: string }, socket: Socket) => void;
  /** Note `response` as its connection's latest (the app's onRequest hook calls it for every request). */
  follow: (socket: Socket, response: ServerResponse) => void;
}

/**
 * Answer a request Node's HTTP parser refused (malformed request line or headers, headers too
 * large, too slow) on the raw socket, before any route sees it: the CONTRACT §0 error body with an
 * `X-Request-Id`, then the connection is closed. Fastify's own answer had another body and no id.
 * A query or path holding raw non-ASCII bytes gets a detail saying to percent-encode it. When a
 * response is under way on the connection (a stream, a pipelined answer), the connection is
 * closed without an answer, as Node's own handler does.
 *
 * @example
 *   const clientErrors = createClientErrorAnswers(() => 'r-1');
 *   const app = Fastify({ clientErrorHandler: clientErrors.handler });
 *   app.addHook('onRequest', (request, reply, done) => (clientErrors.follow(request.raw.socket, reply.raw), done()));
 */
export function createClientErrorAnswers(nextRequestId: () => string): ClientErrorAnswers {
  const latestResponse = new WeakMap<Socket, ServerResponse>();
  return {
    follow(socket, response) {
      latestResponse.set(socket, response);
    },
    handler(err, socket) {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      if (responseUnderWay(latestResponse.get(socket))) {
        socket.destroy(err);
        return;
      }
      const rawByte = findRawByte(err);
      const known = rawByte ? RAW_BYTES[rawByte] : (PARSER_ERRORS[err.code ?? ''] ?? MALFORMED);
      const e = new DevutilError(known.code, known.detail);
      const body = JSON.stringify(errorBody(e));
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${nextRequestId()}\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy(err);
    },
  };
}
