import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { AppContext } from '../../context.js';
import { DevutilError } from '../../errors.js';
import { clientAddress } from '../../http/client-address.js';
import { paramRoute, undecodableParamRoute } from '../../http/fast-path.js';
import { sendRawError, sendRawJsonText } from '../../http/raw-response.js';
import { readBody } from '../../http/request-body.js';
import { errorResponses } from '../../http/schemas.js';
import { binChannel } from './bin-actions.js';
import { announcesBody, buildCapture } from './catch-capture.js';
import { catchConnect, type ConnectExchange } from './catch-connect.js';
import { summaryOf, summaryToWire } from './wire.js';

/**
 * Sent on every catch response, errors included: browsers may post from any origin, and the
 * service's own origin never renders what a stranger sent.
 */
const CATCH_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'x-request-id',
  'x-content-type-options': 'nosniff',
  'content-security-policy': 'sandbox',
};

const EMPTY = Buffer.alloc(0);
const DOCUMENTED_METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const captureResponse = {
  type: 'object',
  required: ['ok', 'bin_id', 'request_id'],
  properties: { ok: { type: 'boolean', const: true }, bin_id: { type: 'string' }, request_id: { type: 'string' } },
  examples: [{ ok: true, bin_id: 'bin_4fQ9xT2mZk8Lr0aBcDeFgH', request_id: 'req_0VbrioQK7hJ2kLm9Np0Qr3StUvWxYz' }],
} as const;

const DESCRIPTION = `No key needed: the bin id is the capability. Every method is captured (HEAD, OPTIONS and extension
methods such as PURGE or PROPFIND included), at the base path and any sub-path. Stored: method, full path, raw query
string, headers (lower-cased names, repeated ones joined with ", ", Cookie with "; ", Set-Cookie with a line feed; a value
is its UTF-8 text, or \`base64:\` and the bytes in base64 when they are not valid UTF-8), the body's exact bytes whatever its content type
(a body sent with GET is kept too), and the source IP (the first X-Forwarded-For hop only when TRUST_PROXY is set, without
a port a proxy may append; a hop that is not an IP address gives the socket address).
The 200 is sent only once the capture is durably stored. Bodies above MAX_BODY_BYTES (default 1 MiB) get 413 and
nothing is stored. A bin keeps its newest BIN_MAX_REQUESTS (default 1000) requests. Responses carry
Access-Control-Allow-Origin: *, X-Content-Type-Options: nosniff and Content-Security-Policy: sandbox; a CORS preflight
(OPTIONS with Access-Control-Request-Method) is captured and answered with permissive Allow-Methods/Allow-Headers.
HEAD gets the same status and headers without a body. Sub-paths (/v1/catch/{bin_id}/any/path) and
every other method the HTTP parser accepts are captured the same way. Unknown, deleted and expired bins answer 404.
A query string or path holding raw (not percent-encoded) non-ASCII bytes, as \`curl "…?city=Zürich"\` sends it, is not
valid HTTP: the parser refuses it before capture with 400 \`bad_request\` saying to percent-encode it
(\`curl -G --data-urlencode 'city=Zürich' …\` sends \`city=Z%c3%bcrich\`, stored as it is).
A request id is \`req_\` + 22 random base62 characters (131 bits) and a prefix the store uses to find it: on the
default SQLite store, the request's number in its bin in 6 base62 digits (\`req_000001…\` is a bin's first capture;
a bin takes at most 4294967295 captures); on Redis, the capture time (epoch milliseconds, 8 base62 digits).`;

const CATCH_HEADER_LIST = Object.entries(CATCH_HEADERS).flat();

/**
 * The acknowledgement's headers as a flat name/value list: the catch headers, X-Request-Id and, for
 * a browser preflight (OPTIONS with Access-Control-Request-Method), permissive answers so the real
 * request follows.
 */
function ackHeaders(req: IncomingMessage, requestId: string): string[] {
  const list = [...CATCH_HEADER_LIST, 'x-request-id', requestId];
  if (isPreflight(req)) {
    list.push('access-control-allow-methods', req.headers['access-control-request-method']!, 'access-control-allow-headers', req.headers['access-control-request-headers'] ?? '*', 'access-control-max-age', '86400');
  }
  return list;
}

/** A browser's CORS preflight: its answer echoes two of the request's headers. */
const isPreflight = (req: IncomingMessage) => req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;

/** One request to capture: the raw exchange, the bin id, the request's id, logger and source address, and its body when already read. */
type CatchExchange = Omit<ConnectExchange, 'body'> & { body?: Buffer };

/**
 * Capture on the raw request and response: read the body (413 past MAX_BODY_BYTES), store the
 * capture, and only once it is committed answer 200 (404 for an unknown bin). Both the Fastify route
 * and the pre-router fast route call it, so there is one behaviour whichever way a request arrives.
 */
