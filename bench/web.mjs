// The web app's figures (issue 31), in Debian's Chromium driven by playwright-core:
// 1. JavaScript of the first view (sign-in and bins): the scripts index.html loads, gzip-compressed
//    as served (≤ 100 KB);
// 2. a bin page holding 1000 captures: navigation start → first capture row visible (≤ 1 s), median
//    and worst of BENCH_ROUNDS loads;
// 3. live rows: 200 captures sent 20 a second to that bin while its page is open; for each, the
//    capture's acknowledgement (in this process) → its row in the page (MutationObserver in the page,
//    on the same clock): p50 / p95 / max (p95 ≤ 250 ms);
// 4. typing into the JMESPath page: last keystroke → the result for it shown, p95 of 20 expressions
//    typed at 60 ms a key (≤ 150 ms).
// Run: npm run build && cd bench && node web.mjs
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

/* global window, document, MutationObserver */
import { startService, writeResults } from './lib.mjs';

const root = new URL('..', import.meta.url).pathname;
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const LIVE_CAPTURES = 200;
const LIVE_RATE = 20;
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The scripts index.html loads at once (entry and module preloads), with their gzip size. */
function firstViewScripts() {
  const html = readFileSync(join(root, 'dist/web/index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  return files.map((file) => ({ file, gzip: gzipSync(readFileSync(join(root, 'dist/web', file)), { level: 9 }).length }));
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const service = await startService({ pin: false });
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
/** POST a capture; resolves with the time its acknowledgement arrived. */
const capture = (url, body) =>
  new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(Date.now()) : reject(new Error(`capture answered ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
try {
  const scripts = firstViewScripts();
  const firstViewKb = scripts.reduce((sum, s) => sum + s.gzip, 0) / 1024;

  const h = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
  const { bin, url: catchUrl } = await (
    await fetch(`${service.url}/v1/bins`, { method: 'POST', headers: h, body: JSON.stringify({ name: 'bench' }) })
  ).json();
  for (let i = 0; i < 1000; i += 50) {
    await Promise.all(Array.from({ length: 50 }, (_, j) => capture(`${catchUrl}/old/${i + j}`, JSON.stringify({ n: i + j }))));
  }

  const context = await browser.newContext({
    storageState: { cookies: [], origins: [{ origin: service.url, localStorage: [{ name: 'devutil.apiKey', value: service.apiKey }] }] },
  });
  const page = await context.newPage();
  // A row is visible once the text of its path is on screen.
  const firstRows = [];
  for (let r = 0; r < rounds; r++) {
    await page.goto('about:blank');
    const started = Date.now();
    await page.goto(`${service.url}/bins/${bin.bin_id}`);
    await page.getByText('/old/999', { exact: false }).first().waitFor({ state: 'visible', timeout: 30_000 });
    firstRows.push(Date.now() - started);
  }

  // Live: the page notes when each `/live/N` row appears.
  await page.getByText('Live', { exact: true }).first().waitFor({ timeout: 30_000 });
  await page.evaluate(() => {
    window.__seen = {};
    new MutationObserver(() => {
      for (const match of document.body.innerText.matchAll(/\/live\/(\d+)/g)) window.__seen[match[1]] ??= Date.now();
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  const acked = [];
  for (let i = 0; i < LIVE_CAPTURES; i++) {
    const next = Date.now() + 1000 / LIVE_RATE;
    acked[i] = await capture(`${catchUrl}/live/${i}`, JSON.stringify({ n: i }));
    await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
  }
  await page.waitForTimeout(2000);
  const seen = await page.evaluate(() => window.__seen);
  const delays = acked.map((t, i) => (seen[i] === undefined ? Infinity : Math.max(0, seen[i] - t))).sort((a, b) => a - b);
  const missing = delays.filter((d) => d === Infinity).length;

  // Typing: each expression is a JSON literal whose result is its number, so the page shows when it answered the last key.
  await page.goto(`${service.url}/tools/jmespath`);
  const expression = page.getByLabel('Expression', { exact: true });
  await expression.waitFor();
  await page.evaluate(() => {
    document.addEventListener('keydown', () => (window.__lastKey = Date.now()), true);
    const result = document.querySelector('section.tool-result');
    window.__shown = {};
    new MutationObserver(() => {
      const text = result.textContent;
      for (const match of text.matchAll(/(\d{6})/g)) window.__shown[match[1]] ??= Date.now();
    }).observe(result, { childList: true, subtree: true, characterData: true });
  });
  const typing = [];
  for (let i = 0; i < 20; i++) {
    const n = String(100000 + i * 7919);
    await expression.fill('');
    await expression.pressSequentially(`\`${n}\``, { delay: 60 });
    const lastKey = await page.evaluate(() => window.__lastKey);
    await page.waitForFunction((want) => window.__shown[want] !== undefined, n, { timeout: 10_000 });
    typing.push((await page.evaluate((want) => window.__shown[want], n)) - lastKey);
  }
  typing.sort((a, b) => a - b);

  const sortedFirst = [...firstRows].sort((a, b) => a - b);
  const results = {
    pinned: false,
    note: `Chromium ${browser.version()} headless, the service (SQLite) and this script on one machine. First view: gzip -9 of the scripts index.html loads. First rows: ${rounds} loads of a bin page holding 1000 captures. Live: ${LIVE_CAPTURES} captures at ${LIVE_RATE}/s into that bin, acknowledgement → row in the page.`,
    rows: [
      {
        title: 'JavaScript of the first view (gzip)',
        figure: `${firstViewKb.toFixed(1)} KB`,
        files: scripts.map((s) => `${s.file} ${s.gzip} B`).join(', '),
      },
      {
        title: 'bin page with 1000 captures: navigation → first rows visible',
        figure: `median ${percentile(sortedFirst, 50)} ms, worst ${sortedFirst.at(-1)} ms`,
        files: firstRows.join(' / '),
      },
      {
        title: 'capture acknowledged → row visible',
        figure: `p50 ${percentile(delays, 50)} ms, p95 ${percentile(delays, 95)} ms, max ${delays.at(-1)} ms`,
        files: `${missing} of ${LIVE_CAPTURES} never appeared`,
      },
      {
        title: 'JMESPath page: last keystroke → its result shown',
        figure: `p50 ${percentile(typing, 50)} ms, p95 ${percentile(typing, 95)} ms, max ${typing.at(-1)} ms`,
        files: '20 expressions typed at 60 ms a key',
      },
    ],
    verdicts: [
      `first view JavaScript ${firstViewKb.toFixed(1)} KB gzip (target <= 100 KB): ${firstViewKb <= 100 ? 'met' : 'NOT met'}`,
      `first rows, worst of ${rounds}: ${sortedFirst.at(-1)} ms (target <= 1000 ms): ${sortedFirst.at(-1) <= 1000 ? 'met' : 'NOT met'}`,
      `live row p95 ${percentile(delays, 95)} ms (target <= 250 ms): ${percentile(delays, 95) <= 250 ? 'met' : 'NOT met'}`,
      `JMESPath typing p95 ${percentile(typing, 95)} ms (target <= 150 ms): ${percentile(typing, 95) <= 150 ? 'met' : 'NOT met'}`,
    ],
  };
  writeResults('web', results);
  for (const v of results.verdicts) console.log(v);
} finally {
  await browser.close();
  await service.stop();
}
