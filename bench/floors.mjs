// The throughput and memory floors of the service's hot routes, each as a ratio measured in one run:
//  - mock serving (256 B JSON, no delay) against a bare node:http server (>= 60%) and against the plain
//    Fastify ceiling app answering the same bytes (>= 70%);
//  - catch of a 1 KB POST, durable before the answer, against bare node:http reading the same body and
//    answering as many bytes (>= 40%);
//  - each devtools and crypto POST tool against the same tool behind the plain Fastify ceiling app (>= 80%);
//  - the service's resident memory, sampled through the whole run (<= 150 MiB); each case's row gives the
//    resident memory as the case starts and its peak during the case (the process rarely returns memory, so
//    a peak includes what earlier cases left).
// Servers are measured in alternating rounds (service, baseline, service, ...); ratios are the medians of
// the per-round ratios. Run: npm run build && (cd bench && npm install && node floors.mjs)
// [BENCH_SECONDS=5, BENCH_ROUNDS=5, BENCH_CONNECTIONS=50; DIST=<another build's dist>]
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { measure, ratio, startBareServer, startScriptServer, startService, writeResults } from './lib.mjs';
import { BODIES, HS256, hs256Token } from './request-bodies.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const dist = resolve(process.env.DIST ?? '../dist');
const MOCK_BYTES = 256;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rssMiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

const base = {
  id: 'evt_1NqKx2Lk',
  type: 'invoice.paid',
  created: 1795300000,
  data: { object: { amount: 1050, currency: 'eur' } },
  pad: '',
};
const payload = JSON.stringify({ ...base, pad: 'x'.repeat(1024 - JSON.stringify(base).length) });

