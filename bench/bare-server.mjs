// A bare node:http server answering every request with a JSON body of BODY_BYTES bytes: the baseline
// every benchmark compares the service against. EXTRA_HEADERS (a JSON object) adds headers to its
// answer, for an informational comparison. Prints its port on stdout.
import { createServer } from 'node:http';

const size = Number(process.env.BODY_BYTES ?? 16);
const extra = Object.entries(JSON.parse(process.env.EXTRA_HEADERS ?? '{}')).flat();
const withExtra = (length) => ['content-type', 'application/json; charset=utf-8', 'content-length', String(length), ...extra];
const filler = Math.max(0, size - 10);
const body = Buffer.from(JSON.stringify({ ok: 'x'.repeat(filler) }).slice(0, Math.max(size, 10)));
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (extra.length === 0) res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    else res.writeHead(200, withExtra(body.length));
    res.end(body);
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => console.log(`PORT ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
