// Webhook catch benchmark (issue 3): a 1 KB JSON POST captured durably (SQLite, each 200 sent only
// after its commit) against a bare node:http server that reads the same body and answers a JSON body
// of the same size as the catch acknowledgement. Target (issue 30's floor): catch keeps >= 40% of the bare
// server's rps.
// Run: npm run build && (cd bench && npm install && node webhook-catch.mjs)
import { measure, ratio, startBareServer, startService, summarize, writeResults } from './lib.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
// Alternating rounds (bare, catch, bare, catch, ...) so load from other processes hits both alike.
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
// A realistic 1 KB webhook payload (exactly 1024 bytes of JSON).
const base = {
  id: 'evt_1NqKx2Lk',
  type: 'invoice.paid',
  created: 1795300000,
  data: { object: { amount: 1050, currency: 'eur' } },
  pad: '',
};
const payload = JSON.stringify({ ...base, pad: 'x'.repeat(1024 - JSON.stringify(base).length) });
if (Buffer.byteLength(payload) !== 1024) throw new Error(`payload is ${Buffer.byteLength(payload)} bytes`);
// BIN_MAX_REQUESTS high enough that eviction runs on every capture, as in steady use.
const service = await startService({ env: { BIN_MAX_REQUESTS: '1000' } });
try {
  const created = await fetch(`${service.url}/v1/bins`, {
    method: 'POST',
    headers: { 'x-api-key': service.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', ttl_seconds: 172800 }),
  });
  const { bin, url } = await created.json();
  const ack = await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload })).text();
  const bare = await startBareServer({ bodyBytes: Buffer.byteLength(ack) });
  try {
    const runs = { bare: [], capture: [], healthz: [] };
    for (let round = 1; round <= rounds; round++) {
      runs.bare.push(
        await measure({
          url: `${bare.url}/`,
          method: 'POST',
          body: payload,
          connections,
          duration,
          title: `bare node:http (1 KB POST, ${Buffer.byteLength(ack)} B answer), round ${round}`,
        }),
      );
      runs.capture.push(
        await measure({
          url,
          method: 'POST',
          body: payload,
          connections,
          duration,
          title: `POST /v1/catch/{bin_id} (1 KB JSON, durable), round ${round}`,
        }),
      );
      // Reference: the service's cheapest route, i.e. what the framework and app-wide hooks cost alone.
      runs.healthz.push(
        await measure({
          url: `${service.url}/healthz`,
          connections,
          duration,
          title: `GET /healthz (framework reference), round ${round}`,
        }),
      );
    }
    const baseline = summarize(runs.bare, `bare node:http (1 KB POST, ${Buffer.byteLength(ack)} B answer), mean of ${rounds}`);
    const capture = summarize(runs.capture, `POST /v1/catch/{bin_id} (1 KB JSON, durable), mean of ${rounds}`);
    const healthz = summarize(runs.healthz, `GET /healthz (framework reference), mean of ${rounds}`);
    const count = (await (await fetch(`${service.url}/v1/bins/${bin.bin_id}`, { headers: { 'x-api-key': service.apiKey } })).json()).bin
      .request_count;
    const pct = ratio(capture.rps, baseline.rps);
    writeResults('webhook-catch', {
      note: `Service with LOG_LEVEL=warn, SQLite store (WAL, synchronous=NORMAL: every acknowledged capture is committed), BIN_MAX_REQUESTS=1000 (eviction on every capture), ${connections} connections, ${rounds} alternating rounds of ${duration} s each after a 2 s warm-up (the verdict uses the means), autocannon in a separate process from both servers.`,
      rows: [...runs.bare.flatMap((b, i) => [b, runs.capture[i], runs.healthz[i]]), baseline, capture, healthz].map((r) => ({
        ...r,
        pct_of_bare: ratio(r.rps, baseline.rps),
      })),
      captured_total: count,
      verdicts: [
        `catch at ${pct}% of bare node:http (target >= 40%): ${pct >= 40 ? 'met' : 'NOT met'}`,
        `GET /healthz of the same service at ${ratio(healthz.rps, baseline.rps)}% of bare: the ceiling any route of this app reaches here`,
        `request_count after the run: ${count} (every 2xx of warm-up and measurement, plus 1 probe)`,
      ],
    });
  } finally {
    await bare.stop();
  }
} finally {
  await service.stop();
}
