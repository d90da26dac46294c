// Format tools benchmark (issue 4 items 5-7): requests per second of regex-extract, number-format and
// date-format on small inputs against GET /healthz of the same service in the same run, then /healthz
// and a normal regex while a client keeps sending the catastrophic `(a+)+$` (each stopped after the
// regex time budget): the event loop must stay free.
// Run: npm run build && (cd bench && npm install && node format-tools.mjs)   [BENCH_SECONDS=8 by default]
import autocannon from 'autocannon';
import { measure, ratio, startService, writeResults } from './lib.mjs';
import { BODIES } from './request-bodies.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 8);

const TOOLS = [
  // 16 connections: one key may have 3 patterns running and 16 waiting (REGEX_POOL); beyond that it gets 429s.
  {
    title: 'regex-extract (2 matches, named groups, 16 connections)',
    path: '/v1/regex-extract',
    connections: 16,
    body: { pattern: '(?P<user>\\w+)@(?P<host>[\\w.]+)', text: 'Mail ada@example.com or grace@navy.mil, not bob@', flags: 'i' },
  },
  { title: 'number-format (currency de_DE)', path: '/v1/number-format', body: BODIES.numberCurrency },
  {
    title: 'number-format (percent fr_FR, decimals 1)',
    path: '/v1/number-format',
    body: { number: 0.8567, format_type: 'percent', locale: 'fr_FR', decimals: 1 },
  },
  {
    title: 'date-format (ISO → Berlin, %A %d %B %Y %H:%M %Z)',
    path: '/v1/date-format',
    body: { date: '2026-11-21T10:15:30Z', output_format: '%A %d %B %Y %H:%M %Z', to_timezone: 'Europe/Berlin' },
  },
  {
    title: 'date-format (natural language, New York)',
    path: '/v1/date-format',
    body: { date: 'next friday 5pm', from_timezone: 'America/New_York' },
  },
];
const CATASTROPHIC = { pattern: '(a+)+$', text: `${'a'.repeat(30)}!` };

const service = await startService();
const headers = { 'x-api-key': service.apiKey };
const post = async (path, body) => {
  const started = Date.now();
  const res = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json(), ms: Date.now() - started };
};

try {
  for (const tool of TOOLS) {
    const res = await post(tool.path, tool.body);
    if (res.status !== 200) throw new Error(`${tool.title}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const timeout = await post('/v1/regex-extract', CATASTROPHIC);
  if (timeout.body.code !== 'regex_timeout') throw new Error(`catastrophic pattern: ${timeout.status} ${JSON.stringify(timeout.body)}`);

  const rows = [await measure({ url: `${service.url}/healthz`, duration, title: 'GET /healthz' })];
  for (const tool of TOOLS) {
    rows.push(
      await measure({
        url: `${service.url}${tool.path}`,
        method: 'POST',
        headers,
        body: tool.body,
        duration,
        title: tool.title,
        connections: tool.connections,
      }),
    );
  }

  // Under attack: 2 connections keep sending the catastrophic pattern (both pool workers busy or being replaced).
  const attack = autocannon({
    url: `${service.url}/v1/regex-extract`,
    method: 'POST',
    connections: 2,
    duration: duration + 2,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(CATASTROPHIC),
  });
  await new Promise((r) => setTimeout(r, 1000));
  rows.push(
    await measure({ url: `${service.url}/healthz`, duration, warmup: 0, title: 'GET /healthz while (a+)+$ is sent on 2 connections' }),
  );
  const attackResult = await attack;
  rows.push({
    title: '(a+)+$ on 30 a + ! (2 connections, 422 regex_timeout each)',
    rps: Math.round(attackResult.requests.average * 10) / 10,
    p50_ms: attackResult.latency.p50,
    p99_ms: attackResult.latency.max,
    non2xx: attackResult.non2xx,
    errors: attackResult.errors + attackResult.timeouts,
    connections: 2,
    duration_s: duration + 2,
  });

  const healthz = rows[0].rps;
  for (const r of rows) r.pct_of_healthz = ratio(r.rps, healthz);
  const under = rows.find((r) => r.title.startsWith('GET /healthz while'));
  const atk = rows.at(-1);
  writeResults('format-tools', {
    note: 'One service process (LOG_LEVEL=warn, SQLite store, unlimited-plan key; each call records its credit use), 50 connections unless stated, autocannon in this process, 2 CPUs shared with other work. For the catastrophic row p99_ms is the max latency.',
    rows,
    verdicts: [
      `single catastrophic call answered ${timeout.status} ${timeout.body.code} in ${timeout.ms} ms (budget: < 1000 ms)`,
      `/healthz under regex attack: ${under.rps} rps (${under.pct_of_healthz}% of idle), p99 ${under.p99_ms} ms`,
      `catastrophic calls: max latency ${atk.p99_ms} ms (must stay < 1000 ms)`,
    ],
  });
} finally {
  await service.stop();
}
