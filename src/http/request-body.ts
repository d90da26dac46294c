import type { IncomingMessage } from 'node:http';
import { DevutilError } from '../errors.js';

/**
 * The 413 for a body over `limit` bytes.
 *
 * @example
 *   throw payloadTooLarge(1048576); // 413 payload_too_large, "… the limit of 1048576 bytes."
 */
export function payloadTooLarge(limit: number): DevutilError {
  return new DevutilError('payload_too_large', `The request body is larger than the limit of ${limit} bytes.`);
}

/**
 * The whole body of a request whose method Fastify reads no body for (GET, HEAD, TRACE), at most
 * `limit` bytes: 413 when a Content-Length over the limit is declared or more arrives, 400 when the
 * client goes away first or the length does not match Content-Length. The rest of a refused body
 * is left unread: answer with `Connection: close`, as Fastify does for its own parsers.
 *
 * @example
 *   const body = await readRequestBody(request.raw, config.maxBodyBytes);
 */
export function readRequestBody(req: IncomingMessage, limit: number): Promise<Buffer> {
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
    const onEnd = () => finish(!Number.isNaN(declared) && declared !== length ? new DevutilError('bad_request', 'Content-Length does not match the body.') : null);
    const onError = (err: Error) => finish(new DevutilError('bad_request', `The request body could not be read: ${err.message}`, { cause: err }));
    const onClose = () => finish(new DevutilError('bad_request', 'The connection closed before the request body was complete.'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
