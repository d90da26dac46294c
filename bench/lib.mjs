// Shared benchmark helpers: start the built service or a bare node:http baseline in child processes
// (so the load generator in this process does not share their event loop), measure with autocannon,
// and write results to bench/results/<name>.json and .md.
//
// CPU pinning (BENCH_PIN=1; off by default): on a machine with 2+ CPUs and `taskset`, every server
// under test runs on the last CPU and this process (autocannon) on the others. Pinned, figures of one
// build agree better from one process start to the next (unpinned, the same build measured up to 35%
// apart on this 2-vCPU VM), which suits comparing two builds. The verdicts are measured unpinned, as
// the service is deployed: a pinned service also loses the second core its garbage collector and
// compiler threads use, and 1000 new connections at once queue on its one core.
// scale.mjs, which runs several service processes, never pins them.
import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
export const ADMIN_TOKEN = 'bench-admin-token-0123456789';

const cpuCount = cpus().length;

/**
 * The node flags `npm start` runs the service with (package.json's start script, between `node` and
 * the script): the benchmarks start the service the same way.
 */
export const SERVICE_NODE_FLAGS = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  .scripts.start.split(' ')
  .filter((word) => word.startsWith('--'));
/** CPUs for the servers and for the load generator, or null when pinning is off or impossible. */
export const PINNING =
  process.env.BENCH_PIN === '1' && cpuCount >= 2 && spawnSync('taskset', ['-V']).status === 0
    ? { server: String(cpuCount - 1), load: cpuCount === 2 ? '0' : `0-${cpuCount - 2}` }
    : null;
let loadPinned = false;

/**
 * Spawn `node <args>` as a server under test: pinned to the server CPU (and this process, every
 * thread of it, to the others) when {@link PINNING} is on and `pin` is not false.
 */
export function spawnServer(args, options, { pin = true } = {}) {
  if (!pin || !PINNING) return spawn(process.execPath, args, options);
  if (!loadPinned) {
    spawnSync('taskset', ['-a', '-p', '-c', PINNING.load, String(process.pid)]);
    loadPinned = true;
  }
  return spawn('taskset', ['-c', PINNING.server, process.execPath, ...args], options);
}

/** The pinning sentence for a results note. */
export function pinningNote() {
  return PINNING ? `Servers pinned to CPU ${PINNING.server}, the load generator to CPU ${PINNING.load} (taskset).` : 'No CPU pinning.';
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function waitForLine(child, pattern, what) {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start: ${seen.slice(-2000)}`)), 30000);
    const onData = (chunk) => {
      seen += chunk;
      const m = pattern.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (c) => (seen += c));
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code}: ${seen.slice(-2000)}`)));
  });
}

function stopper(child) {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
}

/**
 * Run the built service (`npm run build` first) on a free loopback port with a fresh data dir.
 * Returns its URL and a key on the `unlimited` plan. LOG_LEVEL defaults to warn (say so in results).
 * Node runs with `npm start`'s flags ({@link SERVICE_NODE_FLAGS}; not with BENCH_START_FLAGS=0), then
 * BENCH_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) or `nodeArgs`.
 * `dist` runs another build (a copy of dist/, e.g. to compare two builds side by side).
 */
export async function startService({
  env = {},
  nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
  pin = true,
  dist = join(root, 'dist'),
} = {}) {
  nodeArgs = [...(process.env.BENCH_START_FLAGS === '0' ? [] : SERVICE_NODE_FLAGS), ...nodeArgs];
  const port = env.PORT ?? (await freePort());
  const child = spawnServer(
    [...nodeArgs, join(dist, 'src/cli/main.js'), 'serve'],
    {
      cwd: root,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: mkdtempSync(join(tmpdir(), 'devutil-bench-')),
        ADMIN_TOKEN,
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
    { pin },
  );
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  let log = '';
  child.stdout.on('data', (c) => (log += c));
  child.stderr.on('data', (c) => (log += c));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`service exited: ${log.slice(-2000)}`);
    if (i > 600) throw new Error(`service did not start: ${log.slice(-2000)}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const res = await fetch(`${url}/v1/admin/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
    body: JSON.stringify({ name: 'bench', plan: 'unlimited' }),
  });
  const { api_key: apiKey } = await res.json();
  return { url, apiKey, adminToken: ADMIN_TOKEN, process: child, stop: stopper(child) };
}

/**
 * Run one of bench/'s own servers (`script`, which prints `PORT <n>` once it listens) with `env` and
 * node flags `nodeArgs`. Returns its URL, process and pid, and a stop function.
 */
export async function startScriptServer(script, { env = {}, nodeArgs = [], pin = true } = {}) {
  const child = spawnServer(
    [...nodeArgs, join(here, script)],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    { pin },
  );
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  const [, port] = await waitForLine(child, /PORT (\d+)/, script);
  return { url: `http://127.0.0.1:${port}`, process: child, pid: child.pid, stop: stopper(child) };
}

/** A bare node:http server answering a JSON body of `bodyBytes` bytes (with `headers` too, if given): the baseline. */
export function startBareServer({ bodyBytes = 16, headers = {}, pin = true } = {}) {
  return startScriptServer('bare-server.mjs', { env: { BODY_BYTES: String(bodyBytes), EXTRA_HEADERS: JSON.stringify(headers) }, pin });
}

/** One autocannon run; numbers rounded for the results table. */
export async function measure({ url, method = 'GET', headers = {}, body, connections = 50, duration = 8, warmup = 2, title }) {
  const options = {
    url,
    method,
    headers: body !== undefined ? { 'content-type': 'application/json', ...headers } : headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    connections,
  };
  // A short unrecorded run first, so JIT warm-up does not count against the service.
  if (warmup > 0) await autocannon({ ...options, duration: warmup });
  const result = await autocannon({ ...options, duration });
  return {
    title: title ?? `${method} ${new URL(url).pathname}`,
    rps: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    connections,
    duration_s: duration,
  };
}

