// Two builds side by side by time: one service process per build (each with npm start's flags), the
// same request against each in alternating rounds (A B, B A, A B, ...), so drift on the shared
// machine falls on both; requests/s and the service's CPU per request, medians. bench/instructions.mjs
// counts instructions instead; this measures what users get, time.
// Run: npm run build && cp -r dist /tmp/dist-before   (then change, rebuild)
//      cd bench && BENCH_LABELS=before,after node ab.mjs /tmp/dist-before ../dist jmespath [rounds] [seconds]
// BENCH_RESULT=ab-catch-x writes bench/results/ab-catch-x.{json,md} instead of ab-<case>.
// Another build's npm start flags: AB_NODE_ARGS_A='--min-semi-space-size=16'. One build, two settings: AB_ENV_A='{"BIN_MAX_REQUESTS":"1000"}' AB_ENV_B='{...}' node ab.mjs ../dist ../dist catch
// Cases: healthz, mock, catch, account, jmespath, sort, sort5, dedup, number, schema, sha256, hs256.
import autocannon from 'autocannon';
import { resolve } from 'node:path';
import { readCpuMicros, startService, writeResults } from './lib.mjs';
import { ROUTE_CASES } from './request-bodies.mjs';

const [distA, distB, name = 'jmespath', roundsArg = '6', secsArg = '4'] = process.argv.slice(2);
if (!distA || !distB) throw new Error('usage: node ab.mjs <dist A> <dist B> <case> [rounds] [seconds]');
const rounds = Number(roundsArg);
const seconds = Number(secsArg);
const [labelA = distA, labelB = distB] = (process.env.BENCH_LABELS ?? '').split(',').filter(Boolean);

const CASES = ROUTE_CASES;
if (!CASES[name]) throw new Error(`unknown case ${name}; one of ${Object.keys(CASES).join(', ')}`);

/** The autocannon options of the case on one service; its first answer must be a 200. */
async function requestFor(service) {
  const h = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
  const post = async (path, body) => (await fetch(service.url + path, { method: 'POST', headers: h, body: JSON.stringify(body) })).json();
  const c = await CASES[name]({ h, post });
  const body = typeof c.body === 'string' ? c.body : c.body ? JSON.stringify(c.body) : undefined;
  const options = {
    url: service.url + c.path,
    connections: 50,
    headers: c.headers ?? {},
    method: c.method ?? (c.body ? 'POST' : 'GET'),
    body,
  };
  const first = await fetch(options.url, { method: options.method, headers: options.headers, body: options.body });
  if (first.status !== 200) throw new Error(`${service.url}${c.path}: ${first.status} ${await first.text()}`);
  return options;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// AB_ENV_A / AB_ENV_B: extra environment (JSON) for one side, e.g. to compare two settings of one build.
const envOf = (name) => JSON.parse(process.env[name] ?? '{}');
// AB_NODE_ARGS_A / AB_NODE_ARGS_B: node flags for one side, e.g. the flags an older build's npm start passed.
const argsOf = (name) => (process.env[name] ?? '').split(' ').filter(Boolean);
const services = [
  await startService({ dist: resolve(distA), env: envOf('AB_ENV_A'), nodeArgs: argsOf('AB_NODE_ARGS_A') }),
  await startService({ dist: resolve(distB), env: envOf('AB_ENV_B'), nodeArgs: argsOf('AB_NODE_ARGS_B') }),
];
try {
  const requests = [await requestFor(services[0]), await requestFor(services[1])];
  for (const options of requests) await autocannon({ ...options, duration: 3 }); // warm-up, not recorded
  const runs = [[], []];
  for (let round = 0; round < rounds; round++) {
    for (const i of round % 2 ? [1, 0] : [0, 1]) {
      const before = readCpuMicros(services[i].process.pid);
      const r = await autocannon({ ...requests[i], duration: seconds });
      if (r.non2xx || r.errors || r.timeouts)
        throw new Error(`build ${i ? labelB : labelA}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
      runs[i].push({
        rps: Math.round(r.requests.average),
        cpu: Math.round(((readCpuMicros(services[i].process.pid) - before) / r.requests.total) * 10) / 10,
      });
    }
  }
  const rows = [labelA, labelB].map((label, i) => ({
    build: label,
    rps: median(runs[i].map((r) => r.rps)),
    service_cpu_us_per_req: median(runs[i].map((r) => r.cpu)),
    rps_ratio: i === 0 ? '' : Math.round((median(runs[1].map((r) => r.rps)) / median(runs[0].map((r) => r.rps))) * 1000) / 1000,
    rps_per_round: runs[i].map((r) => r.rps).join(' / '),
  }));
  // BENCH_RESULT names the results file, so a new comparison need not replace one the README links.
  writeResults(process.env.BENCH_RESULT ?? `ab-${name}`, {
    note: `${name}: ${rounds} alternating rounds of ${seconds} s per build after 3 s of warm-up each, one service process per build (npm start's flags, LOG_LEVEL=warn, SQLite store, unlimited-plan key), 50 connections, autocannon in this process; medians.`,
    rows,
  });
} finally {
  for (const service of services) await service.stop();
}
