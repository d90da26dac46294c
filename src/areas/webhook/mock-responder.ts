import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.js';
import { DevutilError } from '../../errors.js';
import { prevalidatedHead, writeHeadPrevalidated, type PrevalidatedHead } from '../../http/prevalidated-head.js';
import { sendRawError } from '../../http/raw-response.js';
import { andThen } from '../../maybe-promise.js';
import type { MockRecord } from '../../storage/types.js';
import { servedBody } from './mock-wire.js';

/** Sent on every serving response, errors included; a mock's own headers cannot replace them. */
export const FIXED_HEADERS = { 'x-content-type-options': 'nosniff', 'content-security-policy': 'sandbox' };
const BODYLESS_STATUSES = new Set([204, 304]);
/** 205 Reset Content: no content (RFC 9110 §15.3.6), announced as `Content-Length: 0`. */
const EMPTY_CONTENT_STATUS = 205;

/** Interim (1xx) responses Node can send safely before the final one, by configured status. */
const INTERIM_WRITERS: Record<number, (res: ServerResponse, mock: MockRecord) => void> = {
  100: (res) => res.writeContinue(),
  102: (res) => res.writeProcessing(),
  // Node sends Early Hints only with a Link header; without one the mock sends only the final 200.
  103: (res, mock) => {
    if (mock.headers.link) res.writeEarlyHints({ link: mock.headers.link, 'x-mock-id': mock.id });
  },
};

/** One request to serve: the raw exchange, the mock id from the URL, and the request's id and logger. */
export interface MockExchange {
  req: IncomingMessage;
  res: ServerResponse;
  mockId: string;
  requestId: string;
  log: FastifyBaseLogger;
}

/** Wait `ms`, unless the client goes away first; resolves false then (the timer is cleared). */
function waitUnlessGone(res: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(true);
    }, ms);
    res.once('close', onClose);
  });
}

/** The part of the raw URL after `/v1/mock/{mock_id}`, without the query (`""` for the base path). */
function subPathOf(url: string): string {
  const rest = url.split('?')[0].slice('/v1/mock/'.length);
  const slash = rest.indexOf('/');
  return slash === -1 ? '' : rest.slice(slash);
}

function matchesPath(mock: MockRecord, url: string): boolean {
  if (mock.path === null) return true;
  const sub = subPathOf(url);
  if (sub === mock.path) return true;
  try {
    return decodeURIComponent(sub) === mock.path;
  } catch {
    return false;
  }
}

function allowedMethods(mock: MockRecord): string[] | null {
  if (mock.method === null) return null;
  return mock.method === 'GET' ? ['GET', 'HEAD'] : [mock.method];
}

/** What a mock serves on every hit: its body and its response headers as name, value pairs. */
interface MockWire {
  /** The body's text when it can go out in one write with the head (see {@link encodeWire}), its UTF-8 bytes otherwise. */
  body: string | Buffer;
  /** The body's length in bytes. */
  length: number;
  /** 204 and 304: no body and no Content-Length. */
  bodyless: boolean;
  /** Never changed once built: each hit copies it and fills in the last value, its X-Request-Id. */
  headers: readonly string[];
  /** The same headers but the last, checked once (null when they cannot be: `writeHead` with the list then checks them). */
  head: PrevalidatedHead | null;
}

/** Headers the service sets on every serving response; the mock's own header of that name is not sent. */
const SERVICE_HEADERS = new Set(['content-type', 'x-mock-id', 'x-request-id', ...Object.keys(FIXED_HEADERS)]);

/**
 * The whole header list of a mock's final answer, for `writeHead` (names are already lower-case):
 * the mock's headers, then the service's, Content-Length unless the status is bodyless, and last
 * `x-request-id` with an empty value that each hit fills in. A 1xx mock is answered with 200 and
 * `X-Mock-Status` (replacing the mock's own header of that name).
 */
