// `devutil listen` (issue 33): what forwarding adds, and its memory.
// 0. warm-up: BENCH_WARMUP (default 200) captures at that rate, not recorded (JIT, first connections);
// 1. latency: BENCH_CAPTURES (default 2000) captures sent at BENCH_RATE a second (default 100) to a bin
//    that `devutil listen` forwards to a local app in this process; for each, the capture's
//    acknowledgement (its 200 here) → the local app receiving it, on this process's clock:
//    p50 (≤ 5 ms) and p99 (≤ 20 ms);
// 2. memory: BENCH_MEMORY_WARMUP (default 5000) forwards, then BENCH_FORWARDS (default 10000) more,
//    BENCH_MEMORY_CONCURRENCY (default 8) captures at a time but never more than BENCH_MEMORY_LEAD
//    (default 200) ahead of listen's deliveries, so none is evicted (BIN_MAX_REQUESTS 1000) before
//    listen reads it; listen's resident memory (VmRSS) sampled every second (all samples in the JSON
//    results): at the start of the 10000, half way and at the end (flat: at most 10 MiB more). The
//    warm-up runs at the measured rate because V8 sizes its young generation to the allocation rate
//    (up to its default 2 x 16 MiB) once, in the first few thousand forwards at this rate.
// Every delivery listen prints (--json) is counted; failed ones (a capture evicted before listen read it,
// when listen falls behind by more than the bin retains) are reported, and miss the target.
// Run: npm run build && cd bench && node cli-forward.mjs
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startService, writeResults } from './lib.mjs';

