// The SQLite store alone, without HTTP: what a durable 1 KB capture costs in CPU (this process's,
// the checkpointer thread's included) and in bytes written (WAL frames and checkpoint copies, from
// /proc/self/io), by group-commit size. The catch benchmark's group commits hold 27 captures on
// average (50 connections), anywhere from 1 to 50. Each case has its own database; rounds
// alternate between the cases so drift on the shared machine falls on all of them; medians.
// Run: npm run build && (cd bench && node store-catch.mjs)
// Another build: BENCH_DIST=/tmp/wt-old/dist BENCH_RESULT=store-catch-before node store-catch.mjs
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeResults } from './lib.mjs';
import { createRequire } from 'node:module';

const Database = createRequire(import.meta.url)('../node_modules/better-sqlite3');

// BENCH_DIST measures another build (e.g. an older commit's, built in a git worktree).
const dist = pathToFileURL(join(process.env.BENCH_DIST ?? new URL('../dist', import.meta.url).pathname, 'src/'));
const { createSqliteStore } = await import(new URL('storage/sqlite/sqlite-store.js', dist).href);
// Builds before src/lib/ have the ids module at the root of src/.
const { newId, newTimeOrderedId } = await import(new URL('lib/ids.js', dist).href).catch(() => import(new URL('ids.js', dist).href));

const rounds = Number(process.env.BENCH_ROUNDS ?? 9);
const perRound = Number(process.env.BENCH_CAPTURES ?? 10000);
const written = () => Number(/wchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))[1]);
const body = Buffer.alloc(1024, 120);
const headers = {
  host: '127.0.0.1:8080',
  'content-type': 'application/json',
  'content-length': '1024',
  'user-agent': 'autocannon',
  connection: 'keep-alive',
};
const cases = [
  { batch: 1, maxRequests: 1000 },
  { batch: 10, maxRequests: 1000 },
  { batch: 27, maxRequests: 1000 },
  { batch: 50, maxRequests: 1000 },
  { batch: 27, maxRequests: 100000 },
  { batch: 1, maxRequests: 1000, pageSize: 4096 },
  { batch: 27, maxRequests: 1000, pageSize: 8192 },
  { batch: 10, maxRequests: 1000, pageSize: 4096 },
  { batch: 27, maxRequests: 1000, pageSize: 4096 },
  { batch: 50, maxRequests: 1000, pageSize: 4096 },
];

async function open({ batch, maxRequests, pageSize }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'devutil-store-bench-'));
  if (pageSize) {
    // A database made before the store's PAGE_SIZE: it keeps the page size it was made with.
    const made = new Database(join(dataDir, 'devutil.db'));
    made.pragma(`page_size = ${pageSize}`);
    made.pragma('journal_mode = WAL');
    made.close();
  }
  const store = createSqliteStore({ dataDir });
  const binId = newId('bin_');
  const t = Date.now();
  await store.bins.createBin({ id: binId, ownerKeyId: 'key_bench', name: null, createdAt: t, expiresAt: t + 172_800_000, requestCount: 0 });
  const run = async (n) => {
    for (let i = 0; i < n; i += batch) {
      const now = Date.now();
      const pending = [];
      for (let j = 0; j < batch; j++) {
        const record = {
          id: newTimeOrderedId('req_', now),
          binId,
          method: 'POST',
          path: `/v1/catch/${binId}`,
          queryString: '',
          headers,
          body,
          contentType: 'application/json',
          sourceIp: '127.0.0.1',
          timestamp: now,
        };
        pending.push(store.bins.captureRequest(record, { maxRequests, now }));
      }
      await Promise.all(pending);
    }
  };
  return { store, run };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const opened = [];
for (const c of cases) opened.push(await open(c));
// Warm-up: past the retention cap of 1000, and the JIT settled.
for (const o of opened) await o.run(5000);
const samples = cases.map(() => []);
for (let round = 0; round < rounds; round++) {
  for (const [i, o] of opened.entries()) {
    const cpu0 = process.cpuUsage();
    const w0 = written();
    await o.run(perRound);
    const cpu = process.cpuUsage(cpu0);
    samples[i].push({
      cpu: (cpu.user + cpu.system) / perRound,
      user: cpu.user / perRound,
      sys: cpu.system / perRound,
      kib: (written() - w0) / perRound / 1024,
    });
  }
}
for (const o of opened) await o.store.close();
const rows = cases.map((c, i) => ({
  case: `group commits of ${c.batch}, BIN_MAX_REQUESTS ${c.maxRequests}${c.maxRequests < 5000 + rounds * perRound ? ' (retention on)' : ' (not reached)'}${c.pageSize ? `, ${c.pageSize / 1024} KiB pages` : ''}`,
  cpu_us_per_capture: median(samples[i].map((s) => s.cpu)).toFixed(2),
  user_us: median(samples[i].map((s) => s.user)).toFixed(2),
  system_us: median(samples[i].map((s) => s.sys)).toFixed(2),
  kib_written_per_capture: median(samples[i].map((s) => s.kib)).toFixed(1),
  cpu_per_round: samples[i].map((s) => s.cpu.toFixed(1)).join(' / '),
}));
writeResults(process.env.BENCH_RESULT ?? 'store-catch', {
  note: `The SQLite store alone (file, WAL, synchronous=NORMAL, its checkpointer thread), one bin, 1 KB bodies; ${rounds} alternating rounds of ${perRound} captures per case after 5000 of warm-up; medians. CPU is the whole process's; bytes are those this process wrote (WAL frames and checkpoint copies).`,
  rows,
});