function headerList(mock: MockRecord, bodyLength: number, bodyless: boolean): string[] {
  const interim = mock.statusCode < 200;
  const list: string[] = [];
  // `Object.keys` of the null-prototype map: a header named `__proto__` is sent too.
  for (const name of Object.keys(mock.headers)) {
    if (!SERVICE_HEADERS.has(name) && !(interim && name === 'x-mock-status')) list.push(name, mock.headers[name]!);
  }
  if (!Object.hasOwn(mock.headers, 'access-control-allow-origin')) list.push('access-control-allow-origin', '*');
  list.push('content-type', mock.contentType, 'x-mock-id', mock.id);
  for (const [name, value] of Object.entries(FIXED_HEADERS)) list.push(name, value);
  if (interim) list.push('x-mock-status', String(mock.statusCode));
  // HEAD: Node sends the headers (Content-Length included) and drops the body.
  if (!bodyless) list.push('content-length', String(bodyLength));
  list.push('x-request-id', '');
  return list;
}

/** Bodies up to this many bytes may be sent as text (larger ones as bytes, which Node writes without a copy). */
const TEXT_BODY_MAX = 8 * 1024;
/** Wires kept per mock: bodies up to this many bytes, the last {@link KEPT_MOCKS} mocks served. */
const KEPT_BODY_MAX = 8 * 1024;
const KEPT_MOCKS = 1000;
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The wire of `mock` as it is now. Node sends a response's head and a string body as one string
 * in one write, and a Buffer body as a second chunk (a writev): 0.6 µs more a hit, 5% of a small
 * mock's throughput in a bare server. That one string is written in the body's encoding (UTF-8),
 * so a head with a byte above 0x7F (headers may carry Latin-1 text, which Node writes as single
 * bytes) keeps the Buffer body; request ids, filled in per hit, are ASCII.
 */
function encodeWire(mock: MockRecord, configured: string): MockWire {
  const text = mock.statusCode === EMPTY_CONTENT_STATUS ? '' : configured;
  const bytes = Buffer.from(text, 'utf8');
  const bodyless = BODYLESS_STATUSES.has(mock.statusCode);
  const headers = headerList(mock, bytes.length, bodyless);
  const asText = bytes.length <= TEXT_BODY_MAX && !headers.some((part) => NON_ASCII.test(part));
  return { body: asText ? text : bytes, length: bytes.length, bodyless, headers, head: prevalidatedHead(headers.slice(0, -2)) };
}

/**
 * The body bytes and header list of served mocks, kept per mock while its body text, headers,
 * content type and status stay the same (bodies up to 8 KiB, the last 1000 mocks served: 8 MiB at
 * most), so a hit neither encodes the body nor walks the headers again. A patched mock is a new
 * record with a new headers object, which the check by identity catches.
 */
function wireEncoder(): (mock: MockRecord) => MockWire {
  type Kept = MockWire & { text: string; source: MockRecord['headers']; contentType: string; statusCode: number };
  const kept = new Map<string, Kept>();
  return (mock) => {
    const text = servedBody(mock);
    const entry = kept.get(mock.id);
    if (entry && entry.text === text && entry.source === mock.headers && entry.contentType === mock.contentType && entry.statusCode === mock.statusCode) {
      return entry;
    }
    const wire = encodeWire(mock, text);
    if (wire.length <= KEPT_BODY_MAX) {
      if (kept.size >= KEPT_MOCKS && !entry) kept.delete(kept.keys().next().value!);
      kept.set(mock.id, { ...wire, text, source: mock.headers, contentType: mock.contentType, statusCode: mock.statusCode });
    }
    return wire;
  };
}

/**
 * The configured answer: interim 1xx if any, then the final status with the wire's headers and this
 * request's id: its checked head when it has one, else `writeHead` with the list (its last value
 * set to the id).
 */
function writeMock({ req, res, requestId }: MockExchange, mock: MockRecord, wire: MockWire): void {
  let status = mock.statusCode;
  if (status < 200) {
    const interim = INTERIM_WRITERS[status];
    if (interim && req.httpVersion === '1.1' && req.socket?.writable) interim(res, mock);
    status = 200;
  }
  if (wire.head === null || !writeHeadPrevalidated(res, status, wire.head, requestId)) {
    const headers = wire.headers.slice();
    headers[headers.length - 1] = requestId;
    res.writeHead(status, headers);
  }
  if (wire.bodyless) res.end();
  else res.end(wire.body);
}

