// Screenshots of the web app's main views, from the real built app in Debian's Chromium, into
// docs/screenshots/ (the README shows two of them). Sample data is made through the public API.
// Usage: npm run build && npm run screenshots
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'docs', 'screenshots');
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const service = spawn(process.execPath, [join(root, 'dist/src/cli/main.js'), 'serve'], {
  env: {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: mkdtempSync(join(tmpdir(), 'devutil-shots-')),
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let printed = '';
service.stdout.setEncoding('utf8');
const key = await new Promise((resolve, reject) => {
  service.stdout.on('data', (chunk) => {
    printed += chunk;
    const found = /^API key: (dk_\w+)$/m.exec(printed);
    if (found) resolve(found[1]);
  });
  service.on('exit', (code) => reject(new Error(`the service exited with ${code}: ${printed}`)));
});
for (let i = 0; i < 100; i++) {
  if (
    await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  await new Promise((r) => setTimeout(r, 100));
}

const api = async (method, path, body) => {
  const res = await fetch(url + path, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
};

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
try {
  const { bin, url: catchUrl } = await api('POST', '/v1/bins', { name: 'stripe webhooks' });
  const events = ['payment_intent.succeeded', 'charge.refunded', 'customer.created', 'invoice.paid'];
  for (const [i, type] of events.entries()) {
    await fetch(`${catchUrl}/stripe?attempt=${i + 1}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': `t=1764583200,v1=${'ab'.repeat(32)}`, 'user-agent': 'Stripe/1.0' },
      body: JSON.stringify({ id: `evt_${i}`, type, data: { object: { amount: 1999 + i * 100, currency: 'eur' } } }),
    });
  }
  await fetch(`${catchUrl}/github`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'payload=%7B%22zen%22%3A%22Keep%20it%20simple%22%7D',
  });
  const { requests } = await api('GET', `/v1/bins/${bin.bin_id}/requests?limit=1`);
  const { mock } = await api('POST', '/v1/mocks', {
    name: 'user profile',
    status_code: 200,
    headers: { 'x-powered-by': 'devutil' },
    body: JSON.stringify({ id: 42, name: 'Ada Lovelace', roles: ['admin'] }, null, 2),
  });

  mkdirSync(outDir, { recursive: true });
  const shots = [
    ['bin', `/bins/${bin.bin_id}/requests/${requests[0].request_id}`, 'light'],
    ['bin-dark', `/bins/${bin.bin_id}/requests/${requests[0].request_id}`, 'dark'],
    ['bins', '/bins', 'light'],
    ['mock', `/mocks/${mock.mock_id}`, 'light'],
    ['account', '/account', 'light'],
    ['tools', '/tools', 'light'],
    ['tool-jwt', '/tools/jwt', 'light'],
    ['tool-jmespath', '/tools/jmespath', 'light'],
    ['tool-regex', '/tools/regex', 'dark'],
  ];
  for (const [name, path, colorScheme] of shots) {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      colorScheme,
      storageState: { cookies: [], origins: [{ origin: url, localStorage: [{ name: 'devutil.apiKey', value: key }] }] },
    });
    const page = await context.newPage();
    await page.goto(url + path);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    // Let the view's data arrive (the bin page keeps its stream open, so the network is never idle).
    await page.waitForTimeout(800);
    await page.screenshot({ path: join(outDir, `${name}.png`) });
    await context.close();
    console.log(`docs/screenshots/${name}.png`);
  }
} finally {
  await browser.close();
  service.kill('SIGTERM');
}