function createCatchResponder(ctx: AppContext): (exchange: CatchExchange) => void {
  const { store, now, config } = ctx;
  const capture = (x: CatchExchange, body: Buffer) => {
    const record = buildCapture({ binId: x.binId, method: x.req.method!, url: x.req.url!, rawHeaders: x.req.rawHeaders, body, sourceIp: x.sourceIp, now: now() });
    // The store publishes the live-stream event with the capture itself, so events of captures made
    // through different instances keep the order in which the captures were stored.
    const announce = { channel: binChannel(x.binId), message: (id: string) => JSON.stringify(summaryToWire(summaryOf({ ...record, id }))) };
    return store.bins.captureRequest(record, { maxRequests: config.binMaxRequests, now: record.timestamp, announce }).then((captured) => {
      if (captured === null) throw new DevutilError('not_found', `No bin ${x.binId}.`);
      // HEAD: Node sends the headers and drops the body.
      // The request id is base62: only the bin id needs escaping.
      // The headers are constants and ids, except a preflight's, which echo the request's: those are checked as usual.
      sendRawJsonText(x.res, 200, `{"ok":true,"bin_id":${JSON.stringify(x.binId)},"request_id":"${captured.id}"}`, ackHeaders(x.req, x.requestId), !isPreflight(x.req));
    });
  };
  return (x) => {
    const fail = (err: unknown) => sendRawError(x.res, err, { ...CATCH_HEADERS, 'x-request-id': x.requestId }, x.log);
    const captureBody = (body: Buffer) => {
      try {
        capture(x, body).catch(fail);
      } catch (err) {
        fail(err);
      }
    };
    if (x.body) return captureBody(x.body);
    // The router reads no body for GET, HEAD and other bodyless methods: a body sent with them is read here.
    if (!announcesBody(x.req.headers)) return captureBody(EMPTY);
    readBody(x.req.headers, x.req, config.maxBodyBytes, (err, body) => (err ? fail(err) : captureBody(body!)));
  };
}

/**
 * `ANY /v1/catch/{bin_id}[/sub/path]` in its own plugin scope: the service's JSON-only body parsing
 * is replaced by one raw parser so every body is stored byte for byte. The same responder also
 * answers from the pre-router fast route (unless TRUST_PROXY is set: the source address then comes
 * from Fastify's proxy handling).
 */
export default async function catchRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { config } = ctx;
  // CONNECT never reaches a route: Node hands it to the server's 'connect' event (src/areas/webhook/catch-connect.ts).
  const methods = app.supportedMethods.filter((m) => m !== 'CONNECT') as HTTPMethods[];

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (request, payload, done) => readBody(request.headers, payload, config.maxBodyBytes, done));
  app.addHook('onRequest', (request, reply, done) => {
    // Errors before the handler (413) carry the catch headers too.
    reply.headers(CATCH_HEADERS);
    // The framework answers 415 to a content type it cannot parse (`Content-Type: garbage`); a bin must
    // capture it anyway. Without the header every body reaches the raw parser; the stored headers come
    // from rawHeaders, which keep it. (Assigned, not deleted, so the headers object keeps its shape.)
    request.headers['content-type'] = undefined;
    done();
  });

  const respond = createCatchResponder(ctx);
  const connect = catchConnect({
    respond, requestId: ctx.requestId, log: app.log, maxBodyBytes: config.maxBodyBytes, trustProxy: config.trustProxy, headers: CATCH_HEADERS,
  });
  app.server.on('connect', connect);
  app.addHook('preClose', async () => connect.closeAll());
  if (config.trustProxy === false) {
    ctx.fastRoutes.push(paramRoute({
      route: '/v1/catch/:bin_id',
      ctx,
      log: app.log,
      accepts: () => true,
      handle: ({ req, res, id, requestId, log }) => respond({ req, res, binId: id, requestId, log, sourceIp: req.socket.remoteAddress ?? '' }),
    }));
  }
  ctx.undecodableUrlRoutes.push(undecodableParamRoute('/v1/catch/', (request, binId, res) =>
    respond({ req: request.raw, res, binId, requestId: request.id, log: request.log, sourceIp: clientAddress(request) })));
  function capture(request: FastifyRequest, reply: FastifyReply) {
    reply.hijack();
    const { bin_id: binId } = request.params as { bin_id: string };
    const body = Buffer.isBuffer(request.body) ? request.body : undefined;
    respond({ req: request.raw, res: reply.raw, binId, requestId: request.id, log: request.log, sourceIp: clientAddress(request), body });
  }

  const schema = {
    summary: 'Capture any request sent to a bin',
    description: DESCRIPTION,
    tags: ['webhook'],
    response: { 200: captureResponse, ...errorResponses('not_found', 'payload_too_large', 'storage_unavailable') },
  };
  // OpenAPI knows only the standard methods: the other methods are the same operations, registered
  // as hidden routes.
  const standard = methods.filter((m) => DOCUMENTED_METHODS.includes(m));
  const extension = methods.filter((m) => !DOCUMENTED_METHODS.includes(m));
  const hidden = { ...schema, hide: true };
  app.route({ method: standard, url: '/v1/catch/:bin_id', config: { area: 'public' }, schema, handler: capture });
  app.route({ method: extension, url: '/v1/catch/:bin_id', config: { area: 'public' }, schema: hidden, handler: capture });
  const subPath = { ...schema, summary: 'Capture any request sent to a sub-path of a bin', description: `${DESCRIPTION}\nThe sub-path (\`*\`, any number of segments) is stored in \`path\` with the rest of the request path.` };
  app.route({ method: standard, url: '/v1/catch/:bin_id/*', config: { area: 'public' }, schema: subPath, handler: capture });
  app.route({ method: extension, url: '/v1/catch/:bin_id/*', config: { area: 'public' }, schema: { ...subPath, hide: true }, handler: capture });
}
