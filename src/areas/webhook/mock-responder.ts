import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.js';
import { DevutilError } from '../../errors.js';
import { sendRawError } from '../../http/raw-response.js';
import { andThen } from '../../maybe-promise.js';
import type { MockRecord } from '../../storage/types.js';
import { servedBody } from './mock-wire.js';

/** Sent on every serving response, errors included; a mock's own headers cannot replace them. */
export const FIXED_HEADERS = { 'x-content-type-options': 'nosniff', 'content-security-policy': 'sandbox' };
const BODYLESS_STATUSES = new Set([204, 304]);

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

/**
 * The UTF-8 bytes of served bodies, kept per mock while its body text stays the same (bodies up to
 * 8 KiB, the last 1000 mocks served: 8 MiB at most), so a hit does not encode the body again.
 * The Buffer is never written to, so one serves every hit.
 */
function bodyEncoder(): (mock: MockRecord) => Buffer {
  const kept = new Map<string, { text: string; bytes: Buffer }>();
  return (mock) => {
    const text = servedBody(mock);
    const entry = kept.get(mock.id);
    if (entry && entry.text === text) return entry.bytes;
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length <= 8 * 1024) {
      if (kept.size >= 1000) kept.delete(kept.keys().next().value!);
      kept.set(mock.id, { text, bytes });
    }
    return bytes;
  };
}

/** The configured answer: interim 1xx if any, status, the mock's headers, then the fixed ones (which win). */
function writeMock({ req, res, requestId }: MockExchange, mock: MockRecord, encodedBody: (mock: MockRecord) => Buffer): void {
  let status = mock.statusCode;
  if (status < 200) {
    const interim = INTERIM_WRITERS[status];
    if (interim && req.httpVersion === '1.1' && req.socket?.writable) interim(res, mock);
    status = 200;
  }
  // Straight onto the response, whose header map has no prototype: a header named `__proto__` is sent too.
  for (const [name, value] of Object.entries(mock.headers)) if (name !== 'content-type') res.setHeader(name, value);
  if (status !== mock.statusCode) res.setHeader('x-mock-status', String(mock.statusCode));
  if (!Object.hasOwn(mock.headers, 'access-control-allow-origin')) res.setHeader('access-control-allow-origin', '*');
  res.setHeader('content-type', mock.contentType);
  res.setHeader('x-mock-id', mock.id);
  res.setHeader('x-request-id', requestId);
  for (const [name, value] of Object.entries(FIXED_HEADERS)) res.setHeader(name, value);
  if (BODYLESS_STATUSES.has(status)) {
    res.writeHead(status);
    res.end();
    return;
  }
  // HEAD: Node sends the headers (Content-Length included) and drops the body.
  const body = encodedBody(mock);
  res.setHeader('content-length', body.length);
  res.writeHead(status);
  res.end(body);
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
  const encodedBody = bodyEncoder();

  // A store counting in memory answers the hit at once, and the answer leaves in the same turn.
  const hitAndWrite = (exchange: MockExchange, mock: MockRecord) =>
    andThen(store.mocks.recordMockHit(mock.id, now()), (count) => {
      if (count === null) throw new DevutilError('not_found', `No mock ${mock.id}.`);
      writeMock(exchange, mock, encodedBody);
    });

  const respond = (exchange: MockExchange, mock: MockRecord | null): Promise<void> | void => {
    const { req, res } = exchange;
    const url = req.url ?? '/';
    if (!mock || !matchesPath(mock, url)) throw new DevutilError('not_found', `No mock at ${url.split('?')[0]}.`);
    const allowed = allowedMethods(mock);
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
