// Userland instructions per request of one route, for two builds side by side, counted by valgrind's
// callgrind: repeatable to about 10% from run to run, where CPU time per request on the shared 2-vCPU
// machine swings by 30% between neighbouring runs. Use it to compare a change with the build before it.
// Kernel work (the socket system calls, a large share of a small request) is not counted.
//
// Run: npm run build && cp -r dist /tmp/dist-before   (then change, rebuild)
//      cd bench && BENCH_LABELS=before,after node instructions.mjs /tmp/dist-before ../dist mock [requests]
// Cases: healthz, account, mock, catch, jmespath, number, sort, sha256, hs256.
// Each build serves from its own service process under valgrind (about 100 s per run; both run at once).
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ADMIN_TOKEN, freePort, writeResults } from './lib.mjs';

const [distA, distB, name = 'healthz', requestsArg] = process.argv.slice(2);
if (!distA || !distB) throw new Error('usage: node instructions.mjs <dist before> <dist after> <case> [requests]');
const requests = Number(requestsArg ?? 1000);
// Names for the two builds in the results (e.g. the commits they were built from); default: their paths.
const [labelA = distA, labelB = distB] = (process.env.BENCH_LABELS ?? '').split(',').filter(Boolean);
const warmup = Number(process.env.BENCH_WARMUP ?? 1500);
// valgrind names its control pipe after HOST, which the service's environment sets: both sides must agree.
const HOST = '127.0.0.1';

const people = [{ name: 'Ada', age: 36, city: 'London' }, { name: 'Grace', age: 45, city: 'New York' }, { name: 'Linus', age: 21, city: 'Helsinki' }, { name: 'Margaret', age: 33, city: 'Boston' }, { name: 'Dennis', age: 17, city: 'Berkeley' }];
/** Each case: how to set it up on a running service, given its URL, key header and a JSON POST helper. */
const CASES = {
  healthz: async () => ({ path: '/healthz' }),
  account: async ({ h }) => ({ path: '/v1/account', headers: h }),
  mock: async ({ post }) => ({ path: new URL((await post('/v1/mocks', { ttl_seconds: 172800, body: 'x'.repeat(240) })).url).pathname }),
  catch: async ({ post }) => ({ path: `/v1/catch/${(await post('/v1/bins', {})).bin.bin_id}`, body: JSON.stringify({ event: 'x'.repeat(1000) }) }),
  jmespath: async ({ h }) => ({ path: '/v1/json-transform', headers: h, body: { data: { people }, expression: 'people[?age > `20`].{n: name, c: city} | sort_by(@, &n)' } }),
  number: async ({ h }) => ({ path: '/v1/number-format', headers: h, body: { number: 1234567.891, format_type: 'currency', locale: 'de_DE', currency: 'EUR' } }),
  sort: async ({ h }) => ({ path: '/v1/array-ops', headers: h, body: { operation: 'sort', arrays: [[...people, ...people, ...people, ...people]], options: { key: 'age' } } }),
  sha256: async ({ h }) => ({ path: '/v1/auth/hash', headers: h, body: { data: 'x'.repeat(64), algorithm: 'sha256' } }),
  hs256: async ({ h, post }) => {
    const secret = 'bench-secret-bench-secret-bench-secret!';
    const { token } = await post('/v1/auth/jwt-generate', { payload: { sub: 'user-42', role: 'admin' }, secret, algorithm: 'HS256' });
    return { path: '/v1/auth/jwt-verify', headers: h, body: { token, secret } };
  },
};
if (!CASES[name]) throw new Error(`unknown case ${name}; one of ${Object.keys(CASES).join(', ')}`);

async function countBuild(dist) {
  const port = await freePort();
  const out = mkdtempSync(join(tmpdir(), 'devutil-callgrind-'));
  const child = spawn('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}/cg.%p`, process.execPath, join(resolve(dist), 'src/cli/main.js'), 'serve'], {
    env: { ...process.env, HOST, PORT: String(port), DATA_DIR: mkdtempSync(join(tmpdir(), 'devutil-bench-')), ADMIN_TOKEN, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
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
    const key = (await (await fetch(`${url}/v1/admin/keys`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN }, body: '{"plan":"unlimited"}' })).json()).api_key;
    const h = { 'x-api-key': key };
    const post = async (path, body) => (await fetch(url + path, { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
    const c = await CASES[name]({ h, post });
    const body = c.body === undefined ? undefined : typeof c.body === 'string' ? c.body : JSON.stringify(c.body);
    const headers = { ...(c.headers ?? {}), ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}) };
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const one = () => new Promise((ok, fail) => {
      const req = http.request(url + c.path, { method: body ? 'POST' : 'GET', agent, headers }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode < 300 ? ok() : fail(new Error(`${name}: status ${res.statusCode}`))));
      });
      req.on('error', fail);
      req.end(body);
    });
    // 8 requests in flight at a time, as 8 keep-alive clients.
    const burst = async (n) => {
      let left = n;
      await Promise.all(Array.from({ length: 8 }, async () => { while (left-- > 0) await one(); }));
    };
    const control = (command) => execFileSync('callgrind_control', [command, String(child.pid)], { stdio: 'ignore', env: { ...process.env, HOST } });
    await burst(warmup);
    control('-z');
    await burst(requests);
    control('-d');
    // A process idle in epoll reads valgrind's commands only when it wakes: poke it until the dump is there.
    for (let i = 0; i < 100; i++) {
      await new Promise((r) => setTimeout(r, 300));
      await fetch(`${url}/healthz`).catch(() => {});
      for (const file of readdirSync(out).filter((f) => f.split('.').length > 2)) {
        const m = /^(?:summary|totals): (\d+)/m.exec(readFileSync(join(out, file), 'utf8'));
        if (m) return Math.round(Number(m[1]) / requests);
      }
    }
    throw new Error('callgrind wrote no dump');
  } finally {
    child.kill('SIGKILL');
  }
}

const [before, after] = await Promise.all([countBuild(distA), countBuild(distB)]);
writeResults(`instructions-${name}`, {
  note: `Userland instructions per request (valgrind callgrind, kernel work not counted) of ${name}: ${requests} requests after ${warmup} of warm-up, 8 keep-alive connections, LOG_LEVEL=warn, SQLite store; both builds at once, each in its own service process.`,
  pinned: false,
  rows: [
    { build: labelA, instructions_per_request: before },
    { build: labelB, instructions_per_request: after, ratio_to_first: Math.round((after / before) * 1000) / 1000 },
  ],
});
