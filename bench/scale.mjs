// Scale-out benchmark (issue 7): catch throughput (1 KB JSON POST) on SQLite, on Redis with one
// service process, and on Redis with two processes sharing the load, in one run.
// Needs a Redis at REDIS_URL (default redis://127.0.0.1:6379); uses the key prefix of the service.
// Run: npm run build && (cd bench && npm install && node scale.mjs)
import { measure, ratio, startService, writeResults, ADMIN_TOKEN } from './lib.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 8);
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const body = JSON.stringify({ event: 'order.created', data: { id: 1, note: 'x'.repeat(960) } });

async function newBin(service) {
  const res = await fetch(`${service.url}/v1/bins`, {
    method: 'POST',
    headers: { 'x-api-key': service.apiKey, 'content-type': 'application/json' },
    body: '{}',
  });
  return (await res.json()).bin.bin_id;
}

async function catchLoad(urls, binId, title) {
  const per = await Promise.all(
    urls.map((url) =>
      measure({ url: `${url}/v1/catch/${binId}`, method: 'POST', body, connections: Math.round(50 / urls.length), duration }),
    ),
  );
  return {
    title,
    rps: per.reduce((s, r) => s + r.rps, 0),
    p50_ms: Math.max(...per.map((r) => r.p50_ms)),
    p99_ms: Math.max(...per.map((r) => r.p99_ms)),
    non2xx: per.reduce((s, r) => s + r.non2xx, 0),
    errors: per.reduce((s, r) => s + r.errors, 0),
  };
}

const rows = [];
const sqlite = await startService({ pin: false });
try {
  rows.push(await catchLoad([sqlite.url], await newBin(sqlite), 'SQLite, 1 process'));
} finally {
  await sqlite.stop();
}
const env = { STORE: 'redis', REDIS_URL: redisUrl, BIN_MAX_REQUESTS: '1000' };
const first = await startService({ env, pin: false });
const second = await startService({ env, pin: false });
try {
  const binId = await newBin(first);
  rows.push(await catchLoad([first.url], binId, 'Redis, 1 process'));
  rows.push(await catchLoad([first.url, second.url], binId, 'Redis, 2 processes'));
} finally {
  await Promise.all([first.stop(), second.stop()]);
}
const base = rows[0].rps;
writeResults('scale', {
  pinned: false,
  note: `POST /v1/catch/{bin} with a 1 KB JSON body, 50 connections in all, ${duration} s each, LOG_LEVEL=warn, on a 2-core machine where the load generator shares the cores.`,
  rows: rows.map((r) => ({ ...r, pct_of_sqlite: ratio(r.rps, base) })),
  verdicts: [`Redis 2 processes vs 1: ${ratio(rows[2].rps, rows[1].rps)}%`],
});
void ADMIN_TOKEN;
