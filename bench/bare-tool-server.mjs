// A plain node:http server doing the same tool work as the service's benchmarked routes, with none
// of the service's layers (no framework, no key, no rate limit, no credit, no request validation,
// no logging) but the same transport: the service's body collection (src/http/request-body.ts), its
// write batching (src/http/write-batching.ts) and
// `npm start`'s node flags (tool-ceiling.mjs starts it). Its ratio of tool requests/s to /healthz
// requests/s is the most a Node service can reach for those requests on this machine. GET /healthz
// answers {"status":"ok"} as the service does. Prints its port.
// Needs a build (npm run build): it calls the service's own tool functions from ../dist.
// PLAIN_TRANSPORT=1: Node's own body stream and one write per response instead.
import { createServer } from 'node:http';
import { CollectingIncomingMessage, readBody } from '../dist/src/http/request-body.js';
import { batchWrites } from '../dist/src/http/write-batching.js';
import { transformJson } from '../dist/src/areas/devtools/jmespath.js';
import { runArrayOps } from '../dist/src/areas/devtools/array-ops.js';
import { formatNumber } from '../dist/src/areas/devtools/number-format.js';
import { computeHash } from '../dist/src/areas/crypto/digest.js';
import { decodeBytes } from '../dist/src/areas/crypto/bytes.js';
import { importHmacSecret } from '../dist/src/areas/crypto/jwt-keys.js';
import { verifyJwt } from '../dist/src/areas/crypto/jwt-verify.js';

/** Each route's work on a parsed body, as the service's handler does it (defaults filled in). */
const TOOLS = {
  '/v1/json-transform': (b) => ({ result: transformJson(b.data, b.expression) }),
  '/v1/array-ops': (b) => runArrayOps(b.operation, b.arrays, b.options),
  '/v1/number-format': (b) => {
    const out = formatNumber({ number: b.number, formatType: b.format_type, locale: b.locale, currency: b.currency, decimals: b.decimals });
    return { formatted: out.formatted, original: b.number, locale: out.locale, format_type: b.format_type };
  },
  '/v1/auth/hash': (b) => {
    const algorithm = b.algorithm ?? 'sha256';
    const encoding = b.encoding ?? 'hex';
    return { hash: computeHash(decodeBytes(b.data, b.data_encoding, 'data'), algorithm, encoding), algorithm, encoding };
  },
  '/v1/auth/jwt-verify': (b) => verifyJwt(b.token, importHmacSecret(b.secret, b.secret_encoding), { now: Date.now() }),
};

function send(res, status, value) {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const plain = process.env.PLAIN_TRANSPORT === '1';

function answer(res, tool, err, body) {
  try {
    if (err) throw err;
    send(res, 200, tool(JSON.parse(body.toString('utf8'))));
  } catch (e) {
    send(res, 400, { code: 'bad_request', detail: String(e) });
  }
}

function readWhole(req, done) {
  if (!plain) return readBody(req.headers, req, 2 * 1024 * 1024, done);
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => done(null, Buffer.concat(chunks)));
}

const server = createServer(plain ? {} : { IncomingMessage: CollectingIncomingMessage }, (req, res) => {
  const tool = TOOLS[req.url];
  if (req.method === 'GET' || !tool) {
    req.resume();
    return req.url === '/healthz' ? send(res, 200, { status: 'ok' }) : send(res, 404, { code: 'not_found' });
  }
  readWhole(req, (err, body) => answer(res, tool, err, body));
});
if (!plain) server.on('connection', batchWrites);
server.keepAliveTimeout = 5_000; // as the service
server.listen(0, '127.0.0.1', () => console.log(`PORT ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
