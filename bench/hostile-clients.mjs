// Latency of ordinary requests with and without hostile clients, in the same run (issue 8, item 3).
// Hostile clients: slowloris senders (one header byte per second, reconnecting when cut off),
// senders that never finish a body, and idle keep-alive sockets (reconnecting when closed).
// Usage: npm run build (project root), then: node bench/hostile-clients.mjs
import { connect } from 'node:net';
import { measure, startService, writeResults } from './lib.mjs';

const SLOWLORIS = Number(process.env.SLOWLORIS ?? 500);
const SLOW_BODY = Number(process.env.SLOW_BODY ?? 200);
const IDLE = Number(process.env.IDLE ?? 2000);
const DURATION = Number(process.env.DURATION ?? 8);

/** Keep `count` hostile sockets open: each runs `behave` and is replaced when the server closes it. */
function hostileCrowd(port, count, behave) {
  const stats = { open: 0, closedByServer: 0, answered: 0 };
  let stopping = false;
  const sockets = new Set();
  const open = () => {
    if (stopping) return;
    const socket = connect(port, '127.0.0.1');
    sockets.add(socket);
    socket.on('connect', () => {
      stats.open++;
      behave(socket);
    });
    socket.once('data', () => stats.answered++);
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      if (stopping) return;
      stats.open--;
      stats.closedByServer++;
      setTimeout(open, 50);
    });
  };
  for (let i = 0; i < count; i++) setTimeout(open, i % 500);
  return {
    stats,
    stop() {
      stopping = true;
      for (const s of sockets) s.destroy();
    },
  };
}

function slowloris(socket) {
  const head = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ' + 'a'.repeat(200);
  let i = 0;
  const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write(head[i++ % head.length])), 1000);
  socket.on('close', () => clearInterval(timer));
}

let apiKey = '';
function slowBody(socket) {
  socket.write(
    `POST /v1/json-to-schema HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"data":`,
  );
  const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write(' ')), 1000);
  socket.on('close', () => clearInterval(timer));
}

function idleKeepAlive(socket) {
  socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
}

async function ordinary(svc, phase) {
  const rows = [];
  rows.push({ phase, ...(await measure({ url: `${svc.url}/healthz`, connections: 10, duration: DURATION, title: 'GET /healthz' })) });
  rows.push({
    phase,
    ...(await measure({
      url: `${svc.url}/v1/account`,
      headers: { 'x-api-key': svc.apiKey },
      connections: 10,
      duration: DURATION,
      title: 'GET /v1/account',
    })),
  });
  return rows;
}

const svc = await startService();
const port = Number(new URL(svc.url).port);
apiKey = svc.apiKey;
try {
  const rows = await ordinary(svc, 'quiet');
  const crowds = {
    slowloris: hostileCrowd(port, SLOWLORIS, slowloris),
    slowBody: hostileCrowd(port, SLOW_BODY, slowBody),
    idle: hostileCrowd(port, IDLE, idleKeepAlive),
  };
  const timeline = [];
  const started = Date.now();
  const sampler = setInterval(
    () =>
      timeline.push({
        s: Math.round((Date.now() - started) / 1000),
        ...Object.fromEntries(
          Object.entries(crowds).map(([k, c]) => [
            k,
            `${c.stats.open} open / ${c.stats.answered} answered / ${c.stats.closedByServer} closed`,
          ]),
        ),
      }),
    2000,
  );
  await new Promise((r) => setTimeout(r, 3000));
  const openBefore = Object.fromEntries(Object.entries(crowds).map(([k, c]) => [k, c.stats.open]));
  rows.push(...(await ordinary(svc, `with ${SLOWLORIS} slowloris + ${SLOW_BODY} slow-body + ${IDLE} idle sockets`)));
  const hostile = Object.fromEntries(
    Object.entries(crowds).map(([k, c]) => [
      k,
      {
        target: c === crowds.slowloris ? SLOWLORIS : c === crowds.slowBody ? SLOW_BODY : IDLE,
        open_when_measuring: openBefore[k],
        closed_by_server: c.stats.closedByServer,
      },
    ]),
  );
  clearInterval(sampler);
  Object.values(crowds).forEach((c) => c.stop());
  rows.push(...(await ordinary(svc, 'quiet again')));
  const p99 = (phase, title) => rows.find((r) => r.phase.startsWith(phase) && r.title === title)?.p99_ms;
  writeResults('hostile-clients', {
    note:
      'Service built from dist with production SERVER_TIMEOUTS (headers 15 s, request 60 s, keep-alive 5 s, checked every 1 s), LOG_LEVEL=warn. ' +
      'Load generator, hostile sockets and the service share a 2-CPU host that other work keeps loaded, so numbers are noisy. ' +
      'Hostile sockets reconnect when the server closes them, so their number stays near the target during the measurement.',
    hostile,
    timeline,
    rows,
    verdicts: [
      `GET /healthz p99: ${p99('quiet', 'GET /healthz')} ms quiet, ${p99('with', 'GET /healthz')} ms with hostile clients.`,
      `GET /v1/account p99: ${p99('quiet', 'GET /v1/account')} ms quiet, ${p99('with', 'GET /v1/account')} ms with hostile clients.`,
      `Hostile sockets closed by the server during the run: ${JSON.stringify(Object.fromEntries(Object.entries(hostile).map(([k, v]) => [k, v.closed_by_server])))}.`,
    ],
  });
} finally {
  await svc.stop();
}
