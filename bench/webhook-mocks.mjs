// Webhook mock benchmark (issue 3):
//  1. mock serving without delay against a bare node:http server answering the same JSON body
//     (target: the mock keeps >= 80% of the bare server's requests per second; every hit is
//     counted in the store before its response is sent);
//  2. 1000 concurrent requests to mocks with delay_ms 1000, all answered in under 1.5 s.
// Run: npm run build && (cd bench && npm install && node webhook-mocks.mjs)
import http from 'node:http';
import { measure, ratio, startBareServer, startService, writeResults } from './lib.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const concurrent = Number(process.env.BENCH_DELAYED ?? 1000);
const BODY_BYTES = 256;

async function createMock(service, config) {
  const res = await fetch(`${service.url}/v1/mocks`, {
    method: 'POST',
    headers: { 'x-api-key': service.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ ttl_seconds: 172800, ...config }),
  });
  if (res.status !== 201) throw new Error(`mock creation failed: ${res.status} ${await res.text()}`);
  return res.json();
}

async function hitCount(service, mockId) {
  const res = await fetch(`${service.url}/v1/mocks/${mockId}`, { headers: { 'x-api-key': service.apiKey } });
  return (await res.json()).mock.hit_count;
}

/** `count` simultaneous GETs, each on its own connection; resolves with per-request status and the wall time. */
function burst(urls) {
  const started = performance.now();
  return Promise.all(
    urls.map(
      (url) =>
        new Promise((resolve) => {
          const req = http.get(url, { agent: false }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started }));
          });
          req.on('error', (err) => resolve({ status: 0, error: err.code, ms: performance.now() - started }));
        }),
    ),
  ).then((answers) => ({ answers, wall_ms: Math.round(performance.now() - started) }));
}

const service = await startService();
const bare = await startBareServer({ bodyBytes: BODY_BYTES });
try {
  // The mock serves exactly the bare server's body, with the same content type.
  const sameBody = await (await fetch(`${bare.url}/`)).text();
  const { mock, url } = await createMock(service, { body: sameBody, content_type: 'application/json; charset=utf-8' });
  const baseline = await measure({ url: `${bare.url}/`, connections, duration, title: `bare node:http (GET, ${BODY_BYTES} B JSON)` });
  const served = await measure({ url, connections, duration, title: `GET /v1/mock/{mock_id} (${BODY_BYTES} B JSON, no delay)` });
  const hits = await hitCount(service, mock.mock_id);
  const pct = ratio(served.rps, baseline.rps);

  // 1000 delayed requests spread over 10 mocks (delay 1000 ms), all sent at once.
  const delayed = [];
  for (let i = 0; i < 10; i++) delayed.push(await createMock(service, { delay_ms: 1000, body: '{"slow":true}' }));
  const urls = Array.from({ length: concurrent }, (_, i) => delayed[i % delayed.length].url);
  const { answers, wall_ms: wallMs } = await burst(urls);
  const ok = answers.filter((a) => a.status === 200).length;
  const slowest = Math.round(Math.max(...answers.map((a) => a.ms)));
  const fastest = Math.round(Math.min(...answers.map((a) => a.ms)));
  let delayedHits = 0;
  for (const d of delayed) delayedHits += await hitCount(service, d.mock.mock_id);

  writeResults('webhook-mocks', {
    note: `Service with LOG_LEVEL=warn, SQLite store (each hit committed before its response), ${connections} connections, ${duration} s after a 2 s warm-up, autocannon in a separate process from both servers.`,
    rows: [
      { ...baseline, pct_of_bare: 100 },
      { ...served, pct_of_bare: pct },
      { title: `${concurrent} concurrent GETs, delay_ms 1000 (10 mocks)`, answered_200: ok, fastest_ms: fastest, slowest_ms: slowest, wall_ms: wallMs },
    ],
    hit_count_after_run: hits,
    delayed_hit_count: delayedHits,
    verdicts: [
      `mock serving at ${pct}% of bare node:http (target >= 80%): ${pct >= 80 ? 'met' : 'NOT met'}`,
      `${ok}/${concurrent} delayed requests answered 200, slowest after ${slowest} ms (target: all under 1500 ms): ${ok === concurrent && slowest < 1500 ? 'met' : 'NOT met'}`,
      `hit_count of the served mock after the run: ${hits} (warm-up and measurement 2xx, plus 0 probes); delayed mocks counted ${delayedHits} of ${concurrent}`,
    ],
  });
} finally {
  await bare.stop();
  await service.stop();
}