/** Write `results` (an object with a `rows` array and free-form fields) as JSON and a Markdown table. */
export function writeResults(name, results) {
  const dir = join(here, 'results');
  mkdirSync(dir, { recursive: true });
  const stamped = { name, date: new Date().toISOString(), node: process.version, cpus: cpuCount, pinning: PINNING, ...results };
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(stamped, null, 2) + '\n');
  const rows = results.rows ?? [];
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const md = [
    `# ${name}`,
    '',
    `${stamped.date}, Node ${process.version}. ${results.note ?? ''} ${results.pinned === false ? 'No CPU pinning.' : pinningNote()}`,
    '',
    `| ${cols.join(' | ')} |`,
    `| ${cols.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${cols.map((c) => (r[c] === undefined ? '' : String(r[c]))).join(' | ')} |`),
    '',
    ...(results.verdicts ?? []).map((v) => `- ${v}`),
    '',
  ].join('\n');
  writeFileSync(join(dir, `${name}.md`), md);
  console.log(md);
  return stamped;
}

/** `part / whole` as a percentage with one decimal. */
export function ratio(part, whole) {
  return Math.round((part / whole) * 1000) / 10;
}

/** Mean rps and p50, worst p99, summed error counts of several rounds of one measurement. */
export function summarize(results, title) {
  const mean = (key) => Math.round(results.reduce((sum, r) => sum + r[key], 0) / results.length);
  const max = (key) => Math.max(...results.map((r) => r[key]));
  const total = (key) => results.reduce((sum, r) => sum + r[key], 0);
  return {
    ...results[0],
    title,
    rps: mean('rps'),
    p50_ms: mean('p50_ms'),
    p99_ms: max('p99_ms'),
    non2xx: total('non2xx'),
    errors: total('errors'),
  };
}

/**
 * Run every named measurement once per round, in turn (a, b, c, a, b, c, ...), so that load from
 * other processes on a shared machine falls on all of them alike. Returns name → per-round results.
 */
export async function alternate(rounds, measurements) {
  const runs = Object.fromEntries(Object.keys(measurements).map((name) => [name, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const [name, run] of Object.entries(measurements)) runs[name].push(await run(round));
  }
  return runs;
}

/** User + system CPU time a process has used so far, in microseconds (/proc/<pid>/stat fields 14 and 15, 100 Hz ticks). */
export function readCpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Measure every case against GET /healthz of the same service: in each of `rounds` rounds, /healthz
 * runs right before each case, so every ratio compares two neighbouring runs of one process; per case
 * the row keeps the median ratios, by requests/s and by the service's CPU time per request.
 * A case is `{ title, path, method?, headers?, body?, connections? }` (its own connection count, for
 * a route that bounds one caller's concurrent requests; its paired /healthz runs use the same count);
 * the first row is /healthz itself, at `connections`.
 */
export async function pairedWithHealthz({ service, cases, rounds, duration, connections = 50 }) {
  const timed = async (c) => {
    const options = {
      url: `${service.url}${c.path}`,
      method: c.method ?? (c.body ? 'POST' : 'GET'),
      headers: c.headers ?? {},
      body: c.body,
      title: c.title,
      connections: c.connections ?? connections,
    };
    await measure({ ...options, duration: 1, warmup: 0 });
    const before = readCpuMicros(service.process.pid);
    const r = await measure({ ...options, duration, warmup: 0 });
    return { ...r, cpu_us_per_req: Math.round((readCpuMicros(service.process.pid) - before) / Math.max(1, r.rps * duration)) };
  };
  const healthz = { title: 'GET /healthz', path: '/healthz' };
  const healthRuns = [];
  const rows = [];
  for (const c of cases) {
    const pairs = [];
    for (let round = 0; round < rounds; round++) {
      const h = await timed({ ...healthz, connections: c.connections });
      const r = await timed(c);
      // The /healthz row describes runs at the common connection count only.
      if (c.connections === undefined || c.connections === connections) healthRuns.push(h);
      pairs.push({ r, rpsPct: ratio(r.rps, h.rps), cpuPct: ratio(h.cpu_us_per_req, r.cpu_us_per_req) });
    }
    rows.push({
      title: c.title,
      rps: median(pairs.map((p) => p.r.rps)),
      p50_ms: median(pairs.map((p) => p.r.p50_ms)),
      p99_ms: median(pairs.map((p) => p.r.p99_ms)),
      non2xx: pairs.reduce((n, p) => n + p.r.non2xx, 0),
      errors: pairs.reduce((n, p) => n + p.r.errors, 0),
      service_cpu_us_per_req: median(pairs.map((p) => p.r.cpu_us_per_req)),
      pct_of_healthz: median(pairs.map((p) => p.rpsPct)),
      cpu_pct_of_healthz: median(pairs.map((p) => p.cpuPct)),
      pct_per_round: pairs.map((p) => p.rpsPct).join(' / '),
      connections: c.connections ?? connections,
    });
  }
  rows.unshift({
    title: healthz.title,
    rps: median(healthRuns.map((r) => r.rps)),
    p50_ms: median(healthRuns.map((r) => r.p50_ms)),
    p99_ms: median(healthRuns.map((r) => r.p99_ms)),
    non2xx: healthRuns.reduce((n, r) => n + r.non2xx, 0),
    errors: healthRuns.reduce((n, r) => n + r.errors, 0),
    service_cpu_us_per_req: median(healthRuns.map((r) => r.cpu_us_per_req)),
    pct_of_healthz: 100,
    cpu_pct_of_healthz: 100,
    pct_per_round: '',
    connections,
  });
  return rows;
}