const isPreflight = (req: IncomingMessage) => req.method === 'OPTIONS' && req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined;

/**
 * 204 to a CORS preflight, as Mockoon answers them: the origin the mock allows (its own
 * `access-control-allow-origin`, else `*`), the methods it answers (the asked one when
 * unrestricted), the request headers asked for, a day's max-age; the mock's own
 * `access-control-allow-*` headers win.
 */
function answerPreflight({ req, res, requestId }: MockExchange, mock: MockRecord, allowed: string[] | null): void {
  const own = (name: string) => (Object.hasOwn(mock.headers, name) ? mock.headers[name] : undefined);
  res.writeHead(204, {
    'access-control-allow-origin': own('access-control-allow-origin') ?? '*',
    'access-control-allow-methods': own('access-control-allow-methods') ?? (allowed ?? [req.headers['access-control-request-method']!]).join(', '),
    'access-control-allow-headers': own('access-control-allow-headers') ?? req.headers['access-control-request-headers'] ?? '*',
    'access-control-max-age': own('access-control-max-age') ?? '86400',
    ...(own('access-control-allow-credentials') ? { 'access-control-allow-credentials': own('access-control-allow-credentials')! } : {}),
    ...FIXED_HEADERS,
    'x-mock-id': mock.id,
    'x-request-id': requestId,
  });
  res.end();
}

/**
 * Mock serving on the raw request and response (spec §4.2, CONTRACT §2.5): find the mock, check
 * its path and method, wait its delay unless the client leaves, count the hit (counted before
 * the answer leaves), then answer. Both the Fastify route and the pre-router fast route call it,
 * so there is one behaviour whichever way a request arrives.
 *
 * @example
 *   const serve = createMockResponder(ctx);
 *   serve({ req, res, mockId: 'mock_8kLm2NpQr5StUvWxYz0aBc', requestId: 'r-1', log });
 */
export function createMockResponder(ctx: AppContext): (exchange: MockExchange) => void {
  const { store, now } = ctx;
  const encoded = wireEncoder();

  // A store counting in memory answers the hit at once, and the answer leaves in the same turn.
  const hitAndWrite = (exchange: MockExchange, mock: MockRecord) =>
    andThen(store.mocks.recordMockHit(mock.id, now()), (count) => {
      if (count === null) throw new DevutilError('not_found', `No mock ${mock.id}.`);
      writeMock(exchange, mock, encoded(mock));
    });

  const respond = (exchange: MockExchange, mock: MockRecord | null): Promise<void> | void => {
    const { req, res } = exchange;
    const url = req.url ?? '/';
    if (!mock || !matchesPath(mock, url)) throw new DevutilError('not_found', `No mock at ${url.split('?')[0]}.`);
    const allowed = allowedMethods(mock);
    // A browser's CORS preflight is answered for the mock (not counted, not delayed), unless the mock is an OPTIONS mock.
    if (mock.method !== 'OPTIONS' && isPreflight(req)) return answerPreflight(exchange, mock, allowed);
    if (allowed && !allowed.includes(req.method ?? '')) {
      throw new DevutilError('method_not_allowed', `This mock answers ${allowed.join(', ')} only.`, { headers: { allow: allowed.join(', ') } });
    }
    if (mock.delayMs === 0) return hitAndWrite(exchange, mock);
    // The client gone during the delay: nothing to send, nothing counted.
    return waitUnlessGone(res, mock.delayMs).then((stillThere) => (stillThere ? hitAndWrite(exchange, mock) : undefined));
  };

  return (exchange) => {
    const fail = (err: unknown) => sendRawError(exchange.res, err, { 'x-request-id': exchange.requestId, ...FIXED_HEADERS }, exchange.log);
    try {
      // A mock the store holds in memory is found without a promise; only the hit is awaited.
      const done = andThen(store.mocks.getMock(exchange.mockId, now()), (mock) => respond(exchange, mock));
      if (done) done.catch(fail);
    } catch (err) {
      fail(err);
    }
  };
}
