// Devtools benchmark (issue 4): requests per second of each developer tool on a typical small input,
// against GET /healthz of the same service in the same run. Targets: JMESPath (json-transform),
// number-format and array-ops >= 60% of /healthz; a repeated JSON Schema validation >= 50% (compile cache).
// A tool whose route does not answer 200 in this build is skipped and listed as such.
// Run: npm run build && (cd bench && npm install && node devtools.mjs)   [BENCH_SECONDS=8 by default]
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { measure, ratio, startService, writeResults } from './lib.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 8);
const loadAtStart = loadavg().map((x) => Math.round(x * 10) / 10); // other work on the host skews every figure

const people = [
  { name: 'Ada', age: 36, city: 'London' },
  { name: 'Grace', age: 45, city: 'New York' },
  { name: 'Linus', age: 21, city: 'Helsinki' },
  { name: 'Margaret', age: 33, city: 'Boston' },
  { name: 'Dennis', age: 17, city: 'Berkeley' },
];

/** One typical small request per tool; `target` is the share of /healthz the issue asks for. */
const TOOLS = [
  { title: 'json-transform (JMESPath)', path: '/v1/json-transform', target: 60, body: { data: { people }, expression: 'people[?age > `20`].{n: name, c: city} | sort_by(@, &n)' } },
  {
    title: 'json-schema-validate (same schema repeated)',
    path: '/v1/json-schema-validate',
    target: 50,
    body: {
      data: { name: 'Ada', age: 36, email: 'ada@example.com', tags: ['math', 'code'] },
      schema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        required: ['name', 'age'],
        properties: { name: { type: 'string', minLength: 1 }, age: { type: 'integer', minimum: 0 }, email: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
    },
    expect: (b) => b.valid === true,
  },
  { title: 'json-to-schema', path: '/v1/json-to-schema', body: { data: people } },
  { title: 'regex-extract', path: '/v1/regex-extract', body: { pattern: '(?<user>\\w+)@(?<host>[\\w.]+)', text: 'Mail ada@example.com or grace@navy.mil, not bob@', flags: 'i' } },
  { title: 'number-format (currency de_DE)', path: '/v1/number-format', target: 60, body: { number: 1234567.891, format_type: 'currency', locale: 'de_DE', currency: 'EUR' } },
  { title: 'date-format', path: '/v1/date-format', body: { date: '2026-11-21T10:15:30Z', output_format: '%A %d %B %Y %H:%M %Z', to_timezone: 'Europe/Berlin' } },
  { title: 'array-ops (sort by key, 20 objects)', path: '/v1/array-ops', target: 60, body: { operation: 'sort', arrays: [[...people, ...people, ...people, ...people]], options: { key: 'age' } } },
  { title: 'array-ops (deduplicate 20 numbers)', path: '/v1/array-ops', body: { operation: 'deduplicate', arrays: [[5, 3, 9, 1, 7, 3, 5, 0, 2, 8], [4, 6, 9, 1, 0, 2, 2, 7, 6, 5]] } },
  {
    title: 'mock-data (10 rows × 5 fields, seeded)',
    path: '/v1/mock-data',
    body: {
      rows: 10,
      seed: 42,
      fields: [{ name: 'id', type: 'sequence' }, { name: 'name', type: 'name' }, { name: 'email', type: 'email' }, { name: 'price', type: 'price' }, { name: 'sku', type: 'regex', options: { pattern: '[A-Z]{3}-\\d{4}' } }],
    },
  },
];

const service = await startService();
const headers = { 'x-api-key': service.apiKey };
let serviceLog = '';
service.process.stderr.on('data', (chunk) => (serviceLog = (serviceLog + chunk).slice(-4000)));
/** A run is only worth recording if the service stayed up and answered without transport errors. */
const checkAlive = (title) => {
  if (service.process.exitCode !== null || service.process.signalCode !== null) {
    throw new Error(`service died during "${title}" (exit ${service.process.exitCode}, signal ${service.process.signalCode}): ${serviceLog}`);
  }
};
const post = async (path, body) => {
  const res = await fetch(`${service.url}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json().catch(() => null) };
};

try {
  // Check each request once: a missing route is skipped, a failing one stops the run (no benchmark of errors).
  const available = [];
  const skipped = [];
  for (const tool of TOOLS) {
    const res = await post(tool.path, tool.body);
    if (res.status === 404 && res.body?.code === 'not_found') skipped.push(tool.title);
    else if (res.status !== 200 || (tool.expect && !tool.expect(res.body))) throw new Error(`${tool.title}: ${res.status} ${JSON.stringify(res.body)}`);
    else available.push(tool);
  }

  // Besides requests/s (skewed by whatever else runs on the host), record the service's own CPU time per
  // request, read from /proc: on a quiet host throughput is bounded by it, so its ratio to /healthz is
  // the load-independent figure.
  const cpuMs = () => {
    const fields = readFileSync(`/proc/${service.process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in 100 Hz ticks
  };
  const run = async (options) => {
    await measure({ ...options, duration: 2, warmup: 0 }); // warm-up, not recorded
    const before = cpuMs();
    const row = await measure({ ...options, duration, warmup: 0 });
    row.service_cpu_us_per_req = Math.round(((cpuMs() - before) * 1000) / Math.max(1, row.rps * duration));
    return row;
  };
  const rows = [await run({ url: `${service.url}/healthz`, title: 'GET /healthz' })];
  // Reference: authentication alone (key lookup, rate limit; no credit), to show what every tool call pays before its work.
  rows.push(await run({ url: `${service.url}/v1/account`, headers, title: 'GET /v1/account (auth only, reference)' }));
  for (const tool of available) {
    rows.push(await run({ url: `${service.url}${tool.path}`, method: 'POST', headers, body: tool.body, title: tool.title }));
    checkAlive(tool.title);
  }
  const healthz = rows[0].rps;
  const healthzCpu = rows[0].service_cpu_us_per_req;
  for (const r of rows) {
    r.pct_of_healthz = ratio(r.rps, healthz);
    r.cpu_pct_of_healthz = ratio(healthzCpu, r.service_cpu_us_per_req);
  }
  const verdicts = TOOLS.filter((t) => t.target).map((t) => {
    const row = rows.find((r) => r.title === t.title);
    if (!row) return `${t.title}: SKIPPED, route not available in this build`;
    const met = (pct) => (pct >= t.target ? 'met' : 'NOT met');
    return `${t.title}: ${row.pct_of_healthz}% of /healthz requests/s (${met(row.pct_of_healthz)}), ${row.cpu_pct_of_healthz}% by service CPU per request (${met(row.cpu_pct_of_healthz)}); target >= ${t.target}%`;
  });
  for (const title of skipped) if (!TOOLS.find((t) => t.title === title).target) verdicts.push(`${title}: SKIPPED, route not available in this build`);
  writeResults('devtools', {
    load_average_at_start: loadAtStart,
    note: 'One service process (LOG_LEVEL=warn, SQLite store, unlimited-plan key; each devtools call also records its credit use), 50 connections, autocannon in this process; small JSON bodies.',
    rows,
    skipped,
    verdicts,
  });
} finally {
  await service.stop();
}