const root = new URL('..', import.meta.url).pathname;
const WARMUP = Number(process.env.BENCH_WARMUP ?? 200);
const CAPTURES = Number(process.env.BENCH_CAPTURES ?? 2000);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const FORWARDS = Number(process.env.BENCH_FORWARDS ?? 10000);
const CONCURRENCY = Number(process.env.BENCH_MEMORY_CONCURRENCY ?? 8);
const LEAD = Number(process.env.BENCH_MEMORY_LEAD ?? 200);
const MEMORY_WARMUP = Number(process.env.BENCH_MEMORY_WARMUP ?? 5000);

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round2 = (n) => Math.round(n * 100) / 100;
const rssMiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/** The local app: records when each capture (its body is its sequence number) arrives. */
function startApp() {
  const received = new Map();
  let count = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.set(Buffer.concat(chunks).toString(), performance.now());
      count++;
      res.end('ok');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}`, received, count: () => count, server }),
    ),
  );
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
/** POST one capture; resolves with the time its acknowledgement arrived. */
function capture(url, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'text/plain' } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now()) : reject(new Error(`capture answered ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function waitUntil(check, what, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const service = await startService();
const app = await startApp();
const listen = spawn(
  process.execPath,
  [join(root, 'dist/src/cli/main.js'), 'listen', '--url', service.url, '--key', service.apiKey, '--forward-to', app.url, '--json'],
  { stdio: ['ignore', 'pipe', 'pipe'] },
);
let messages = '';
listen.stderr.on('data', (c) => (messages += c));
// listen's deliveries, one JSON object per line: counted, and the failed ones kept.
let delivered = 0;
const failed = [];
let pending = '';
listen.stdout.on('data', (c) => {
  const lines = (pending + c).split('\n');
  pending = lines.pop();
  for (const line of lines) {
    const record = JSON.parse(line);
    delivered++;
    if (record.error !== null) failed.push(record);
  }
});
try {
  await waitUntil(() => /Forwarding (\S+) ->/.test(messages), 'listen connected');
  const catchUrl = /Forwarding (\S+) ->/.exec(messages)[1];

  /** Send `count` captures at RATE a second (bodies `<prefix><i>`); resolves with each one's acknowledgement time. */
  const sendAtRate = async (count, prefix) => {
    const acked = new Map();
    const start = performance.now();
    const sends = [];
    for (let i = 0; i < count; i++) {
      const due = start + (i * 1000) / RATE - performance.now();
      if (due > 0) await new Promise((r) => setTimeout(r, due));
      const body = `${prefix}${i}`;
      sends.push(capture(catchUrl, body).then((t) => acked.set(body, t)));
    }
    await Promise.all(sends);
    return acked;
  };

  // 0. Warm-up, not recorded: JIT, the first connections of listen to the service and to the app.
  await sendAtRate(WARMUP, 'W');
  await waitUntil(() => delivered >= WARMUP, `${WARMUP} warm-up deliveries`);

  // 1. Latency at a steady rate.
  const FIRST = WARMUP + CAPTURES;
  const acked = await sendAtRate(CAPTURES, 'L');
  await waitUntil(() => delivered >= FIRST, `${CAPTURES} deliveries`);
  const failedEarly = failed.length;
  if (failedEarly > 0) console.error(`${failedEarly} deliveries failed, e.g. ${JSON.stringify(failed[0])}`);
  const added = [...acked]
    .filter(([body]) => app.received.has(body))
    .map(([body, t]) => app.received.get(body) - t)
    .sort((a, b) => a - b);
  const p50 = percentile(added, 50);
  const p99 = percentile(added, 99);
  console.error(`latency: p50 ${round2(p50)} ms, p99 ${round2(p99)} ms, max ${round2(added.at(-1))} ms`);

  // 2. Memory over many forwards.
  const samples = [];
  const MEASURED = FIRST + MEMORY_WARMUP;
  const sampler = setInterval(() => samples.push({ forwards: delivered - MEASURED, rss: rssMiB(listen.pid) }), 1000);
  let next = 0;
  let memoryStart = performance.now();
  void waitUntil(() => delivered >= MEASURED, 'the memory warm-up', 300_000).then(() => {
    memoryStart = performance.now();
    samples.push({ forwards: 0, rss: rssMiB(listen.pid) });
  });
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < MEMORY_WARMUP + FORWARDS) {
        if (FIRST + next - delivered >= LEAD) await waitUntil(() => FIRST + next - delivered < LEAD, 'listen catching up');
        else await capture(catchUrl, `M${next++}`);
      }
    }),
  );
  await waitUntil(() => delivered >= MEASURED + FORWARDS, `${FORWARDS} more deliveries`, 300_000);
  const perSecond = FORWARDS / ((performance.now() - memoryStart) / 1000);
  clearInterval(sampler);
  if (app.count() !== MEASURED + FORWARDS - failed.length)
    throw new Error(`the app got ${app.count()} requests for ${MEASURED + FORWARDS} captures, ${failed.length} failed`);
  samples.push({ forwards: FORWARDS, rss: rssMiB(listen.pid) });
  samples.sort((a, b) => a.forwards - b.forwards);
  const warm = samples.find((s) => s.forwards >= 0);
  const half = samples.find((s) => s.forwards >= FORWARDS / 2) ?? warm;
  const end = samples.at(-1);

  writeResults('cli-forward', {
    note: `${WARMUP} warm-up captures (not recorded), ${CAPTURES} captures at ${RATE}/s, then ${MEMORY_WARMUP} + ${FORWARDS} forwards ${CONCURRENCY} captures at a time (at most ${LEAD} ahead of listen; memory measured over the last ${FORWARDS}, samples of the warm-up have negative counts); listen forwards to a node:http app in this process.`,
    rows: [
      { measure: 'ack → local app, p50 (ms)', value: round2(p50) },
      { measure: 'ack → local app, p99 (ms)', value: round2(p99) },
      { measure: 'ack → local app, max (ms)', value: round2(added.at(-1)) },
      { measure: `deliveries failed of the ${FIRST} (warm-up included)`, value: failedEarly },
      { measure: `listen RSS after the ${MEMORY_WARMUP} warm-up forwards (MiB)`, value: round2(warm.rss) },
      { measure: `listen RSS after ${half.forwards} forwards (MiB)`, value: round2(half.rss) },
      { measure: `listen RSS after ${end.forwards} forwards (MiB)`, value: round2(end.rss) },
      {
        measure: 'listen RSS, highest sample of the measured forwards (MiB)',
        value: round2(Math.max(...samples.filter((s) => s.forwards >= 0).map((s) => s.rss))),
      },
      { measure: 'forwards/s while measuring memory', value: Math.round(perSecond) },
      { measure: 'deliveries failed while measuring memory', value: failed.length - failedEarly },
    ],
    rssSamples: samples.map((s) => [s.forwards, round2(s.rss)]),
    verdicts: [
      `added latency p50 ${round2(p50)} ms (≤ 5): ${p50 <= 5 && failedEarly === 0 ? 'ok' : 'MISSED'}`,
      `added latency p99 ${round2(p99)} ms (≤ 20): ${p99 <= 20 ? 'ok' : 'MISSED'}`,
      `listen memory ${round2(warm.rss)} → ${round2(end.rss)} MiB (at most 10 MiB more): ${end.rss - warm.rss <= 10 ? 'ok' : 'MISSED'}`,
      `listen memory over the second half, ${round2(half.rss)} → ${round2(end.rss)} MiB (at most 10 MiB more): ${end.rss - half.rss <= 10 ? 'ok' : 'MISSED'}`,
    ],
  });
} finally {
  listen.kill('SIGINT');
  app.server.close();
  agent.destroy();
  await service.stop();
}
