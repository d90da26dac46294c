// Userland instructions per request of one route, for two builds side by side, counted by valgrind's
// callgrind: repeatable to about 10% from run to run, where CPU time per request on the shared 2-vCPU
// machine swings by 30% between neighbouring runs. Use it to compare a change with the build before it.
// Kernel work (the socket system calls, a large share of a small request) is not counted.
// BENCH_CACHE_SIM=1 also simulates the caches and branch predictor (callgrind --cache-sim --branch-sim,
// about twice as slow): L1 instruction and data misses and mispredicted branches per request, which
// cost time that the instruction count does not show.
//
// Run: npm run build && cp -r dist /tmp/dist-before   (then change, rebuild)
//      cd bench && BENCH_LABELS=before,after node instructions.mjs /tmp/dist-before ../dist mock [requests]
//      (one build alone, printed only: node instructions.mjs ../dist - mock)
//      (against the plain Fastify ceiling app: node instructions.mjs ceiling ../dist sha256)
// Cases: healthz, account, mock, catch, jmespath, number, sort, dedup, schema, sha256, hs256, dnsget, dnspost.
// Each build serves from its own service process under valgrind (about 100 s per run; both run at once).
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BENCH_ZONE, startDnsServer } from './dns-server.mjs';
import { ADMIN_TOKEN, freePort, writeResults } from './lib.mjs';
import { ROUTE_CASES } from './request-bodies.mjs';

const [distA, distB, name = 'healthz', requestsArg] = process.argv.slice(2);
if (!distA || !distB) throw new Error('usage: node instructions.mjs <dist before> <dist after> <case> [requests]');
const requests = Number(requestsArg ?? 10000);
// Keep-alive clients with a request in flight each (BENCH_CONNECTIONS, default 8).
const connections = Number(process.env.BENCH_CONNECTIONS ?? 8);
// Names for the two builds in the results (e.g. the commits they were built from); default: their paths.
const [labelA = distA, labelB = distB] = (process.env.BENCH_LABELS ?? '').split(',').filter(Boolean);
// Long enough for the JIT to settle: with 1500 requests of warm-up and 1000 measured, optimizing
// compilation and a major GC were most of the count (healthz: 439k instructions vs 73k in steady state).
const warmup = Number(process.env.BENCH_WARMUP ?? 20000);
const cacheSim = process.env.BENCH_CACHE_SIM === '1';
// valgrind names its control pipe after HOST, which the service's environment sets: both sides must agree.
const HOST = '127.0.0.1';

// Services under valgrind still running: killed when this process ends, however it ends (one build
// failing must not leave the other's service behind).
const services = new Set();
process.on('exit', () => services.forEach((c) => c.kill('SIGKILL')));

/** Each case: how to set it up on a running service, given its URL, key header and a JSON POST helper. */
const CASES = {
  ...ROUTE_CASES,
  // The same cached lookup by query string and by JSON body (DNS_SERVERS: the server below).
  dnsget: async ({ h }) => ({ path: '/v1/lookup?domain=bench.test&type=A', headers: h }),
  dnspost: async ({ h }) => ({ path: '/v1/devtools/dns-lookup', headers: h, body: { domain: 'bench.test', type: 'A' } }),
};
if (!CASES[name]) throw new Error(`unknown case ${name}; one of ${Object.keys(CASES).join(', ')}`);

// The dns cases ask a DNS server on loopback (bench.test A, one-hour TTL), never the machine's resolver.
const dnsServers = name.startsWith('dns') ? (await startDnsServer(BENCH_ZONE)).address : undefined;

