// Password hashing throughput (issue 5): argon2id with the default (OWASP) parameters and bcrypt cost 12,
// through the HTTP API of the built service, next to the bare library in this process for reference.
// The service runs at most min(cores, UV_THREADPOOL_SIZE - 1) CPU-bound crypto jobs at once.
// Run: npm run build && (cd bench && npm install && node crypto-passwords.mjs)   [BENCH_SECONDS=10 by default]
import { createRequire } from 'node:module';
import { availableParallelism, loadavg } from 'node:os';
import { startService, writeResults } from './lib.mjs';

const require = createRequire(new URL('../package.json', import.meta.url));
const argon2 = require('@node-rs/argon2');
const bcrypt = require('@node-rs/bcrypt');

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const cores = availableParallelism();

/**
 * Completions per second of `job()` kept `concurrency` deep for `seconds` (hashes are slow, so a
 * closed loop with exact counts beats autocannon's integer requests/s here), with latency percentiles.
 */
async function rate(job, concurrency, seconds) {
  const start = performance.now();
  const end = start + seconds * 1000;
  const latencies = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        await job();
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => Math.round(latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * p) - 1)]);
  return {
    hashes_per_s: Math.round((latencies.length / elapsed) * 10) / 10,
    hashes: latencies.length,
    p50_ms: pct(0.5),
    p99_ms: pct(0.99),
  };
}

const service = await startService();
try {
  const headers = { 'x-api-key': service.apiKey };
  const cases = [
    {
      title: 'hash-password argon2id (m=19456, t=2, p=1)',
      body: { password: 'correct horse battery staple' },
      prefix: '$argon2id$v=19$m=19456,t=2,p=1$',
    },
    {
      title: 'hash-password bcrypt cost 12',
      body: { password: 'correct horse battery staple', algorithm: 'bcrypt', cost: 12 },
      prefix: '$2b$12$',
    },
  ];
  for (const c of cases) {
    const res = await fetch(`${service.url}/v1/auth/hash-password`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(c.body),
    });
    const body = await res.json();
    if (res.status !== 200 || !body.hash.startsWith(c.prefix)) throw new Error(`${c.title}: ${res.status} ${JSON.stringify(body)}`);
  }
  const rows = [];
  const concurrency = 2 * cores;
  for (const c of cases) {
    const post = async () => {
      const res = await fetch(`${service.url}/v1/auth/hash-password`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(c.body),
      });
      if (res.status !== 200) throw new Error(`${c.title}: ${res.status}`);
      await res.arrayBuffer();
    };
    rows.push({ title: `HTTP ${c.title}, ${concurrency} clients`, ...(await rate(post, concurrency, duration)) });
  }
  const argonLib = await rate(() => argon2.hash('correct horse battery staple'), cores, duration / 2);
  const bcryptLib = await rate(() => bcrypt.hash('correct horse battery staple', 12), cores, duration / 2);
  rows.push({ title: `library only: argon2id defaults, ${cores} in parallel`, ...argonLib });
  rows.push({ title: `library only: bcrypt cost 12, ${cores} in parallel`, ...bcryptLib });
  writeResults('crypto-passwords', {
    note: `${cores} cores, ${duration} s per HTTP row. The service hashes at most ${Math.max(1, Math.min(cores, 3))} at a time; more clients queue (latency includes the wait). Load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} (other work on the machine lowers these numbers).`,
    rows,
    verdicts: [
      `argon2id (OWASP defaults) through HTTP: ${rows[0].hashes_per_s} hashes/s on ${cores} cores (library alone: ${argonLib.hashes_per_s}/s)`,
      `bcrypt cost 12 through HTTP: ${rows[1].hashes_per_s} hashes/s on ${cores} cores (library alone: ${bcryptLib.hashes_per_s}/s)`,
    ],
  });
} finally {
  await service.stop();
}
