// Foundation benchmark (issue 2): GET /healthz and authenticated GET /v1/account against a bare
// node:http server, in one run. Target: /v1/account keeps >= 70% of the bare server's throughput.
// Run: npm run build && (cd bench && npm install && node foundation.mjs)
import { loadavg } from 'node:os';
import { alternate, measure, ratio, startBareServer, startService, summarize, writeResults } from './lib.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 6);
// Alternating rounds (bare, healthz, account, bare, ...) so load from other processes hits all alike.
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const loadAtStart = loadavg().map((x) => Math.round(x * 10) / 10);
const bare = await startBareServer({ bodyBytes: 16 });
const service = await startService();
try {
  const titles = { bare: 'bare node:http (16 B JSON)', healthz: 'GET /healthz', account: 'GET /v1/account (authenticated)' };
  const runs = await alternate(rounds, {
    bare: (round) => measure({ url: `${bare.url}/`, duration, title: `${titles.bare}, round ${round}` }),
    healthz: (round) => measure({ url: `${service.url}/healthz`, duration, title: `${titles.healthz}, round ${round}` }),
    account: (round) => measure({ url: `${service.url}/v1/account`, headers: { 'x-api-key': service.apiKey }, duration, title: `${titles.account}, round ${round}` }),
  });
  const baseline = summarize(runs.bare, `${titles.bare}, mean of ${rounds}`);
  const healthz = summarize(runs.healthz, `${titles.healthz}, mean of ${rounds}`);
  const account = summarize(runs.account, `${titles.account}, mean of ${rounds}`);
  const perRound = runs.bare.map((b, i) => ratio(runs.account[i].rps, b.rps));
  const rows = [...runs.bare.flatMap((b, i) => [b, runs.healthz[i], runs.account[i]]), baseline, healthz, account].map((r) => ({ ...r, pct_of_bare: ratio(r.rps, baseline.rps) }));
  const pct = ratio(account.rps, baseline.rps);
  writeResults('foundation', {
    note: `Service with LOG_LEVEL=warn, SQLite store, 50 connections, ${rounds} alternating rounds of ${duration} s (each after a 2 s warm-up; the verdict uses the means), autocannon in a separate process from both servers. Load average at start: ${loadAtStart.join(' ')}.`,
    rows,
    verdicts: [
      `/v1/account at ${pct}% of bare node:http (target >= 70%): ${pct >= 70 ? 'met' : 'NOT met'} (per round: ${perRound.join(' / ')})`,
      `GET /healthz at ${ratio(healthz.rps, baseline.rps)}% of bare node:http`,
    ],
  });
} finally {
  await service.stop();
  await bare.stop();
}
