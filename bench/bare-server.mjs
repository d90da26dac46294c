// A bare node:http server answering every request with a JSON body of BODY_BYTES bytes: the baseline
// every benchmark compares the service against. Prints its port on stdout.
import { createServer } from 'node:http';

const size = Number(process.env.BODY_BYTES ?? 16);
const filler = Math.max(0, size - 10);
const body = Buffer.from(JSON.stringify({ ok: 'x'.repeat(filler) }).slice(0, Math.max(size, 10)));
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => console.log(`PORT ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