const service = await startService({ dist, env: { BIN_MAX_REQUESTS: '1000' } });
let peakRss = 0;
// The peak of the whole run, and of the case being measured (reset as each case starts).
let casePeakRss = 0;
const sampler = setInterval(() => {
  const rss = rssMiB(service.process.pid);
  peakRss = Math.max(peakRss, rss);
  casePeakRss = Math.max(casePeakRss, rss);
}, 200);
const servers = [];
try {
  const key = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
  const post = async (path, body) => (await fetch(service.url + path, { method: 'POST', headers: key, body: JSON.stringify(body) })).json();
  const bareMock = await startBareServer({ bodyBytes: MOCK_BYTES });
  servers.push(bareMock);
  const mockBody = await (await fetch(`${bareMock.url}/`)).text();
  const { url: mockUrl } = await post('/v1/mocks', {
    ttl_seconds: 172800,
    body: mockBody,
    content_type: 'application/json; charset=utf-8',
  });
  const { url: catchUrl } = await post('/v1/bins', { ttl_seconds: 172800 });
  const ack = await (await fetch(catchUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload })).text();
  const bareCatch = await startBareServer({ bodyBytes: Buffer.byteLength(ack) });
  servers.push(bareCatch);
  const ceiling = await startScriptServer('fastify-ceiling-server.mjs', {
    env: { DIST: dist, MOCK_BODY_BYTES: String(MOCK_BYTES), ACK_BYTES: String(Buffer.byteLength(ack)) },
  });
  servers.push(ceiling);
  const token = hs256Token();

  const json = { 'content-type': 'application/json' };
  // The ceiling gets the same request bytes, key included (it reads no key).
  const tool = (title, path, body) => ({
    title,
    floor: 80,
    service: { url: service.url + path, method: 'POST', headers: key, body },
    baselines: { ceiling: { url: ceiling.url + path, method: 'POST', headers: key, body } },
  });
  const cases = [
    {
      title: `GET /v1/mock/{mock_id} (${MOCK_BYTES} B JSON, no delay)`,
      service: { url: mockUrl },
      baselines: { bare: { url: `${bareMock.url}/` }, ceiling: { url: `${ceiling.url}/mock` } },
      floors: { bare: 60, ceiling: 70 },
    },
    {
      title: 'POST /v1/catch/{bin_id} (1 KB JSON, durable)',
      service: { url: catchUrl, method: 'POST', headers: json, body: payload },
      baselines: {
        bare: { url: `${bareCatch.url}/`, method: 'POST', headers: json, body: payload },
        ceiling: { url: `${ceiling.url}/catch`, method: 'POST', headers: json, body: payload },
      },
      floors: { bare: 40 },
    },
    tool('json-transform (JMESPath)', '/v1/json-transform', BODIES.jmespath),
    tool('array-ops (sort 5 records by key)', '/v1/array-ops', BODIES.sortPeople),
    tool('number-format (currency de_DE)', '/v1/number-format', BODIES.numberCurrency),
    tool('hash (sha256)', '/v1/auth/hash', BODIES.sha256),
    tool('jwt-verify (HS256)', '/v1/auth/jwt-verify', { token, secret: HS256.secret }),
  ].map((c) => (c.floors ? c : { ...c, floors: { ceiling: c.floor } }));

  // Every request answers 200 before anything is measured.
  for (const c of cases) {
    for (const target of [c.service, ...Object.values(c.baselines)]) {
      const res = await fetch(target.url, {
        method: target.method ?? 'GET',
        headers: target.headers,
        body: target.body === undefined ? undefined : typeof target.body === 'string' ? target.body : JSON.stringify(target.body),
      });
      if (res.status !== 200) throw new Error(`${target.url}: ${res.status} ${await res.text()}`);
    }
  }

  const rows = [];
  const verdicts = [];
  for (const c of cases) {
    const startRss = rssMiB(service.process.pid);
    casePeakRss = startRss;
    const per = { service: [], ...Object.fromEntries(Object.keys(c.baselines).map((k) => [k, []])) };
    for (let round = 0; round < rounds; round++) {
      per.service.push(await measure({ ...c.service, connections, duration, warmup: round === 0 ? 2 : 0 }));
      for (const [name, target] of Object.entries(c.baselines))
        per[name].push(await measure({ ...target, connections, duration, warmup: round === 0 ? 2 : 0 }));
    }
    const row = {
      title: c.title,
      service_rps: median(per.service.map((r) => r.rps)),
      service_p99_ms: median(per.service.map((r) => r.p99_ms)),
      service_start_rss_mib: Math.round(startRss),
      service_peak_rss_mib: Math.round(casePeakRss),
    };
    for (const name of Object.keys(c.baselines)) {
      const pcts = per.service.map((r, i) => ratio(r.rps, per[name][i].rps));
      row[`${name}_rps`] = median(per[name].map((r) => r.rps));
      row[`pct_of_${name}`] = median(pcts);
      row[`pct_of_${name}_per_round`] = pcts.join(' / ');
      if (c.floors[name] !== undefined) {
        const met = median(pcts) >= c.floors[name];
        verdicts.push(
          `${c.title}: ${median(pcts)}% of ${name === 'bare' ? 'bare node:http' : 'the plain Fastify ceiling'} (floor ${c.floors[name]}%): ${met ? 'met' : 'NOT met'}`,
        );
      }
    }
    const failed = [...per.service, ...Object.values(c.baselines).flatMap((_, i) => per[Object.keys(c.baselines)[i]])].reduce(
      (n, r) => n + r.non2xx + r.errors,
      0,
    );
    if (failed > 0) verdicts.push(`${c.title}: ${failed} non-2xx answers or errors during the runs`);
    rows.push(row);
  }
  peakRss = Math.max(peakRss, rssMiB(service.process.pid));
  verdicts.push(
    `service resident memory, peak over the whole run: ${Math.round(peakRss)} MiB (floor <= 150 MiB): ${peakRss <= 150 ? 'met' : 'NOT met'}`,
  );
  writeResults(process.env.BENCH_RESULT ?? 'floors', {
    note:
      `${rounds} alternating rounds of ${duration} s per server and case (2 s warm-up first), ${connections} connections, autocannon in this process; ` +
      'the service with LOG_LEVEL=warn, SQLite store, an unlimited-plan key, BIN_MAX_REQUESTS=1000; bare node:http (bench/bare-server.mjs) and ' +
      'the plain Fastify app (bench/fastify-ceiling-server.mjs) answer the same bytes (body and headers) without a store; the ceiling gets the same requests.',
    rows,
    peak_rss_mib: Math.round(peakRss),
    verdicts,
  });
} finally {
  clearInterval(sampler);
  for (const s of servers) await s.stop();
  await service.stop();
}
