// How many fresh service processes fall into the slow, promoting GC mode (README, "two kinds" of runs).
// Each process is started with --trace-gc, warmed for 1 s, then loaded for 3 s (autocannon, 50
// connections); it counts as slow when two or more Mark-Compacts run during those 3 s (a fast process
// runs none). Prints requests/s and p99 per process, `!` marking the slow ones.
// Run: npm run build && (cd bench && node gc-mode.mjs [processes=30] ["extra node flags"] [mock|healthz])
import { measure, startService } from './lib.mjs';

const count = Number(process.argv[2] ?? 30);
const flags = (process.argv[3] ?? '').split(' ').filter(Boolean);
const target = process.argv[4] ?? 'mock';
let slow = 0;
const rows = [];
for (let i = 0; i < count; i++) {
  const service = await startService({ nodeArgs: ['--trace-gc', ...flags] });
  let markCompacts = 0;
  service.process.stdout.on('data', (chunk) => (markCompacts += (String(chunk).match(/Mark-Compact/g) ?? []).length));
  let url = `${service.url}/healthz`;
  if (target === 'mock') {
    const res = await fetch(`${service.url}/v1/mocks`, {
      method: 'POST',
      headers: { 'x-api-key': service.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ ttl_seconds: 3600, body: '{"a":1}' }),
    });
    url = (await res.json()).url;
  }
  await measure({ url, duration: 1, warmup: 0 });
  const before = markCompacts;
  const run = await measure({ url, duration: 3, warmup: 0 });
  const isSlow = markCompacts - before >= 2;
  if (isSlow) slow++;
  rows.push(`${run.rps}/${run.p99_ms}${isSlow ? '!' : ''}`);
  await service.stop();
}
console.log(`${target}, node flags [${flags.join(' ')}]: ${slow} of ${count} processes slow (requests/s / p99 ms): ${rows.join(' ')}`);