async function countBuild(dist) {
  const port = await freePort();
  const out = mkdtempSync(join(tmpdir(), 'devutil-callgrind-'));
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // `ceiling`: the plain Fastify app of fastify-ceiling-server.mjs (tool and catch cases).
  const ceiling = dist === 'ceiling';
  const script = ceiling ? new URL('fastify-ceiling-server.mjs', import.meta.url).pathname : join(resolve(dist), 'src/cli/main.js');
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--separate-threads=yes',
      ...(cacheSim ? ['--cache-sim=yes', '--branch-sim=yes'] : []),
      `--callgrind-out-file=${out}/cg.%p`,
      process.execPath,
      ...nodeArgs,
      script,
      ...(ceiling ? [] : ['serve']),
    ],
    {
      env: {
        ...process.env,
        HOST,
        PORT: String(port),
        DATA_DIR: mkdtempSync(join(tmpdir(), 'devutil-bench-')),
        ADMIN_TOKEN,
        LOG_LEVEL: 'warn',
        ...(dnsServers ? { DNS_SERVERS: dnsServers } : {}),
      },
      stdio: 'ignore',
    },
  );
  services.add(child);
  const url = `http://${HOST}:${port}`;
  try {
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`service under valgrind exited with ${child.exitCode}`);
      if (i > 600) throw new Error('service under valgrind did not start in 5 minutes');
      try {
        if ((await fetch(`${url}/healthz`)).ok) break;
      } catch {
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    // The ceiling reads no key, but gets one of the same length, so that both read the same request bytes.
    const key = ceiling
      ? `dk_${'0'.repeat(32)}`
      : (
          await (
            await fetch(`${url}/v1/admin/keys`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
              body: '{"plan":"unlimited"}',
            })
          ).json()
        ).api_key;
    const h = { 'x-api-key': key };
    const post = async (path, body) =>
      (
        await fetch(url + path, { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: JSON.stringify(body) })
      ).json();
    const c = await CASES[name]({ h, post });
    const body = c.body === undefined ? undefined : typeof c.body === 'string' ? c.body : JSON.stringify(c.body);
    const headers = {
      ...(c.headers ?? {}),
      ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
    };
    const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
    const one = () =>
      new Promise((ok, fail) => {
        const req = http.request(url + c.path, { method: body ? 'POST' : 'GET', agent, headers }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode < 300 ? ok() : fail(new Error(`${name}: status ${res.statusCode}`))));
        });
        req.on('error', fail);
        req.end(body);
      });
    // `connections` requests in flight at a time, as that many keep-alive clients.
    const burst = async (n) => {
      let left = n;
      await Promise.all(
        Array.from({ length: connections }, async () => {
          while (left-- > 0) await one();
        }),
      );
    };
    const control = (command) =>
      execFileSync('callgrind_control', [command, String(child.pid)], { stdio: 'ignore', env: { ...process.env, HOST } });
    await burst(warmup);
    control('-z');
    await burst(requests);
    control('-d');
    // A process idle in epoll reads valgrind's commands only when it wakes: poke it until the dump is there.
    for (let i = 0; i < 100; i++) {
      await new Promise((r) => setTimeout(r, 300));
      await fetch(`${url}/healthz`).catch(() => {});
      // One file per thread (--separate-threads): -01 is the event loop; the others are V8's
      // helpers (concurrent marking, compilation) and the libuv pool.
      // Each event's total (Ir first: instructions), by the names of the file's `events:` line.
      const totals = (file) => {
        const text = readFileSync(join(out, file), 'utf8');
        const values = /^(?:summary|totals): ([\d ]+)/m.exec(text)?.[1].trim().split(' ').map(Number);
        const names = /^events: (.+)$/m.exec(text)?.[1].trim().split(' ') ?? [];
        return values ? Object.fromEntries(names.map((name, i) => [name, values[i] ?? 0])) : null;
      };
      const count = (file) => totals(file)?.Ir ?? NaN;
      const files = readdirSync(out).filter((f) => /\.1-\d+$/.test(f));
      const main = files.find((f) => f.endsWith('-01'));
      if (main && !Number.isNaN(count(main))) {
        await new Promise((r) => setTimeout(r, 500)); // the other threads' files are written with it
        const all = readdirSync(out)
          .filter((f) => /\.1-\d+$/.test(f))
          .reduce((n, f) => n + (count(f) || 0), 0);
        const t = totals(main);
        const perRequest = (...events) => Math.round(events.reduce((n, e) => n + (t[e] ?? 0), 0) / requests);
        const misses = cacheSim
          ? { l1i_misses: perRequest('I1mr'), l1d_misses: perRequest('D1mr', 'D1mw'), mispredicts: perRequest('Bcm', 'Bim') }
          : {};
        return { main: perRequest('Ir'), all: Math.round(all / requests), misses };
      }
    }
    throw new Error('callgrind wrote no dump');
  } finally {
    child.kill('SIGKILL');
  }
}

if (distB === '-') {
  // One build only (a baseline): print, write nothing.
  const only = await countBuild(distA);
  const { l1i_misses, l1d_misses, mispredicts } = only.misses;
  const misses = cacheSim ? `; per request ${l1i_misses} L1i and ${l1d_misses} L1d misses, ${mispredicts} mispredicted branches` : '';
  console.log(`${name}: ${only.main} instructions/request on the event loop, ${only.all} in all threads (${labelA})${misses}`);
  process.exit(0);
}
const [before, after] = await Promise.all([countBuild(distA), countBuild(distB)]);
const ratioOf = (a, b) => Math.round((b / a) * 1000) / 1000;
// The ratio column of each simulated count.
const MISS_RATIOS = { l1i_misses: 'l1i_ratio', l1d_misses: 'l1d_ratio', mispredicts: 'mispredict_ratio' };
writeResults(`instructions-${name}`, {
  note:
    `Userland instructions per request (valgrind callgrind, kernel work not counted) of ${name}: ${requests} requests after ${warmup} of warm-up, ${connections} keep-alive connections, LOG_LEVEL=warn, SQLite store; both builds at once, each in its own service process. event_loop: the main thread alone; all_threads adds V8's helper threads (concurrent GC marking, optimizing compiler), whose share depends on whether a major GC falls in the window.` +
    (cacheSim
      ? ' With the cache and branch simulation (L1 sizes as valgrind reads them from this CPU): misses and mispredicted branches per request on the event loop.'
      : ''),
  pinned: false,
  rows: [
    { build: labelA, event_loop_per_request: before.main, all_threads_per_request: before.all, ...before.misses },
    {
      build: labelB,
      event_loop_per_request: after.main,
      all_threads_per_request: after.all,
      ...after.misses,
      event_loop_ratio: ratioOf(before.main, after.main),
      all_threads_ratio: ratioOf(before.all, after.all),
      ...(cacheSim
        ? Object.fromEntries(
            Object.entries(MISS_RATIOS).map(([miss, column]) => [column, ratioOf(before.misses[miss], after.misses[miss])]),
          )
        : {}),
    },
  ],
});
