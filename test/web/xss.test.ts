import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { browserSkipReason, startWebApp, type AppPage, type WebApp } from '../helpers/browser.js';
import { assertNothingRan, CANARY, CORPUS, HTML_BODY, IMG, LINK, SCRIPT, SVG, watchDialogs } from '../helpers/xss-corpus.js';

/** Send one capture with a raw path, query and headers (fetch would percent-encode what we want raw). */
function sendRaw(url: string, path: string, headers: Record<string, string>, body: string): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: target.hostname, port: target.port, method: 'POST', path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('request data never runs in the web app (XSS corpus)', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  let binId = '';
  let requestIds: string[] = [];
  let mockId = '';
  let evilKey = '';
  // A replay target whose answer is the corpus: status, headers and body of a hostile server.
  const target = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/html', 'x-evil-script': SCRIPT, 'x-evil-link': LINK });
      res.end(HTML_BODY);
    });
  });
  let targetUrl = '';

  before(async () => {
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const { port } = target.address() as AddressInfo;
    targetUrl = `http://127.0.0.1:${port}/${encodeURIComponent(SCRIPT)}`;
    web = await startWebApp({ ADMIN_TOKEN, REPLAY_ALLOW_HOSTS: `127.0.0.1:${port}` });
    const created = await web.api<{ bin: { bin_id: string }; url: string }>('POST', '/v1/bins', { name: `${SCRIPT}${IMG}` });
    binId = created.bin.bin_id;
    const base = `/v1/catch/${binId}`;
    const evilHeaders = { 'x-evil-script': SCRIPT, 'x-evil-img': IMG, 'x-evil-link': LINK, referer: LINK };
    const captures: [string, Record<string, string>, string][] = [
      // A captured HTML page.
      [`${base}/page`, { 'content-type': 'text/html', ...evilHeaders }, HTML_BODY],
      // Payloads in the path and the query, left raw by the client.
      [`${base}/<script>alert(1)</script>/${IMG.replace(/ /g, '%20')}?q=${SCRIPT}&u=${LINK}&s=${SVG.replace(/ /g, '+')}`, evilHeaders, 'x'],
      // JSON and form bodies whose values are markup.
      [`${base}/json`, { 'content-type': 'application/json' }, JSON.stringify({ [SCRIPT]: CORPUS, link: LINK, nested: { svg: SVG } })],
      [
        `${base}/form`,
        { 'content-type': 'application/x-www-form-urlencoded' },
        new URLSearchParams({ [IMG]: SCRIPT, link: LINK }).toString(),
      ],
      // SVG and plain text declared as such.
      [
        `${base}/svg`,
        { 'content-type': 'image/svg+xml' },
        `<svg xmlns="http://www.w3.org/2000/svg" onload="window.${CANARY}=6">${SCRIPT}</svg>`,
      ],
      [`${base}/text`, { 'content-type': 'text/plain' }, CORPUS.join('\n')],
    ];
    for (const [path, headers, body] of captures) assert.equal(await sendRaw(web.url, path, headers, body), 200);
    const list = await web.api<{ requests: { request_id: string }[] }>('GET', `/v1/bins/${binId}/requests?limit=50`);
    requestIds = list.requests.map((r) => r.request_id);
    assert.equal(requestIds.length, captures.length);

    const mock = await web.api<{ mock: { mock_id: string } }>('POST', '/v1/mocks', {
      name: SVG,
      content_type: 'text/html',
      headers: { 'x-evil': SCRIPT },
      body: HTML_BODY,
    });
    mockId = mock.mock.mock_id;

    const res = await fetch(`${web.url}/v1/admin/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-token': ADMIN_TOKEN },
      body: JSON.stringify({ plan: 'free', name: `${SCRIPT}${IMG}`.slice(0, 100) }),
    });
    assert.equal(res.status, 201);
    evilKey = ((await res.json()) as { api_key: string }).api_key;
  });
  after(async () => {
    await web?.close();
    await new Promise((resolve) => target.close(resolve));
  });

  /** Open `path`, let it render, then check nothing ran, loaded or navigated away. */
  async function openAndCheck(opened: AppPage, expectText: string) {
    const { page } = opened;
    const dialogs = watchDialogs(page);
    await page.getByText(expectText, { exact: false }).first().waitFor();
    // Let lazy work (stream events, relative times, editors) happen.
    await page.waitForTimeout(300);
    // Every button of the view that changes how a body is shown (Pretty / Raw / Hex / Show all).
    for (const name of ['Raw', 'Hex', 'Pretty', 'Text', 'Show all']) {
      const button = page.getByRole('button', { name, exact: true });
      if ((await button.count()) > 0 && (await button.first().isEnabled())) await button.first().click();
    }
    await page.waitForTimeout(200);
    await assertNothingRan(opened, dialogs, web.url);
    await opened.close();
  }

  it('the bins list shows a markup name as text', async () => {
    const opened = await web.openSignedIn('/bins');
    await openAndCheck(opened, SCRIPT);
  });

  it('the bin page lists captures with markup paths as text', async () => {
    const opened = await web.openSignedIn(`/bins/${binId}`);
    await openAndCheck(opened, '/page');
  });

  it('every captured request view shows headers, query and body as text', async () => {
    for (const requestId of requestIds) {
      const opened = await web.openSignedIn(`/bins/${binId}/requests/${requestId}`);
      await openAndCheck(opened, 'Headers');
    }
  });

  it("a replay target's answer of markup, in its headers and its HTML body, shows as text", async () => {
    const opened = await web.openSignedIn(`/bins/${binId}/requests/${requestIds.at(-1)!}`);
    const { page } = opened;
    const dialogs = watchDialogs(page);
    await page.getByRole('button', { name: 'Replay' }).click();
    await page.getByLabel('Target URL').fill(targetUrl);
    await page.getByRole('button', { name: 'Send' }).click();
    const answer = page.getByRole('region', { name: /^Response from / });
    await answer.locator('pre').filter({ hasText: '<!doctype html>' }).waitFor();
    assert.equal(await answer.locator('pre').textContent(), HTML_BODY);
    assert.ok((await answer.getByRole('table', { name: 'Response headers' }).innerText()).includes(SCRIPT));
    await assertNothingRan(opened, dialogs, web.url);
    await opened.close();
  });

  it("Try it on a mock that answers markup shows the mock's answer as text", async () => {
    const opened = await web.openSignedIn(`/mocks/${mockId}`);
    const { page } = opened;
    const dialogs = watchDialogs(page);
    await page.getByRole('button', { name: 'Try it' }).click();
    const body = page.getByLabel('Response body');
    await body.waitFor();
    assert.equal(await body.textContent(), HTML_BODY);
    assert.ok((await page.locator('.mock-try-headers').innerText()).includes(SCRIPT));
    await assertNothingRan(opened, dialogs, web.url);
    await opened.close();
  });

  it('the mocks list and the mock page show markup as text', async () => {
    await openAndCheck(await web.openSignedIn('/mocks'), 'onload');
    await openAndCheck(await web.openSignedIn(`/mocks/${mockId}`), 'onload');
  });

  it('the account view shows a markup key name as text', async () => {
    await openAndCheck(await web.openSignedIn('/account', { key: evilKey }), '<script>');
  });
});
