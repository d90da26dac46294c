import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { AppContext } from '../../context.js';
import { DevutilError } from '../../errors.js';
import { clientAddress } from '../../http/client-address.js';
import { errorResponses } from '../../http/schemas.js';
import { binChannel } from './bin-actions.js';
import { announcesBody, buildCapture, readRequestBody, type RawCapture } from './catch-capture.js';
import { catchConnect } from './catch-connect.js';
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

/** A browser's CORS preflight (OPTIONS with Access-Control-Request-Method): its answer lets the real request follow. */
function preflightHeaders(request: FastifyRequest): Record<string, string> | null {
  const asked = request.headers['access-control-request-method'];
  if (request.method !== 'OPTIONS' || asked === undefined) return null;
  return {
    'access-control-allow-methods': asked,
    'access-control-allow-headers': request.headers['access-control-request-headers'] ?? '*',
    'access-control-max-age': '86400',
  };
}

/**
 * Store one capture and return its request id once it is committed; 404 for an unknown bin. The
 * store publishes the live-stream event with the capture itself, so events of captures made
 * through different instances keep the order in which the captures were stored.
 */
async function storeCapture(ctx: AppContext, raw: Omit<RawCapture, 'now'>): Promise<string> {
  const record = buildCapture({ ...raw, now: ctx.now() });
  const announce = { channel: binChannel(raw.binId), message: (id: string) => JSON.stringify(summaryToWire(summaryOf({ ...record, id }))) };
  const captured = await ctx.store.bins.captureRequest(record, { maxRequests: ctx.config.binMaxRequests, now: record.timestamp, announce });
  if (captured === null) throw new DevutilError('not_found', `No bin ${raw.binId}.`);
  return captured.id;
}

/** The body to store: the one the raw parser read, or for GET, HEAD and TRACE (which Fastify reads no body for) the one sent anyway. */
async function bodyOf(request: FastifyRequest, reply: FastifyReply, limit: number): Promise<Buffer> {
  if (Buffer.isBuffer(request.body)) return request.body;
  if (!announcesBody(request.headers)) return EMPTY;
  try {
    return await readRequestBody(request.raw, limit);
  } catch (err) {
    // The client may still be sending the rest.
    reply.header('connection', 'close');
    throw err;
  }
}

/**
 * `ANY /v1/catch/{bin_id}[/sub/path]` in its own plugin scope: the service's JSON-only body parsing
 * is replaced by one raw parser so every body is stored byte for byte, and the answer (200 once the
 * capture is committed) and its errors carry the catch headers. CONNECT, which Node hands to the
 * server's 'connect' event rather than to a route, is captured in src/areas/webhook/catch-connect.ts.
 */
export default async function catchRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const limit = ctx.config.maxBodyBytes;
  const methods = app.supportedMethods.filter((m) => m !== 'CONNECT') as HTTPMethods[];

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.addHook('onRequest', (request, reply, done) => {
    // Errors before the handler (413) carry the catch headers too.
    reply.headers(CATCH_HEADERS);
    // Fastify answers 415 to a content type no parser takes (`Content-Type: garbage`) and 400 to a
    // QUERY without one; a bin captures them anyway. The stored headers come from rawHeaders.
    request.headers['content-type'] = 'application/octet-stream';
    done();
  });

  const connect = catchConnect({
    capture: (raw) => storeCapture(ctx, raw), requestId: ctx.requestId, log: app.log, maxBodyBytes: limit, trustProxy: ctx.config.trustProxy, headers: CATCH_HEADERS,
  });
  app.server.on('connect', connect);
  app.addHook('preClose', async () => connect.closeAll());

  async function capture(request: FastifyRequest<{ Params: { bin_id: string } }>, reply: FastifyReply) {
    const binId = request.params.bin_id;
    const body = await bodyOf(request, reply, limit);
    const requestId = await storeCapture(ctx, { binId, method: request.method, url: request.originalUrl, rawHeaders: request.raw.rawHeaders, body, sourceIp: clientAddress(request) });
    const preflight = preflightHeaders(request);
    if (preflight) reply.headers(preflight);
    return { ok: true, bin_id: binId, request_id: requestId };
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
  const route = { url: '/v1/catch/:bin_id', config: { area: 'public' as const }, bodyLimit: limit, handler: capture };
  app.route({ ...route, method: standard, schema });
  app.route({ ...route, method: extension, schema: hidden });
  const subPath = { ...schema, summary: 'Capture any request sent to a sub-path of a bin', description: `${DESCRIPTION}\nThe sub-path (\`*\`, any number of segments) is stored in \`path\` with the rest of the request path.` };
  app.route({ ...route, url: '/v1/catch/:bin_id/*', method: standard, schema: subPath });
  app.route({ ...route, url: '/v1/catch/:bin_id/*', method: extension, schema: { ...subPath, hide: true } });
}
