import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { Locator } from 'playwright-core';
import { buildCurlCommand, type CurlSource } from '../../web/src/request/curl.js';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';

const run = promisify(execFile);

const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const JSON_BODY = '{"event":"paid","amount":1099,"items":[1,"two",{"three":3}],"note":"it\'s <b>"}';
const HTML_BODY = '<b>x</b><img src="/x.png" alt=""><script>window.pwned = 1</script>';

/** The cells of each body row of a table, as text. */
function tableRows(table: Locator): Promise<string[][]> {
  return table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent ?? '')));
}

describe('request view in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  let target: Server;
  let targetUrl: string;
  const received: { method: string; url: string; headers: Record<string, unknown>; body: Buffer }[] = [];
  let binId: string;
  const ids: Record<string, string> = {};
  const dir = mkdtempSync(join(tmpdir(), 'devutil-request-view-'));

  /** Capture a request in the bin as a client would send it; returns its request id. */
  async function capture(path: string, init: { method: string; headers?: Record<string, string>; body?: Buffer | string }) {
    const res = await fetch(`${web.url}/v1/catch/${binId}${path}`, init);
    assert.equal(res.status, 200);
    return ((await res.json()) as { request_id: string }).request_id;
  }

  /** A capture as the API shows it. */
  async function detail(id: string) {
    return (await web.api<{ request: CurlSource & Record<string, unknown> }>('GET', `/v1/bins/${binId}/requests/${id}`)).request;
  }

  before(async () => {
    // A replay target on loopback, allowed by REPLAY_ALLOW_HOSTS; it answers after a moment so the progress shows.
    target = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        setTimeout(() => {
          res.writeHead(201, { 'content-type': 'text/plain', 'x-target': 'yes' });
          res.end(`got ${req.method} ${req.url}: <i>${Buffer.concat(chunks).length} bytes</i>`);
        }, 400);
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const { port } = target.address() as AddressInfo;
    targetUrl = `http://127.0.0.1:${port}/hook`;
    web = await startWebApp({ REPLAY_ALLOW_HOSTS: `127.0.0.1:${port}` });
    binId = (await web.api<{ bin: { bin_id: string } }>('POST', '/v1/bins', { name: 'view' })).bin.bin_id;
    ids.json = await capture('/hooks/stripe?attempt=1&tag=a%20b&tag=c&empty=', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': 't=1,v1=abc', 'x-quote': `it's "q"` },
      body: JSON_BODY,
    });
    ids.form = await capture('/form', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=O%27Brien&note=a+b&empty=&tag=1&tag=2',
    });
    ids.text = await capture('', { method: 'PUT', headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'hello\nwörld ✓' });
    ids.binary = await capture('/bytes', { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: ALL_BYTES });
    ids.html = await capture('/page', { method: 'POST', headers: { 'content-type': 'text/html' }, body: HTML_BODY });
    ids.badJson = await capture('/bad', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"oops": ' });
    ids.bigText = await capture('/big', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'abcdefghij'.repeat(100_000) });
    ids.bigBinary = await capture('/big-bin', { method: 'POST', headers: { 'content-type': 'image/png' }, body: Buffer.alloc(8192, 0xff) });
    ids.get = await capture('/ping', { method: 'GET' });
  });
  after(async () => {
    await web?.close();
    await new Promise((resolve) => target?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (id: string, options?: Parameters<WebApp['openSignedIn']>[1]) => web.openSignedIn(`/bins/${binId}/requests/${id}`, options);

  it('shows method, path, facts, the headers and the query of a JSON capture, pretty-printed', async () => {
    const { page, assertNoProblems, axeViolations, close } = await open(ids.json);
    const request = await detail(ids.json);
    const heading = page.getByRole('heading', { level: 1 });
    assert.equal(await heading.textContent(), `POST /v1/catch/${binId}/hooks/stripe?attempt=1&tag=a%20b&tag=c&empty=`);
    const facts = page.locator('.request-view > dl');
    assert.equal(
      await facts
        .locator('dt')
        .allTextContents()
        .then((t) => t.join('|')),
      'Time|Source IP|Content type|Size',
    );
    const [time, ...values] = await facts.locator('dd').allTextContents();
    assert.match(time, /^(just now|\d+ seconds ago)$/);
    assert.deepEqual(values, ['127.0.0.1', 'application/json', `${JSON_BODY.length} bytes`]);
    assert.equal(await facts.locator('time').getAttribute('datetime'), request.timestamp);

    const headers = page.getByRole('region', { name: 'Headers' });
    assert.deepEqual(await tableRows(headers.getByRole('table', { name: 'Request headers' })), Object.entries(request.headers));
    assert.ok(Object.entries(request.headers).some(([name, value]) => name === 'x-quote' && value === `it's "q"`));

    const query = page.getByRole('region', { name: 'Query' });
    assert.deepEqual(await tableRows(query.getByRole('table', { name: 'Query parameters' })), [
      ['attempt', '1'],
      ['tag', 'a b'],
      ['tag', 'c'],
      ['empty', ''],
    ]);
    assert.equal(await query.locator('.raw-query').textContent(), 'Raw: attempt=1&tag=a%20b&tag=c&empty=');

    const body = page.getByRole('region', { name: 'Body' });
    assert.deepEqual(await body.getByRole('group', { name: 'Body view' }).getByRole('button').allTextContents(), ['Pretty', 'Raw', 'Hex']);
    assert.equal(await body.getByRole('button', { name: 'Pretty' }).getAttribute('aria-pressed'), 'true');
    assert.equal(await body.locator('pre').textContent(), JSON.stringify(JSON.parse(JSON_BODY), null, 2));
    await body.getByRole('button', { name: 'Raw' }).click();
    assert.equal(await body.getByRole('button', { name: 'Raw' }).getAttribute('aria-pressed'), 'true');
    assert.equal(await body.locator('pre').textContent(), JSON_BODY);
    assert.equal(await body.locator('b').count(), 0);
    await body.getByRole('button', { name: 'Hex' }).click();
    assert.match(
      (await body.locator('pre').textContent()) ?? '',
      /^00000000 {2}7b 22 65 76 65 6e 74 22 {2}3a 22 70 61 69 64 22 2c {2}\|\{"event":"paid",\|\n/,
    );

    assert.deepEqual(await axeViolations(), []);
    assertNoProblems();
    await close();
  });

  it('shows a form body as a fields table, and "No query" without one', async () => {
    const { page, assertNoProblems, close } = await open(ids.form);
    assert.equal(await page.getByRole('region', { name: 'Query' }).locator('p').textContent(), 'No query');
    const body = page.getByRole('region', { name: 'Body' });
    assert.equal(await body.getByRole('button', { name: 'Fields' }).getAttribute('aria-pressed'), 'true');
    assert.deepEqual(await tableRows(body.getByRole('table', { name: 'Form fields' })), [
      ['name', "O'Brien"],
      ['note', 'a b'],
      ['empty', ''],
      ['tag', '1'],
      ['tag', '2'],
    ]);
    await body.getByRole('button', { name: 'Raw' }).click();
    assert.equal(await body.locator('pre').textContent(), 'name=O%27Brien&note=a+b&empty=&tag=1&tag=2');
    assertNoProblems();
    await close();
  });

  it('shows plain text as text, invalid JSON as text with a note, and no body as "No body"', async () => {
    const text = await open(ids.text);
    const body = text.page.getByRole('region', { name: 'Body' });
    await body.getByRole('group', { name: 'Body view' }).getByRole('button').first().waitFor();
    assert.deepEqual(await body.getByRole('group', { name: 'Body view' }).getByRole('button').allTextContents(), ['Raw', 'Hex']);
    assert.equal(await body.locator('pre').textContent(), 'hello\nwörld ✓');
    assert.equal(await text.page.getByRole('heading', { level: 1 }).textContent(), `PUT /v1/catch/${binId}`);
    text.assertNoProblems();
    await text.close();

    const bad = await open(ids.badJson);
    const badBody = bad.page.getByRole('region', { name: 'Body' });
    await badBody.getByText('Not valid JSON: shown as text.').waitFor();
    assert.equal(await badBody.getByRole('button', { name: 'Raw' }).getAttribute('aria-pressed'), 'true');
    assert.equal(await badBody.getByRole('button', { name: 'Pretty' }).count(), 0);
    assert.equal(await badBody.locator('pre').textContent(), '{"oops": ');
    bad.assertNoProblems();
    await bad.close();

    const empty = await open(ids.get);
    assert.equal(await empty.page.getByRole('region', { name: 'Body' }).locator('p').textContent(), 'No body');
    assert.equal(await empty.page.getByRole('button', { name: 'Download body' }).isDisabled(), true);
    empty.assertNoProblems();
    await empty.close();
  });

  it('shows a binary body as a hex dump with offsets, hex and ASCII, and downloads its exact bytes', async () => {
    const { page, assertNoProblems, axeViolations, close } = await open(ids.binary);
    const body = page.getByRole('region', { name: 'Body' });
    // The capture is fetched after the page opens: its view switch is read once it is there.
    await body.getByRole('button', { name: 'Hex' }).waitFor();
    assert.deepEqual(await body.getByRole('group', { name: 'Body view' }).getByRole('button').allTextContents(), ['Hex', 'Base64']);
    const lines = ((await body.locator('pre').textContent()) ?? '').split('\n');
    assert.equal(lines.length, 16);
    assert.equal(lines[0], '00000000  00 01 02 03 04 05 06 07  08 09 0a 0b 0c 0d 0e 0f  |................|');
    assert.equal(lines[2], '00000020  20 21 22 23 24 25 26 27  28 29 2a 2b 2c 2d 2e 2f  | !"#$%&\'()*+,-./|');
    assert.equal(lines[15], '000000f0  f0 f1 f2 f3 f4 f5 f6 f7  f8 f9 fa fb fc fd fe ff  |................|');
    await body.getByRole('button', { name: 'Base64' }).click();
    assert.equal(await body.locator('pre').textContent(), ALL_BYTES.toString('base64'));

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download body' }).click()]);
    assert.equal(download.suggestedFilename(), `${ids.binary}.bin`);
    assert.deepEqual(readFileSync(await download.path()), ALL_BYTES);
    assert.deepEqual(await axeViolations(), []);
    assertNoProblems();
    await close();
  });

  it('downloads a text body as its UTF-8 bytes under a name from its content type', async () => {
    const { page, assertNoProblems, close } = await open(ids.json);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download body' }).click()]);
    assert.equal(download.suggestedFilename(), `${ids.json}.json`);
    assert.deepEqual(readFileSync(await download.path()), Buffer.from(JSON_BODY, 'utf8'));
    assertNoProblems();
    await close();
  });

  it('shows an HTML body as literal text: no element is made from it and no script runs', async () => {
    const { page, assertNoProblems, close } = await open(ids.html);
    const body = page.getByRole('region', { name: 'Body' });
    assert.equal(await body.locator('pre').textContent(), HTML_BODY);
    assert.ok(await body.getByText('<b>x</b>', { exact: false }).isVisible());
    assert.equal(await page.locator('main b, main img, main script').count(), 0);
    assert.equal(await page.evaluate('typeof window.pwned'), 'undefined');
    assertNoProblems();
    await close();
  });

  it('shows the first part of a large body until "Show all"', async () => {
    const text = await open(ids.bigText);
    const body = text.page.getByRole('region', { name: 'Body' });
    const pre = body.locator('pre');
    assert.equal(((await pre.textContent()) ?? '').length, 65_536);
    assert.equal(await body.locator('.body-limit').textContent(), 'Showing the first 65,536 of 1,000,000 characters. Show all');
    await body.getByRole('button', { name: 'Show all' }).click();
    assert.equal(await pre.textContent(), 'abcdefghij'.repeat(100_000));
    assert.equal(await body.getByRole('button', { name: 'Show all' }).count(), 0);
    text.assertNoProblems();
    await text.close();

    const binary = await open(ids.bigBinary);
    const hex = binary.page.getByRole('region', { name: 'Body' });
    assert.equal(((await hex.locator('pre').textContent()) ?? '').split('\n').length, 256);
    assert.equal(await hex.locator('.body-limit').textContent(), 'Showing the first 4.0 KiB of 8.0 KiB. Show all');
    await hex.getByRole('button', { name: 'Show all' }).click();
    const lines = ((await hex.locator('pre').textContent()) ?? '').split('\n');
    assert.equal(lines.length, 512);
    assert.equal(lines[511], '00001ff0  ff ff ff ff ff ff ff ff  ff ff ff ff ff ff ff ff  |................|');
    binary.assertNoProblems();
    await binary.close();
  });

  it('Copy as cURL puts a command on the clipboard that bash and curl send again to the same bin', async () => {
    const { page, assertNoProblems, close } = await open(ids.json, { context: { permissions: ['clipboard-read', 'clipboard-write'] } });
    await page.getByRole('button', { name: 'Copy as cURL' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    const copied = (await page.evaluate('navigator.clipboard.readText()')) as string;
    const original = await detail(ids.json);
    assert.equal(copied, buildCurlCommand(original, web.url));
    assert.ok(copied.startsWith(`curl '${web.url}/v1/catch/${binId}/hooks/stripe?attempt=1&tag=a%20b&tag=c&empty=' \\\n`), copied);

    const script = join(dir, 'copied.sh');
    writeFileSync(script, copied);
    const { stdout } = await run('bash', [script], { timeout: 20_000 });
    const again = await detail((JSON.parse(stdout) as { request_id: string }).request_id);
    const { request_id: _a, timestamp: _b, headers: headersA, ...restA } = original;
    const { request_id: _c, timestamp: _d, headers: headersB, ...restB } = again;
    assert.deepEqual(restB, restA);
    const { host: _h1, 'content-length': _l1, connection: _c1, ...sentA } = headersA;
    const { host: _h2, 'content-length': _l2, connection: _c2, ...sentB } = headersB;
    assert.deepEqual(sentB, sentA);
    assertNoProblems();
    await close();
  });

  it('Replay sends the capture to an allowed target and shows its answer', async () => {
    const { page, assertNoProblems, axeViolations, close } = await open(ids.json);
    const toggle = page.getByRole('button', { name: 'Replay' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await page.getByLabel('Target URL').fill(targetUrl);
    const send = page.getByRole('button', { name: 'Send' });
    await send.click();
    await page
      .getByRole('status')
      .filter({ hasText: `Sending to ${targetUrl}…` })
      .waitFor();
    assert.equal(await send.isDisabled(), true);

    const answer = page.getByRole('region', { name: `Response from ${targetUrl}` });
    await answer.waitFor();
    assert.equal(await send.isDisabled(), false);
    assert.deepEqual(await answer.locator('dt').allTextContents(), ['Status', 'Time', 'Truncated']);
    const [status, time, truncated] = await answer.locator('dd').allTextContents();
    assert.equal(status, '201');
    assert.match(time, /^[\d,.]+ ms$/);
    assert.ok(Number(time.replace(/[^\d.]/g, '')) >= 400, time);
    assert.equal(truncated, 'No');
    const responseHeaders = Object.fromEntries(await tableRows(answer.getByRole('table', { name: 'Response headers' })));
    assert.equal(responseHeaders['x-target'], 'yes');
    assert.equal(responseHeaders['content-type'], 'text/plain');
    assert.equal(await answer.locator('pre').textContent(), `got POST /hook: <i>${JSON_BODY.length} bytes</i>`);
    assert.equal(await answer.locator('i').count(), 0);

    const last = received.at(-1)!;
    assert.equal(last.method, 'POST');
    assert.equal(last.headers['x-signature'], 't=1,v1=abc');
    assert.equal(last.body.toString('utf8'), JSON_BODY);
    assert.deepEqual(await axeViolations(), []);
    assertNoProblems();
    await close();
  });

  it('a refused replay target shows the API detail next to "Target URL"', async () => {
    const { page, apiErrors, assertNoProblems, close } = await open(ids.binary);
    const refused = 'http://127.0.0.1:9/not-allowed';
    const api = await fetch(`${web.url}/v1/bins/${binId}/requests/${ids.binary}/replay`, {
      method: 'POST',
      headers: { 'x-api-key': web.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ target_url: refused }),
    });
    assert.equal(api.status, 422);
    const { detail: expected, code } = (await api.json()) as { detail: string; code: string };
    assert.equal(code, 'target_not_allowed');

    await page.getByRole('button', { name: 'Replay' }).click();
    const field = page.getByLabel('Target URL');
    await field.fill(refused);
    await page.getByRole('button', { name: 'Send' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.equal(await alert.textContent(), expected);
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    assert.equal(await field.getAttribute('aria-describedby'), await alert.getAttribute('id'));
    assert.deepEqual(apiErrors, [`POST /v1/bins/${binId}/requests/${ids.binary}/replay 422`]);
    assertNoProblems();
    await close();
  });

  it('says so while loading, and when the request does not exist', async () => {
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn(`/bins/${binId}`);
    await page.route(`**/v1/bins/${binId}/requests/req_missing`, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
    await page.evaluate(`history.pushState(null, '', '/bins/${binId}/requests/req_missing'); dispatchEvent(new PopStateEvent('popstate'))`);
    await page.getByRole('status').filter({ hasText: 'Loading request…' }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Request not found' }).waitFor();
    assert.equal(
      await page.locator('.request-view p').first().textContent(),
      `Request req_missing is not in bin ${binId}: the bin may have been deleted or expired, or the request cleared or pushed out by newer ones.`,
    );
    assert.equal(await page.getByRole('link', { name: 'Back to the bin' }).getAttribute('href'), `/bins/${binId}`);
    assert.deepEqual(apiErrors, [`GET /v1/bins/${binId}/requests/req_missing 404`]);
    assertNoProblems();
    await close();
  });

  it('fits a 360px-wide screen', async () => {
    const { page, assertNoProblems, close } = await open(ids.json, { context: { viewport: { width: 360, height: 640 } } });
    await page.getByRole('region', { name: 'Body' }).waitFor();
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 360);
    await page.getByRole('button', { name: 'Replay' }).click();
    await page.getByRole('button', { name: 'Send' }).waitFor({ state: 'visible' });
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 360);
    assertNoProblems();
    await close();
  });
});
