import { IncomingMessage, type IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { DevutilError } from '../errors.js';

type BodyDone = (err: Error | null, body?: Buffer) => void;

interface Collector {
  limit: number;
  chunks: Buffer[];
  length: number;
  done: BodyDone;
}

const tooLarge = (limit: number) => new DevutilError('payload_too_large', `The request body is larger than the limit of ${limit} bytes.`);

/**
 * The server's request class: it can hand the whole body to one callback, without the readable
 * stream machinery (flowing mode, per-chunk events, the deferred 'end') that costs a small JSON
 * request more than parsing it. Node's HTTP parser feeds a request's body through `push()`, called
 * synchronously while it parses the socket's bytes; once {@link collectBody} has been called,
 * those chunks go to the collector instead of the stream's buffer. A request nobody collects is
 * an ordinary IncomingMessage (the catch, mock and SSE routes, and `inject()` requests, use that).
 *
 * Bodies still go through Node's parser: Content-Length framing, chunked decoding, the header and
 * request timeouts and aborted connections behave as for any request.
 */
export class CollectingIncomingMessage extends IncomingMessage {
  #collector: Collector | null = null;
  /** Something reached the stream before a collector asked for it: it must be read as a stream. */
  #streamed = false;
  /** The rest of a body over the limit is dropped (the connection closes after the 413). */
  #discarding = false;

  /**
   * Hand the body, once complete, to `done` (a Buffer, a copy owned by the caller); a 413
   * `payload_too_large` as soon as it passes `limit` bytes; a 400 when the client goes away first.
   * Returns false, and does nothing, when the body has already started to flow into the stream
   * (an earlier asynchronous hook let the parser run on): read the stream then.
   */
  collectBody(limit: number, done: BodyDone): boolean {
    if (this.#streamed || this.#collector !== null || this.#discarding || this.destroyed) return false;
    this.#collector = { limit, chunks: [], length: 0, done };
    return true;
  }

  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    if (this.#discarding) return chunk === null ? super.push(null) : true;
    const collector = this.#collector;
    if (collector === null) {
      this.#streamed = true;
      return super.push(chunk, encoding);
    }
    if (chunk === null) {
      this.#collector = null;
      super.push(null);
      const { chunks, length } = collector;
      collector.done(null, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length));
      return false;
    }
    const buffer = chunk as Buffer;
    collector.length += buffer.length;
    if (collector.length > collector.limit) {
      this.#collector = null;
      this.#discarding = true;
      collector.done(tooLarge(collector.limit));
      return true;
    }
    collector.chunks.push(buffer);
    return true;
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    const collector = this.#collector;
    if (collector !== null) {
      this.#collector = null;
      collector.done(new DevutilError('bad_request', 'The connection closed before the request body was complete.', { cause: err ?? undefined }));
    }
    super._destroy(err, callback);
  }
}

/**
 * Read a whole request body into one Buffer, at most `limit` bytes: 413 when a Content-Length
 * over the limit is declared or more arrives, 400 when the stream fails or its length does not
 * match Content-Length. Uses {@link CollectingIncomingMessage.collectBody} when it can, the
 * stream otherwise (`inject()`, a body that started flowing earlier).
 *
 * @example
 *   app.addContentTypeParser('*', (request, payload, done) => readBody(request.headers, payload, 1024, done));
 */
export function readBody(headers: IncomingHttpHeaders, payload: Readable, limit: number, done: BodyDone): void {
  const declared = Number(headers['content-length']);
  if (declared > limit) {
    payload.resume();
    return done(tooLarge(limit));
  }
  if (payload instanceof CollectingIncomingMessage && payload.collectBody(limit, done)) return;
  streamBody(payload, limit, declared, done);
}

function streamBody(payload: Readable, limit: number, declared: number, done: BodyDone): void {
  const chunks: Buffer[] = [];
  let length = 0;
  const finish = (err: Error | null, body?: Buffer) => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
    done(err, body);
  };
  const onData = (chunk: Buffer | string) => {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    length += buffer.length;
    if (length > limit) {
      finish(tooLarge(limit));
      payload.resume();
      return;
    }
    chunks.push(buffer);
  };
  const onEnd = () => {
    if (!Number.isNaN(declared) && declared !== length) return finish(new DevutilError('bad_request', 'Content-Length does not match the body.'));
    finish(null, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length));
  };
  const onError = (err: Error) => finish(new DevutilError('bad_request', `The request body could not be read: ${err.message}`, { cause: err }));
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.resume();
}
