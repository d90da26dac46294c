// Foundation benchmark (issue 2): GET /healthz and authenticated GET /v1/account against bare
// node:http servers, in one run. Target: /v1/account keeps >= 70% of the bare server's throughput.
// Each route is compared with a bare server answering a body of the same size (as the catch and
// mock benchmarks do), so the ratio measures the service's work, not the client's parsing of more bytes.
// Run: npm run build && (cd bench && npm install && node foundation.mjs)
import { loadavg } from 'node:os';
import { alternate, measure, ratio, startBareServer, startService, summarize, writeResults } from './lib.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 6);
// Alternating rounds (bare, healthz, account, bare, ...) so load from other processes hits all alike.
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const loadAtStart = loadavg().map((x) => Math.round(x * 10) / 10);
const service = await startService();
const accountBytes = (await (await fetch(`${service.url}/v1/account`, { headers: { 'x-api-key': service.apiKey } })).arrayBuffer())
  .byteLength;
const bare = await startBareServer({ bodyBytes: 16 });
const bareLarge = await startBareServer({ bodyBytes: accountBytes });
try {
  const titles = {
    bare: 'bare node:http (16 B JSON)',
    bareLarge: `bare node:http (${accountBytes} B JSON, as /v1/account)`,
    healthz: 'GET /healthz (15 B)',
    account: `GET /v1/account (authenticated, ${accountBytes} B)`,
  };
  const runs = await alternate(rounds, {
    bare: (round) => measure({ url: `${bare.url}/`, duration, title: `${titles.bare}, round ${round}` }),
    bareLarge: (round) => measure({ url: `${bareLarge.url}/`, duration, title: `${titles.bareLarge}, round ${round}` }),
    healthz: (round) => measure({ url: `${service.url}/healthz`, duration, title: `${titles.healthz}, round ${round}` }),
    account: (round) =>
      measure({
        url: `${service.url}/v1/account`,
        headers: { 'x-api-key': service.apiKey },
        duration,
        title: `${titles.account}, round ${round}`,
      }),
  });
  const baseline = summarize(runs.bare, `${titles.bare}, mean of ${rounds}`);
  const baselineLarge = summarize(runs.bareLarge, `${titles.bareLarge}, mean of ${rounds}`);
  const healthz = summarize(runs.healthz, `${titles.healthz}, mean of ${rounds}`);
  const account = summarize(runs.account, `${titles.account}, mean of ${rounds}`);
  const perRound = runs.bareLarge.map((b, i) => ratio(runs.account[i].rps, b.rps));
  const rows = [
    ...runs.bare.flatMap((b, i) => [b, runs.bareLarge[i], runs.healthz[i], runs.account[i]]),
    baseline,
    baselineLarge,
    healthz,
    account,
  ].map((r) => ({
    ...r,
    pct_of_bare_16B: ratio(r.rps, baseline.rps),
    pct_of_bare_same_size: ratio(r.rps, (r === account || runs.account.includes(r) ? baselineLarge : baseline).rps),
  }));
  const pct = ratio(account.rps, baselineLarge.rps);
  writeResults('foundation', {
    note: `Service with LOG_LEVEL=warn, SQLite store, 50 connections, ${rounds} alternating rounds of ${duration} s (each after a 2 s warm-up; the verdict uses the means), autocannon in a separate process from both servers. Load average at start: ${loadAtStart.join(' ')}.`,
    rows,
    verdicts: [
      `/v1/account at ${pct}% of a bare node:http server answering the same ${accountBytes} B (target >= 70%): ${pct >= 70 ? 'met' : 'NOT met'} (per round: ${perRound.join(' / ')})`,
      `/v1/account at ${ratio(account.rps, baseline.rps)}% of the bare server answering 16 B`,
      `GET /healthz at ${ratio(healthz.rps, baseline.rps)}% of bare node:http (16 B)`,
    ],
  });
} finally {
  await service.stop();
  await bare.stop();
  await bareLarge.stop();
}
