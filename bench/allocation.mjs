// Bytes the JavaScript heap allocates per request of a tool route, the service against the plain
// Fastify ceiling app (fastify-ceiling-server.mjs) serving the same tool: what the service's own layers
// (admission, validation, hooks, metrics) add to every call. Allocation is counted by V8 itself
// (`--trace-gc-nvp`: the bytes allocated since the previous GC, summed over the GCs of the measured
// requests), so it repeats to within a few percent where throughput on the shared machine does not.
// Run: npm run build && cd bench && node allocation.mjs [case] [requests]   (DIST=<another build's dist>)
// Cases: jmespath, number, sort, sort5, sha256, hs256 (default sort5), 40000 requests after 20000 of warm-up.
import autocannon from 'autocannon';
import { resolve } from 'node:path';
import { startScriptServer, startService, writeResults } from './lib.mjs';
import { ROUTE_CASES } from './request-bodies.mjs';

const [name = 'sort5', requestsArg = '40000'] = process.argv.slice(2);
const requests = Number(requestsArg);
const WARMUP = 20000;
const TOOL_CASES = ['jmespath', 'number', 'sort', 'sort5', 'sha256', 'hs256'];
if (!TOOL_CASES.includes(name)) throw new Error(`unknown case ${name}; one of ${TOOL_CASES.join(', ')}`);
const dist = resolve(process.env.DIST ?? '../dist');
const TRACE = ['--trace-gc-nvp'];

/** Everything `child` prints from now on. */
function output(child) {
  let text = '';
  child.stdout.on('data', (chunk) => (text += chunk));
  return () => text;
}

/** Bytes allocated over the GCs `text` reports, and how many GCs that was. */
function allocatedIn(text) {
  const counts = [...text.matchAll(/\ballocated=(\d+)/g)].map((m) => Number(m[1]));
  return { bytes: counts.reduce((a, b) => a + b, 0), gcs: counts.length };
}

/** Bytes per request over `requests` POSTs of the case's body, after a warm-up. */
async function perRequest(url, path, headers, body, printed) {
  const options = { url: url + path, method: 'POST', headers, body, connections: 50 };
  await autocannon({ ...options, amount: WARMUP });
  const from = printed().length;
  const result = await autocannon({ ...options, amount: requests });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const { bytes, gcs } = allocatedIn(printed().slice(from));
  return { bytes: Math.round(bytes / requests), gcs };
}

const service = await startService({ dist, nodeArgs: TRACE });
const ceiling = await startScriptServer('fastify-ceiling-server.mjs', { nodeArgs: TRACE, env: { DIST: dist } });
try {
  const h = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
  const c = await ROUTE_CASES[name]({ h });
  const body = JSON.stringify(c.body);
  const svc = await perRequest(service.url, c.path, h, body, output(service.process));
  // The ceiling reads no key, but gets one of the same length, so that both read the same request bytes.
  const ceilingHeaders = { ...h, 'x-api-key': 'x'.repeat(service.apiKey.length) };
  const top = await perRequest(ceiling.url, c.path, ceilingHeaders, body, output(ceiling.process));
  const rows = [
    { server: 'service', bytes_per_request: svc.bytes, gcs: svc.gcs, ratio: Math.round((svc.bytes / top.bytes) * 1000) / 1000 },
    { server: 'plain Fastify', bytes_per_request: top.bytes, gcs: top.gcs, ratio: 1 },
  ];
  console.table(rows);
  writeResults(`allocation-${name}`, {
    note: `${name}: ${requests} requests after ${WARMUP} of warm-up, 50 connections, each server run with --trace-gc-nvp; bytes allocated per request (V8's \`allocated\` of each GC in the window, summed); the service with LOG_LEVEL=warn, SQLite store, an unlimited-plan key.`,
    pinned: false,
    rows,
  });
} finally {
  await service.stop();
  await ceiling.stop();
}
