import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { DevutilError, errorBody, type ErrorCode } from '../errors.js';

/** Node's parser errors that have their own status; any other is a malformed request (400). */
const PARSER_ERRORS: Record<string, { code: ErrorCode; detail: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'request_timeout', detail: 'The request headers or body did not arrive in time.' },
  HPE_HEADER_OVERFLOW: { code: 'headers_too_large', detail: 'The request headers are larger than the limit (16 KiB).' },
};
const MALFORMED = { code: 'bad_request' as const, detail: 'The request is not valid HTTP/1.1 (request line or headers malformed).' };

/**
 * Answer a request Node's HTTP parser refused (malformed request line or headers, headers too
 * large, too slow) on the raw socket, before any route sees it: the CONTRACT §0 error body with an
 * `X-Request-Id`, then the connection is closed. Fastify's own answer had another body and no id.
 *
 * @example
 *   Fastify({ clientErrorHandler: answerClientError(() => 'r-1') });
 */
export function answerClientError(nextRequestId: () => string): (err: Error & { code?: string }, socket: Socket) => void {
  return (err, socket) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    // A response already under way on this connection (a stream, a pipelined answer): writing an
    // answer now would land inside it; close instead, as Node's own handler does.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (inFlight?.headersSent) {
      socket.destroy(err);
      return;
    }
    const known = PARSER_ERRORS[err.code ?? ''] ?? MALFORMED;
    const e = new DevutilError(known.code, known.detail);
    const body = JSON.stringify(errorBody(e));
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${nextRequestId()}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}
