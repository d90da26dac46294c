// Foundation benchmark (issue 2): GET /healthz and authenticated GET /v1/account against a bare
// node:http server, in one run. Target: /v1/account keeps >= 70% of the bare server's throughput.
// Run: npm run build && (cd bench && npm install && node foundation.mjs)
import { measure, ratio, startBareServer, startService, writeResults } from './lib.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 8);
const bare = await startBareServer({ bodyBytes: 16 });
const service = await startService();
try {
  const baseline = await measure({ url: `${bare.url}/`, duration, title: 'bare node:http (16 B JSON)' });
  const healthz = await measure({ url: `${service.url}/healthz`, duration, title: 'GET /healthz' });
  const account = await measure({
    url: `${service.url}/v1/account`,
    headers: { 'x-api-key': service.apiKey },
    duration,
    title: 'GET /v1/account (authenticated)',
  });
  const rows = [baseline, healthz, account].map((r) => ({ ...r, pct_of_bare: ratio(r.rps, baseline.rps) }));
  const pct = ratio(account.rps, baseline.rps);
  writeResults('foundation', {
    note: 'Service with LOG_LEVEL=warn, SQLite store, 50 connections, autocannon in a separate process from both servers.',
    rows,
    verdicts: [`/v1/account at ${pct}% of bare node:http (target >= 70%): ${pct >= 70 ? 'met' : 'NOT met'}`],
  });
} finally {
  await service.stop();
  await bare.stop();
}
