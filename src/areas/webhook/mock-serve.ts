import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { DevutilError } from '../../errors.js';
import { CORS_HEADERS } from '../../http/cors.js';
import type { MockRecord } from '../../storage/types.js';
import { servedBody } from './mock-wire.js';
import { originForm } from './catch-capture.js';

/** Sent on every serving response, errors included; a mock's own headers cannot replace them. */
const FIXED_HEADERS = { 'x-content-type-options': 'nosniff', 'content-security-policy': 'sandbox' };
const BODYLESS_STATUSES = new Set([204, 304]);
/** 205 Reset Content: no content (RFC 9110 §15.3.6), announced as `Content-Length: 0`. */
const EMPTY_CONTENT_STATUS = 205;
const EMPTY = Buffer.alloc(0);

/** Headers the service sets on every serving response; the mock's own header of that name is not sent. */
const SERVICE_HEADERS = new Set(['content-type', 'x-mock-id', 'x-request-id', ...Object.keys(FIXED_HEADERS)]);

/** Interim (1xx) responses Node can send safely before the final one, by configured status. */
const INTERIM_WRITERS: Record<number, (res: ServerResponse, mock: MockRecord) => void> = {
  100: (res) => res.writeContinue(),
  102: (res) => res.writeProcessing(),
  // Node sends Early Hints only with a Link header; without one the mock sends only the final 200.
  103: (res, mock) => {
    if (mock.headers.link) res.writeEarlyHints({ link: mock.headers.link, 'x-mock-id': mock.id });
  },
};

type ServeRequest = FastifyRequest<{ Params: { mock_id: string } }>;

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

/** The part of the URL as sent after `/v1/mock/{mock_id}`, without the query (`""` for the base path). */
function subPathOf(url: string): string {
  const rest = originForm(url).split('?')[0].slice('/v1/mock/'.length);
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

const isPreflight = (request: FastifyRequest) =>
  request.method === 'OPTIONS' && request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined;

/**
 * 204 to a CORS preflight, as Mockoon answers them: the origin the mock allows (its own
 * `access-control-allow-origin`, else `*`), the methods it answers (the asked one when
 * unrestricted), the request headers asked for, a day's max-age; the mock's own
 * `access-control-allow-*` headers win.
 */
function answerPreflight(request: FastifyRequest, reply: FastifyReply, mock: MockRecord, allowed: string[] | null): FastifyReply {
  const own = (name: string) => (Object.hasOwn(mock.headers, name) ? mock.headers[name] : undefined);
  reply.headers({
    'access-control-allow-origin': own('access-control-allow-origin') ?? '*',
    'access-control-allow-methods':
      own('access-control-allow-methods') ?? (allowed ?? [request.headers['access-control-request-method']!]).join(', '),
    'access-control-allow-headers': own('access-control-allow-headers') ?? request.headers['access-control-request-headers'] ?? '*',
    'access-control-max-age': own('access-control-max-age') ?? '86400',
  });
  const credentials = own('access-control-allow-credentials');
  if (credentials) reply.header('access-control-allow-credentials', credentials);
  return reply.code(204).header('x-mock-id', mock.id).send();
}

/**
 * The configured answer: interim 1xx if any (then a final 200 with `X-Mock-Status`), the mock's
 * headers in their order, then the service's, and the body (none for HEAD, 204 and 304; an empty
 * one for 205). The mock's headers go on the response itself, where a name such as `__proto__`
 * is an ordinary header; Node checks every name and value as it does for any response.
 */
function answerMock(request: FastifyRequest, reply: FastifyReply, mock: MockRecord): FastifyReply {
  const interim = mock.statusCode < 200;
  if (interim) {
    const write = INTERIM_WRITERS[mock.statusCode];
    if (write && request.raw.httpVersion === '1.1' && request.socket?.writable) write(reply.raw, mock);
  }
  for (const name of Object.keys(mock.headers)) {
    if (!SERVICE_HEADERS.has(name) && !(interim && name === 'x-mock-status')) reply.raw.setHeader(name, mock.headers[name]!);
  }
  if (!Object.hasOwn(mock.headers, 'access-control-allow-origin')) reply.header('access-control-allow-origin', '*');
  reply.header('content-type', mock.contentType).header('x-mock-id', mock.id);
  if (interim) reply.header('x-mock-status', String(mock.statusCode));
  reply.code(interim ? 200 : mock.statusCode);
  if (BODYLESS_STATUSES.has(mock.statusCode)) return reply.send();
  // Bytes, not text: Fastify would add `; charset=utf-8` to a JSON content type given with a string.
  return reply.send(mock.statusCode === EMPTY_CONTENT_STATUS ? EMPTY : Buffer.from(servedBody(mock), 'utf8'));
}

/**
 * Make a plugin scope the mock serving path's: one raw parser accepts any body and content type (up
 * to the route's body limit) and ignores it, and every answer, errors included, carries the serving
 * headers instead of the API's CORS headers.
 *
 * @example
 *   await app.register(async (scope) => {
 *     prepareMockServeScope(scope);
 *     scope.route({ method: 'GET', url: '/v1/mock/:mock_id', config: { area: 'public' }, handler: (req, reply) => serveMock(ctx, req, reply) });
 *   });
 */
export function prepareMockServeScope(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
  scope.addHook('onRequest', (request, reply, done) => {
    // A mock answers with its own headers: not the API's CORS headers (src/http/cors.ts).
    for (const name of Object.keys(CORS_HEADERS)) reply.removeHeader(name);
    // Errors before the handler (413) carry the serving headers too.
    reply.headers(FIXED_HEADERS);
    // Fastify answers 415 to a content type no parser takes and 400 to a QUERY without one; a mock
    // ignores the body, whatever its type.
    request.headers['content-type'] = 'application/octet-stream';
    done();
  });
}

/**
 * Serve a mock (spec §4.2, CONTRACT §2.5): find it, check its path and method, wait its delay
 * unless the client leaves (then nothing is sent and the hit is not counted), count the hit
 * (before the answer leaves), then answer.
 *
 * @example
 *   scope.route({ method: 'GET', url: '/v1/mock/:mock_id', config: { area: 'public' }, handler: (req, reply) => serveMock(ctx, req, reply) });
 */
export async function serveMock(
  ctx: Pick<AppContext, 'store' | 'now'>,
  request: ServeRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  const { store, now } = ctx;
  const url = request.originalUrl;
  const mock = await store.mocks.getMock(request.params.mock_id, now());
  if (!mock || !matchesPath(mock, url)) throw new DevutilError('not_found', `No mock at ${url.split('?')[0]}.`);
  const allowed = allowedMethods(mock);
  // A browser's CORS preflight is answered for the mock (not counted, not delayed), unless the mock is an OPTIONS mock.
  if (mock.method !== 'OPTIONS' && isPreflight(request)) return answerPreflight(request, reply, mock, allowed);
  if (allowed && !allowed.includes(request.method)) {
    throw new DevutilError('method_not_allowed', `This mock answers ${allowed.join(', ')} only.`, {
      headers: { allow: allowed.join(', ') },
    });
  }
  if (mock.delayMs > 0 && !(await waitUnlessGone(reply.raw, mock.delayMs))) return undefined;
  if ((await store.mocks.recordMockHit(mock.id, now())) === null) throw new DevutilError('not_found', `No mock ${mock.id}.`);
  return answerMock(request, reply, mock);
}
