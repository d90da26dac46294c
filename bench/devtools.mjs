// Devtools benchmark (issue 4): requests per second of each developer tool on a typical small input,
// against GET /healthz of the same service in the same run. Targets: JMESPath (json-transform),
// number-format and array-ops >= 60% of /healthz; a repeated JSON Schema validation >= 50% (compile cache).
// A tool whose route does not answer 200 in this build is skipped and listed as such.
// Run: npm run build && (cd bench && npm install && node devtools.mjs)   [BENCH_SECONDS=4, BENCH_ROUNDS=3; BENCH_PIN=1 pins the service to its own CPU]
import { loadavg } from 'node:os';
import { pairedWithHealthz, startService, writeResults } from './lib.mjs';
import { BODIES, people } from './request-bodies.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const loadAtStart = loadavg().map((x) => Math.round(x * 10) / 10); // other work on the host skews every figure

/** One typical small request per tool; `target` is the share of /healthz the issue asks for. */
const TOOLS = [
  { title: 'json-transform (JMESPath)', path: '/v1/json-transform', target: 60, body: BODIES.jmespath },
  {
    title: 'json-schema-validate (same schema repeated)',
    path: '/v1/json-schema-validate',
    target: 50,
    body: BODIES.schemaValidate,
    expect: (b) => b.valid === true,
  },
  { title: 'json-to-schema', path: '/v1/json-to-schema', body: { data: people } },
  // 16 connections: one key may have 3 patterns running and 16 waiting (REGEX_POOL); at 50 most answers were 429s.
  {
    title: 'regex-extract (16 connections)',
    path: '/v1/regex-extract',
    connections: 16,
    body: { pattern: '(?<user>\\w+)@(?<host>[\\w.]+)', text: 'Mail ada@example.com or grace@navy.mil, not bob@', flags: 'i' },
  },
  { title: 'number-format (currency de_DE)', path: '/v1/number-format', target: 60, body: BODIES.numberCurrency },
  {
    title: 'date-format',
    path: '/v1/date-format',
    body: { date: '2026-11-21T10:15:30Z', output_format: '%A %d %B %Y %H:%M %Z', to_timezone: 'Europe/Berlin' },
  },
  { title: 'array-ops (sort by key, the 5 records of the JMESPath case)', path: '/v1/array-ops', target: 60, body: BODIES.sortPeople },
  {
    title: 'array-ops (sort by key, 20 objects)',
    path: '/v1/array-ops',
    body: BODIES.sortByKey,
    note: 'a larger input, mostly parsing and serializing 929 B of JSON',
  },
  { title: 'array-ops (deduplicate 20 numbers)', path: '/v1/array-ops', body: BODIES.dedupNumbers },
  {
    title: 'mock-data (10 rows × 5 fields, seeded)',
    path: '/v1/mock-data',
    body: {
      rows: 10,
      seed: 42,
      fields: [
        { name: 'id', type: 'sequence' },
        { name: 'name', type: 'name' },
        { name: 'email', type: 'email' },
        { name: 'price', type: 'price' },
        { name: 'sku', type: 'regex', options: { pattern: '[A-Z]{3}-\\d{4}' } },
      ],
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
    throw new Error(
      `service died during "${title}" (exit ${service.process.exitCode}, signal ${service.process.signalCode}): ${serviceLog}`,
    );
  }
};
const post = async (path, body) => {
  const res = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
};

try {
  // Check each request once: a missing route is skipped, a failing one stops the run (no benchmark of errors).
  const available = [];
  const skipped = [];
  for (const tool of TOOLS) {
    const res = await post(tool.path, tool.body);
    if (res.status === 404 && res.body?.code === 'not_found') skipped.push(tool.title);
    else if (res.status !== 200 || (tool.expect && !tool.expect(res.body)))
      throw new Error(`${tool.title}: ${res.status} ${JSON.stringify(res.body)}`);
    else available.push(tool);
  }

  // The machine may be shared: every case runs in rounds, each right after a GET /healthz run of the
  // same process; per case the median ratio, by requests/s and by the service's CPU per request.
  const rows = await pairedWithHealthz({
    service,
    rounds,
    duration,
    cases: [
      // Reference: authentication alone (key lookup, rate limit; no credit), what every tool call pays before its work.
      { title: 'GET /v1/account (auth only, reference)', path: '/v1/account', headers },
      ...available.map((tool) => ({ title: tool.title, path: tool.path, headers, body: tool.body, connections: tool.connections })),
    ],
  });
  checkAlive('the last tool');
  const verdicts = TOOLS.filter((t) => t.target).map((t) => {
    const row = rows.find((r) => r.title === t.title);
    if (!row) return `${t.title}: SKIPPED, route not available in this build`;
    const met = (pct) => (pct >= t.target ? 'met' : 'NOT met');
    return `${t.title}: ${row.pct_of_healthz}% of /healthz requests/s (${met(row.pct_of_healthz)}), ${row.cpu_pct_of_healthz}% by service CPU per request (${met(row.cpu_pct_of_healthz)}); target >= ${t.target}%`;
  });
  for (const t of TOOLS.filter((x) => x.note)) {
    const row = rows.find((r) => r.title === t.title);
    if (row) verdicts.push(`${t.title}: ${row.pct_of_healthz}% of /healthz requests/s, no target (${t.note})`);
  }
  for (const title of skipped)
    if (!TOOLS.find((t) => t.title === title).target) verdicts.push(`${title}: SKIPPED, route not available in this build`);
  // A rate that counts refusals (429) or errors measures those, not the tool.
  for (const row of rows)
    if (row.non2xx > 0 || row.errors > 0)
      verdicts.push(`${row.title}: ${row.non2xx} non-2xx answers and ${row.errors} errors: its requests/s are not the tool's`);
  writeResults('devtools', {
    load_average_at_start: loadAtStart,
    note: `${rounds} rounds of ${duration} s per case, each right after a ${duration} s GET /healthz run; pct_of_healthz and cpu_pct_of_healthz are the medians of those paired ratios. One service process (LOG_LEVEL=warn, SQLite store, unlimited-plan key; each devtools call also records its credit use), 50 connections, autocannon in this process; small JSON bodies.`,
    rows,
    skipped,
    verdicts,
  });
} finally {
  await service.stop();
}
