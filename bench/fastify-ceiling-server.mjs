// The framework ceiling: a minimal plain Fastify app answering the service's hot routes with the same
// bytes (body and headers, the Date aside) and the same tool functions, but without a store, keys,
// credits, validation or logging. What the service reaches as a share of this app is what its own
// layers cost on top of Fastify.
// Routes: GET /mock (MOCK_BODY_BYTES of JSON), POST /catch (reads the body, answers ACK_BYTES of JSON),
// and POST <tool path> for the tools in TOOLS, each calling the service's function from DIST
// (default ../dist, so `npm run build` first). Every answer carries an X-Request-Id as long as the
// service's and its Keep-Alive timeout; mock and catch answers carry the service's headers for them.
// Listens on `PORT` (default: any free port) and prints `PORT <n>`.
import Fastify from 'fastify';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = resolve(process.env.DIST ?? new URL('../dist', import.meta.url).pathname);
const load = (file) => import(pathToFileURL(join(dist, 'src', file)).href);

const { transformJson } = await load('areas/devtools/jmespath.js');
const { runArrayOps } = await load('areas/devtools/array-ops.js');
const { formatNumber } = await load('areas/devtools/number-format.js');
const { computeHash } = await load('areas/crypto/digest.js');
const { decodeBytes } = await load('areas/crypto/bytes.js');
const { importHmacSecret } = await load('areas/crypto/jwt-keys.js');
const { verifyCompactJwt } = await load('areas/crypto/jwt-verify.js');

/** Each route's work on a parsed body, as the service's handler does it (defaults filled in). */
const TOOLS = {
  '/v1/json-transform': (b) => ({ result: transformJson(b.data, b.expression), expression: b.expression }),
  '/v1/array-ops': (b) => runArrayOps(b.operation, b.arrays, b.options ?? {}),
  '/v1/number-format': (b) => {
    const out = formatNumber({ number: b.number, formatType: b.format_type, locale: b.locale, currency: b.currency, decimals: b.decimals });
    return { formatted: out.formatted, original: b.number, locale: out.locale, format_type: b.format_type };
  },
  '/v1/auth/hash': (b) => {
    const algorithm = b.algorithm ?? 'sha256';
    const encoding = b.encoding ?? 'hex';
    return { hash: computeHash(decodeBytes(b.data, b.data_encoding, 'data'), algorithm, encoding), algorithm, encoding };
  },
  '/v1/auth/jwt-verify': async (b) => verifyCompactJwt(b.token, importHmacSecret(b.secret, b.secret_encoding), { now: Date.now() }),
};

const mockBody = JSON.stringify({ ok: 'x'.repeat(Math.max(0, Number(process.env.MOCK_BODY_BYTES ?? 256) - 10)) });
const ackBody = JSON.stringify({ ok: 'x'.repeat(Math.max(0, Number(process.env.ACK_BYTES ?? 80) - 10)) });

// What the service sends with a mock's answer and with a capture's acknowledgement (CONTRACT §2).
const ANSWER_HEADERS = { 'access-control-allow-origin': '*', 'content-security-policy': 'sandbox', 'x-content-type-options': 'nosniff' };
const MOCK_HEADERS = { ...ANSWER_HEADERS, 'x-mock-id': `mock_${'0'.repeat(22)}`, 'content-type': 'application/json; charset=utf-8' };
const CATCH_HEADERS = {
  ...ANSWER_HEADERS,
  'access-control-expose-headers': 'x-request-id',
  'content-type': 'application/json; charset=utf-8',
};

// Request ids shaped as the service's: a 12-character prefix and a counter.
let requests = 0;
const app = Fastify({ logger: false, keepAliveTimeout: 5000, genReqId: () => `AqJ381QoE3vp-${(++requests).toString(36)}` });
app.addHook('onRequest', (request, reply, done) => {
  reply.header('x-request-id', request.id);
  done();
});
app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
app.get('/mock', (_request, reply) => reply.headers(MOCK_HEADERS).send(mockBody));
app.post('/catch', { bodyLimit: 1024 * 1024 }, (_request, reply) => reply.headers(CATCH_HEADERS).send(ackBody));
app.get('/healthz', () => ({ status: 'ok' }));
for (const [path, tool] of Object.entries(TOOLS)) app.post(path, (request) => tool(request.body));

await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log(`PORT ${app.server.address().port}`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
