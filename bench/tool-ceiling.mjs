// How close each target tool can get to /healthz at all on this machine: the service's ratio (tool
// requests/s over /healthz requests/s, as devtools.mjs and crypto.mjs measure it) next to the same
// ratio for a plain node:http server doing the same tool work with nothing else (bare-tool-server.mjs:
// no framework, key, rate limit, credit, validation or logging). The plain server's ratio is the
// ceiling of what any Node HTTP service can reach for that request on this machine; the service's
// tool requests/s over the plain server's shows what the service's own layers cost.
// Run: npm run build && (cd bench && npm install && node tool-ceiling.mjs)   [BENCH_SECONDS=4, BENCH_ROUNDS=3]
import { loadavg } from 'node:os';
import { pairedWithHealthz, ratio, SERVICE_NODE_FLAGS, startScriptServer, startService, writeResults } from './lib.mjs';
import { BODIES, HS256 } from './request-bodies.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const loadAtStart = loadavg().map((x) => Math.round(x * 10) / 10);


const service = await startService();
const bare = await startScriptServer('bare-tool-server.mjs', { nodeArgs: process.env.BENCH_START_FLAGS === '0' ? [] : SERVICE_NODE_FLAGS });
try {
  const key = { 'x-api-key': service.apiKey };
  const generated = await fetch(`${service.url}/v1/auth/jwt-generate`, {
    method: 'POST',
    headers: { ...key, 'content-type': 'application/json' },
    body: JSON.stringify({ payload: HS256.payload, secret: HS256.secret, algorithm: 'HS256' }),
  }).then((r) => r.json());
  const TOOLS = [
    { title: 'json-transform (JMESPath)', path: '/v1/json-transform', body: BODIES.jmespath, target: 60 },
    { title: 'array-ops (sort by key, the 5 records of the JMESPath case)', path: '/v1/array-ops', body: BODIES.sortPeople, target: 60 },
    { title: 'array-ops (sort by key, 20 objects)', path: '/v1/array-ops', body: BODIES.sortByKey, target: 60 },
    { title: 'number-format (currency de_DE)', path: '/v1/number-format', body: BODIES.numberCurrency, target: 60 },
    { title: 'hash (sha256)', path: '/v1/auth/hash', body: BODIES.sha256, target: 60 },
    { title: 'jwt-verify (HS256)', path: '/v1/auth/jwt-verify', body: { token: generated.token, secret: HS256.secret }, target: 60 },
  ];
  // Both answer every request with 200 before anything is measured.
  for (const [who, server, headers] of [['service', service, key], ['plain server', bare, {}]]) {
    for (const t of TOOLS) {
      const res = await fetch(`${server.url}${t.path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(t.body) });
      const body = await res.json();
      if (res.status !== 200 || body.valid === false) throw new Error(`${who} ${t.path}: ${res.status} ${JSON.stringify(body)}`);
    }
  }
  const rows = [];
  const verdicts = [];
  for (const t of TOOLS) {
    // Service and plain server alternate per tool, so drift on the shared machine falls on both.
    const [, svc] = await pairedWithHealthz({ service, rounds, duration, cases: [{ title: t.title, path: t.path, headers: key, body: t.body }] });
    const [, plain] = await pairedWithHealthz({ service: bare, rounds, duration, cases: [{ title: t.title, path: t.path, body: t.body }] });
    rows.push({
      title: t.title,
      service_rps: svc.rps,
      service_pct_of_healthz: svc.pct_of_healthz,
      service_cpu_us_per_req: svc.service_cpu_us_per_req,
      plain_rps: plain.rps,
      plain_pct_of_healthz: plain.pct_of_healthz,
      plain_cpu_us_per_req: plain.service_cpu_us_per_req,
      service_rps_pct_of_plain: ratio(svc.rps, plain.rps),
      service_rounds: svc.pct_per_round,
      plain_rounds: plain.pct_per_round,
    });
    verdicts.push(
      `${t.title}: the plain server reaches ${plain.pct_of_healthz}% of its /healthz, the service ${svc.pct_of_healthz}% of its own (target >= ${t.target}%); ` +
        `the service serves ${ratio(svc.rps, plain.rps)}% of the plain server's requests/s for it`,
    );
  }
  writeResults('tool-ceiling', {
    load_average_at_start: loadAtStart,
    note:
      `Per tool, ${rounds} rounds of ${duration} s each right after a ${duration} s GET /healthz run of the same process (medians), first on the service ` +
      '(LOG_LEVEL=warn, SQLite store, unlimited-plan key, npm start flags), then on bench/bare-tool-server.mjs: node:http calling the same tool functions ' +
      'with no framework, key, rate limit, credit, validation or logging. 50 connections, autocannon in this process.',
    rows,
    verdicts,
  });
} finally {
  await service.stop();
  await bare.stop();
}
