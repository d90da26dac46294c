// The same cached DNS lookup asked by query string (GET /v1/lookup) and by JSON body
// (POST /v1/devtools/dns-lookup), alternating in one service process: requests/s and the CPU time per
// request of the service (user and system, from /proc) and of the load generator (this process).
// bench/instructions.mjs counts the two cases' instructions (dnsget, dnspost); this shows their time.
// Run: npm run build && (cd bench && npm install && node post-vs-get.mjs)   [BENCH_SECONDS=4, BENCH_ROUNDS=3]
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { BENCH_ZONE, startDnsServer } from './dns-server.mjs';
import { startService, writeResults } from './lib.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const CLOCK_TICK_US = 10_000; // USER_HZ is 100 on Linux (getconf CLK_TCK)

const dns = await startDnsServer(BENCH_ZONE);

const service = await startService({ env: { DNS_SERVERS: dns.address } });
const headers = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
const cases = [
  { title: 'GET /v1/lookup?domain=bench.test&type=A', path: '/v1/lookup?domain=bench.test&type=A', method: 'GET' },
  { title: 'POST /v1/devtools/dns-lookup {"domain":"bench.test","type":"A"}', path: '/v1/devtools/dns-lookup', method: 'POST', body: JSON.stringify({ domain: 'bench.test', type: 'A' }) },
];

/** User and system CPU microseconds the service has used (/proc/<pid>/stat fields 14 and 15). */
function serviceCpu() {
  const stat = readFileSync(`/proc/${service.process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) * CLOCK_TICK_US, system: Number(fields[12]) * CLOCK_TICK_US };
}

const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];
const runs = new Map(cases.map((c) => [c, []]));
try {
  for (const c of cases) {
    const res = await fetch(service.url + c.path, { method: c.method, headers, body: c.body });
    const body = await res.json();
    if (res.status !== 200 || body.records?.length !== 1) throw new Error(`${c.title}: ${res.status} ${JSON.stringify(body)}`);
  }
  for (let round = 0; round < rounds; round++) {
    for (const c of cases) {
      const options = { url: service.url + c.path, method: c.method, headers, body: c.body, connections: 50 };
      await autocannon({ ...options, duration: 1 });
      const before = serviceCpu();
      const client = process.cpuUsage();
      const result = await autocannon({ ...options, duration });
      const after = serviceCpu();
      const own = process.cpuUsage(client);
      const n = result.requests.total;
      runs.get(c).push({
        rps: Math.round(result.requests.average),
        service_user_us: (after.user - before.user) / n,
        service_sys_us: (after.system - before.system) / n,
        client_us: (own.user + own.system) / n,
        non2xx: result.non2xx,
      });
    }
  }
} finally {
  await service.stop();
  dns.close();
}

const rows = cases.map((c) => {
  const r = runs.get(c);
  const med = (key) => Math.round(median(r.map((x) => x[key])) * 10) / 10;
  return {
    title: c.title,
    rps: med('rps'),
    service_user_us_per_req: med('service_user_us'),
    service_sys_us_per_req: med('service_sys_us'),
    client_cpu_us_per_req: med('client_us'),
    non2xx: r.reduce((n, x) => n + x.non2xx, 0),
    rps_rounds: r.map((x) => x.rps).join(' / '),
  };
});
const [get, post] = rows;
writeResults('post-vs-get', {
  note: `One service process (LOG_LEVEL=warn, SQLite store, unlimited-plan key), 50 connections, autocannon in this process; ${rounds} rounds of ${duration} s alternating the two requests, medians shown. DNS_SERVERS = a UDP server in this process on 127.0.0.1 (answers cached for their one-hour TTL).`,
  rows,
  verdicts: [
    `POST by JSON body: ${Math.round((post.rps / get.rps) * 100)}% of the GET's requests/s; service user CPU ${post.service_user_us_per_req} vs ${get.service_user_us_per_req} µs per request`,
  ],
});
