import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { AppContext } from '../../context.js';
import { DevutilError } from '../../errors.js';
import { readBody } from '../../http/request-body.js';
import { errorResponses } from '../../http/schemas.js';
import { andThen } from '../../maybe-promise.js';
import type { MockRecord } from '../../storage/types.js';
import { servedBody } from './mock-wire.js';

/** Sent on every serving response, errors included; a mock's own headers cannot replace them. */
const FIXED_HEADERS = { 'x-content-type-options': 'nosniff', 'content-security-policy': 'sandbox' };
const DOCUMENTED_METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
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

const DESCRIPTION = `No key needed: the mock id is the capability. Answers every method (unless the mock sets \`method\`:
others get 405 with \`Allow\`; a GET mock also answers HEAD) at the base path and every sub-path (unless the mock sets
\`path\`: other sub-paths get 404). Any request body and content type is accepted and ignored (up to MAX_BODY_BYTES).

The response has the configured status, headers, content type (\`content_type\` wins over a \`content-type\` header) and
body (\`body\`, else \`response_body\` JSON-encoded), plus \`X-Mock-Id\`, \`Access-Control-Allow-Origin: *\` (a custom
header may replace it) and, always, \`X-Content-Type-Options: nosniff\` and \`Content-Security-Policy: sandbox\`.
HEAD, 204 and 304 carry no body.

Informational \`status_code\` 100-199: a 1xx cannot be a final answer (a client would wait forever for the real one),
so the mock first sends the informational response when it is one Node sends safely to an HTTP/1.1 client
(100 Continue, 102 Processing, 103 Early Hints when the mock has a \`Link\` header), then a final **200** with the configured headers and
body and \`X-Mock-Status\` set to the configured code. 101 (which would switch protocols) and the other 1xx codes get
only that final 200.

\`delay_ms\` is a timer: it blocks no other request, and when the client disconnects during the delay the timer is
cleared, nothing is sent and the request is not counted. \`hit_count\` is incremented just before each response is
sent, so it is exact as soon as the response arrives. Unknown, deleted and expired mocks answer 404.`;

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

function sendMock(request: FastifyRequest, reply: FastifyReply, mock: MockRecord, encodedBody: (mock: MockRecord) => Buffer): FastifyReply {
  let status = mock.statusCode;
  if (status < 200) {
    const interim = INTERIM_WRITERS[status];
    if (interim && request.raw.httpVersion === '1.1' && request.raw.socket?.writable) interim(reply.raw, mock);
    reply.header('x-mock-status', String(status));
    status = 200;
  }
  reply.status(status);
  if (!('access-control-allow-origin' in mock.headers)) reply.header('access-control-allow-origin', '*');
  // Straight onto the response, whose header map has no prototype: a header named `__proto__` is sent too.
  for (const [name, value] of Object.entries(mock.headers)) if (name !== 'content-type') reply.raw.setHeader(name, value);
  reply.header('content-type', mock.contentType);
  reply.header('x-mock-id', mock.id);
  reply.headers(FIXED_HEADERS);
  if (BODYLESS_STATUSES.has(status)) return reply.send();
  // A Buffer keeps the content type exactly as configured (a string would get "; charset=utf-8").
  return reply.send(encodedBody(mock));
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

/**
 * `ANY /v1/mock/{mock_id}[/sub/path]` (public) in its own plugin scope with a raw catch-all
 * body parser, so any body and content type is accepted and ignored.
 */
export default async function mockServeRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { store, now, config } = ctx;
  // CONNECT never reaches a route: Node hands it to the server's 'connect' event.
  const methods = app.supportedMethods.filter((m) => m !== 'CONNECT') as HTTPMethods[];

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (request, payload, done) => readBody(request.headers, payload, config.maxBodyBytes, (err) => done(err, undefined)));
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(FIXED_HEADERS);
    // An unparseable content type would get 415; a mock ignores the body, whatever its type.
    delete request.headers['content-type'];
    done();
  });

  const encodedBody = bodyEncoder();
  /** Count the hit (committed before the answer leaves), then answer. */
  const hitAndSend = (request: FastifyRequest, reply: FastifyReply, mock: MockRecord) =>
    store.mocks.recordMockHit(mock.id, now()).then((count) => {
      if (count === null) throw new DevutilError('not_found', `No mock ${mock.id}.`);
      return sendMock(request, reply, mock, encodedBody);
    });

  // Not async: a mock the store holds in memory is found without a promise; only the hit is awaited.
  function serve(request: FastifyRequest, reply: FastifyReply) {
    const { mock_id: mockId } = request.params as { mock_id: string };
    return andThen(store.mocks.getMock(mockId, now()), (mock) => {
      if (!mock || !matchesPath(mock, request.raw.url ?? request.url)) throw new DevutilError('not_found', `No mock at ${request.url.split('?')[0]}.`);
      const allowed = allowedMethods(mock);
      if (allowed && !allowed.includes(request.method)) {
        throw new DevutilError('method_not_allowed', `This mock answers ${allowed.join(', ')} only.`, { headers: { allow: allowed.join(', ') } });
      }
      if (mock.delayMs === 0) return hitAndSend(request, reply, mock);
      return waitUnlessGone(reply.raw, mock.delayMs).then((stillThere) => {
        if (stillThere) return hitAndSend(request, reply, mock);
        // The client is gone: nothing to send, nothing counted.
        reply.hijack();
        return undefined;
      });
    });
  }

  const schema = {
    summary: 'Serve a mock',
    description: DESCRIPTION,
    tags: ['webhook'],
    response: {
      200: {
        description: "The mock's configured status (a 1xx is answered with 200, see above), headers, content type and body.",
        type: 'string',
        examples: ['{"status":"paid"}'],
      },
      ...errorResponses('not_found', 'method_not_allowed', 'payload_too_large', 'internal_error'),
    },
  };
  // OpenAPI knows only the standard methods: other methods and sub-paths are the same operation, hidden.
  const standard = methods.filter((m) => DOCUMENTED_METHODS.includes(m));
  const extension = methods.filter((m) => !DOCUMENTED_METHODS.includes(m));
  const hidden = { ...schema, hide: true };
  const bodyLimit = config.maxBodyBytes;
  app.route({ method: standard, url: '/v1/mock/:mock_id', config: { area: 'public' }, bodyLimit, schema, handler: serve });
  app.route({ method: extension, url: '/v1/mock/:mock_id', config: { area: 'public' }, bodyLimit, schema: hidden, handler: serve });
  app.route({ method: methods, url: '/v1/mock/:mock_id/*', config: { area: 'public' }, bodyLimit, schema: hidden, handler: serve });
}
