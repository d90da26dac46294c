import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, startWebApp, type AppPage, type WebApp } from '../helpers/browser.js';
import { eventually } from '../helpers/tool-pages.js';

interface Created {
  bin: { bin_id: string; name: string };
  url: string;
}

/** Serious and critical accessibility violations only (the brief's bar). */
async function seriousViolations(opened: AppPage) {
  return (await opened.axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Send one request to a catch URL from Node; the id the service gave it. */
async function capture(url: string, init: RequestInit = { method: 'POST', body: '{}' }): Promise<string> {
  const res = await fetch(url, init);
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { request_id: string }).request_id;
}

const rowsOf = (page: Page) => page.getByRole('list', { name: 'Captured requests' }).getByRole('listitem');
const pathsOf = (page: Page) => rowsOf(page).locator('.capture-path').allTextContents();
const methodsOf = (page: Page) => rowsOf(page).locator('.capture-method').allTextContents();
const indicatorOf = (page: Page) => page.locator('.live-indicator');

/** The request ids of the rendered rows, top to bottom, read from their links. */
async function idsOf(page: Page): Promise<string[]> {
  const hrefs = await rowsOf(page)
    .getByRole('link')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  return hrefs.map((href) => href.split('/').pop()!);
}

/** Wait until the list holds `count` rows. */
async function waitForRows(page: Page, count: number, timeout = 10_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while ((await rowsOf(page).count()) !== count) {
    if (Date.now() > deadline) throw new Error(`expected ${count} rows, found ${await rowsOf(page).count()}`);
    await page.waitForTimeout(25);
  }
}

async function waitLive(page: Page): Promise<void> {
  await page.locator('.live-indicator', { hasText: /^Live$/ }).waitFor();
}

describe("a bin's live page in Chromium", { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  const createBin = (name: string) => web.api<Created>('POST', '/v1/bins', { name });
  /** The service's own 404 for an unknown bin, to answer a read with as though its bin had just gone. */
  const notFoundAnswer = async () => {
    const missing = await fetch(`${web.url}/v1/bins/bin_missing`, { headers: { 'x-api-key': web.apiKey } });
    assert.equal(missing.status, 404);
    return { status: 404, contentType: 'application/json; charset=utf-8', body: await missing.text() };
  };

  it('captures sent from Node appear live, newest first, with method, path and size, and no reload', async () => {
    const { bin, url } = await createBin('live');
    const opened = await web.openSignedIn(`/bins/${bin.bin_id}`, { context: { permissions: ['clipboard-read', 'clipboard-write'] } });
    const { page, assertNoProblems, close } = opened;
    await page.getByRole('heading', { level: 2, name: 'No requests yet' }).waitFor();
    const command = `curl -X POST '${url}' -H 'content-type: application/json' -d '{"hello":"world"}'`;
    assert.equal(await page.locator('.bin-empty p').first().textContent(), `Send a request to ${url}`);
    assert.equal(await page.locator('.bin-empty pre').textContent(), command);
    await page.getByRole('button', { name: 'Copy command' }).click();
    await page.getByText('Copied', { exact: true }).waitFor();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), command);
    await waitLive(page);
    assert.deepEqual(await seriousViolations(opened), []);
    await page.evaluate('window.__sameDocument = true');

    const ids: string[] = [];
    // How fast a row shows is measured by bench/web.mjs; a bound here would fail on a busy machine.
    ids.push(await capture(`${url}/text`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' }));
    await rowsOf(page).first().waitFor();

    const sends: [string, RequestInit][] = [
      ['/json', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"hello":"world"}' }],
      ['/form', { method: 'POST', body: new URLSearchParams({ a: '1', b: 'two words' }) }],
      [
        '/binary',
        {
          method: 'PUT',
          headers: { 'content-type': 'application/octet-stream' },
          body: Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
        },
      ],
      ['/big', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(1024 * 1024) }],
      ['/query?x=1&y=two', { method: 'GET' }],
    ];
    for (const [path, init] of sends) {
      ids.push(await capture(url + path, init));
      await waitForRows(page, ids.length);
    }

    assert.deepEqual(await idsOf(page), [...ids].reverse());
    assert.deepEqual(await methodsOf(page), ['GET', 'POST', 'PUT', 'POST', 'POST', 'POST']);
    assert.deepEqual(await pathsOf(page), ['/query?x=1&y=two', '/big', '/binary', '/form', '/json', '/text']);
    const sizes = (await rowsOf(page).locator('.capture-meta').allTextContents()).map((t) => t.split(' · ')[1]);
    assert.deepEqual(sizes, ['0 bytes', '1.0 MiB', '256 bytes', '15 bytes', '17 bytes', '5 bytes']);
    assert.equal(await page.locator('.capture-count').textContent(), '6 of 6 requests');
    assert.equal(await page.evaluate('window.__sameDocument'), true);
    assert.equal(await indicatorOf(page).textContent(), 'Live');
    assert.deepEqual(await seriousViolations(opened), []);
    assertNoProblems();
    await close();
  });

  it('Pause holds new rows, counting them, and Resume shows them in order', async () => {
    const { bin, url } = await createBin('pause');
    const first = await capture(`${url}/before`);
    const { page, assertNoProblems, close } = await web.openSignedIn(`/bins/${bin.bin_id}`);
    await waitForRows(page, 1);
    await waitLive(page);
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Resume (0 new)' }).waitFor();

    const held = [await capture(`${url}/held/1`), await capture(`${url}/held/2`)];
    await page.getByRole('button', { name: 'Resume (2 new)' }).waitFor();
    assert.deepEqual(await idsOf(page), [first]);
    assert.equal(await indicatorOf(page).textContent(), 'Live');

    await page.getByRole('button', { name: 'Resume (2 new)' }).click();
    await waitForRows(page, 3);
    assert.deepEqual(await idsOf(page), [held[1], held[0], first]);
    assert.deepEqual(await pathsOf(page), ['/held/2', '/held/1', '/before']);
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    const later = await capture(`${url}/after`);
    await waitForRows(page, 4);
    assert.equal((await idsOf(page))[0], later);
    assertNoProblems();
    await close();
  });

  it('the filter narrows the list, / focuses it, j and k move the selection and the URL, and a reload keeps the view', async () => {
    const { bin, url } = await createBin('keys');
    const ids = [
      await capture(`${url}/alpha`, { method: 'GET' }),
      await capture(`${url}/beta?token=abc`, { method: 'POST', body: 'b' }),
      await capture(`${url}/gamma`, { method: 'DELETE' }),
    ];
    const [newest, middle, oldest] = [ids[2], ids[1], ids[0]];
    const opened = await web.openSignedIn(`/bins/${bin.bin_id}`);
    const { page, assertNoProblems, close } = opened;
    await waitForRows(page, 3);

    await page.keyboard.press('/');
    const filter = page.getByRole('searchbox', { name: 'Filter requests' });
    assert.equal(await page.evaluate('document.activeElement.id'), 'capture-filter');
    // Each filter leaves one row: wait for the row it should leave, not for the count.
    await page.keyboard.type('post');
    await eventually(() => pathsOf(page), ['/beta?token=abc'], 'post');
    await filter.fill('gamma');
    await eventually(() => methodsOf(page), ['DELETE'], 'gamma');
    await filter.fill('TOKEN=');
    await eventually(() => idsOf(page), [middle], 'TOKEN=');
    assert.equal(await page.locator('.capture-count').textContent(), '1 of 3 loaded requests match');
    // Typing j and k in the filter is text, not navigation.
    await filter.fill('');
    await page.keyboard.type('jk');
    assert.equal(page.url(), `${web.url}/bins/${bin.bin_id}`);
    // Escape with text in the filter clears it: every request shows again.
    await filter.fill('gamma');
    await eventually(() => methodsOf(page), ['DELETE'], 'gamma again');
    await page.keyboard.press('Escape');
    await waitForRows(page, 3);
    assert.equal(await filter.inputValue(), '');
    assert.equal(await page.locator('.capture-count').textContent(), '3 of 3 requests');

    const selected = () => rowsOf(page).locator('a[aria-current="true"]');
    await page.keyboard.press('j');
    await page.waitForURL(`${web.url}/bins/${bin.bin_id}/requests/${newest}`);
    assert.equal(await selected().getAttribute('href'), `/bins/${bin.bin_id}/requests/${newest}`);
    await page.keyboard.press('j');
    await page.waitForURL(`${web.url}/bins/${bin.bin_id}/requests/${middle}`);
    await page.keyboard.press('j');
    await page.waitForURL(`${web.url}/bins/${bin.bin_id}/requests/${oldest}`);
    await page.keyboard.press('j');
    await page.waitForTimeout(100);
    assert.equal(page.url(), `${web.url}/bins/${bin.bin_id}/requests/${oldest}`);
    await page.keyboard.press('k');
    await page.waitForURL(`${web.url}/bins/${bin.bin_id}/requests/${middle}`);
    assert.deepEqual(await selected().locator('.capture-path').allTextContents(), ['/beta?token=abc']);
    assert.deepEqual(await seriousViolations(opened), []);

    await page.reload();
    await waitForRows(page, 3);
    assert.equal(page.url(), `${web.url}/bins/${bin.bin_id}/requests/${middle}`);
    assert.equal(await selected().getAttribute('href'), `/bins/${bin.bin_id}/requests/${middle}`);
    // The bin's name stays on top, while the request view's title is the page's one main heading.
    assert.equal(await page.locator('.bin-title .bin-name').textContent(), 'keys');
    assert.equal(await page.getByRole('heading', { level: 1 }).count(), 1);

    await rowsOf(page).getByRole('link').first().click();
    await page.waitForURL(`${web.url}/bins/${bin.bin_id}/requests/${newest}`);
    await page.goto(`${web.url}/bins/${bin.bin_id}`);
    await waitForRows(page, 3);
    assert.equal(await selected().count(), 0);
    await waitLive(page);
    assertNoProblems();
    await close();
  });

  it('j pressed straight after leaving a bin for a tool stays on the tool page', async () => {
    const { bin, url } = await createBin('leaving');
    await capture(`${url}/one`);
    const { page, assertNoProblems, close } = await web.openSignedIn(`/bins/${bin.bin_id}`);
    await waitForRows(page, 1);
    // A slow CPU stretches the frame in which the bin view's listeners are torn down, where the race lies.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    await page.keyboard.press('Control+k');
    const search = page.getByRole('dialog', { name: 'Search tools' });
    await search.getByLabel('Search tools').pressSequentially('base');
    await eventually(async () => (await search.getByRole('option').first().innerText()).split(/\s+/)[0], 'Base64', 'first option');
    await page.keyboard.press('Enter');
    await page.keyboard.press('j');
    await page.getByRole('heading', { level: 1, name: 'Base64' }).waitFor();
    await page.waitForTimeout(500);
    assert.equal(new URL(page.url()).pathname, '/tools/base64');
    assertNoProblems();
    await close();
  });

  it('Clear requests empties the list and keeps the bin', async () => {
    const { bin, url } = await createBin('clear');
    const [id] = [await capture(`${url}/one`), await capture(`${url}/two`)];
    const { page, assertNoProblems, close } = await web.openSignedIn(`/bins/${bin.bin_id}/requests/${id}`);
    await waitForRows(page, 2);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Clear requests' }).click();
    await page.getByRole('heading', { level: 2, name: 'No requests yet' }).waitFor();
    assert.equal(page.url(), `${web.url}/bins/${bin.bin_id}`);
    assert.deepEqual(await web.api('GET', `/v1/bins/${bin.bin_id}/requests`), { total: 0, requests: [] });
    // Still live after clearing.
    const next = await capture(`${url}/three`);
    await waitForRows(page, 1);
    assert.deepEqual(await idsOf(page), [next]);
    assertNoProblems();
    await close();
  });

  it('Delete bin asks, returns to the list, and the bin is gone', async () => {
    const { bin, url } = await createBin('doomed');
    await capture(url);
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn(`/bins/${bin.bin_id}`);
    await waitForRows(page, 1);
    await waitLive(page);
    let question = '';
    page.once('dialog', (dialog) => {
      question = dialog.message();
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Delete bin' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bins' }).waitFor();
    assert.equal(question, 'Delete the bin doomed and its requests?');
    assert.equal(page.url(), `${web.url}/bins`);
    await page.getByRole('list', { name: 'Your bins' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'doomed' }).count(), 0);
    const gone = await fetch(`${web.url}/v1/bins/${bin.bin_id}`, { headers: { 'x-api-key': web.apiKey } });
    assert.equal(gone.status, 404);
    assert.deepEqual(apiErrors, []);
    assertNoProblems();
    await close();
  });

  it('a bin deleted elsewhere says it is gone, with a link back', async () => {
    const { bin } = await createBin('elsewhere');
    const opened = await web.openSignedIn(`/bins/${bin.bin_id}`);
    const { page, assertNoProblems, close } = opened;
    await waitLive(page);
    // The first page read done: a 404 to it would race the stream's `end` event that names the reason.
    await page.getByRole('heading', { name: 'No requests yet' }).waitFor();
    await web.api('DELETE', `/v1/bins/${bin.bin_id}`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.equal(await alert.textContent(), 'This bin has been deleted.');
    assert.deepEqual(await seriousViolations(opened), []);
    await page.getByRole('link', { name: 'Back to bins' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bins' }).waitFor();
    assertNoProblems();
    await close();
  });

  for (const [read, pathOf] of [
    ['its first page', (id: string) => `/v1/bins/${id}/requests`],
    ['the bin itself', (id: string) => `/v1/bins/${id}`],
  ] as const) {
    it(`a bin deleted while ${read} is read says it was deleted, not that it never existed`, async () => {
      const { bin } = await createBin(`deleted-during-read ${read}`);
      const notFound = await notFoundAnswer();
      const { page, assertNoProblems, close } = await web.openSignedIn('/bins');
      // The read's 404 arrives while the stream is open, and the stream's `end` event (which names the
      // reason) after it: the order of the race when the bin is deleted as the read is answered.
      let deleted: Promise<unknown> | undefined;
      await page.route(
        (url) => url.pathname === pathOf(bin.bin_id),
        async (route) => {
          await waitLive(page);
          await route.fulfill(notFound);
          deleted = new Promise((resolve) => setTimeout(resolve, 300)).then(() => web.api('DELETE', `/v1/bins/${bin.bin_id}`));
        },
      );
      await page.goto(`${web.url}/bins/${bin.bin_id}`);
      const alert = page.getByRole('alert');
      await alert.waitFor();
      assert.equal(await alert.textContent(), 'This bin has been deleted.');
      await deleted;
      assertNoProblems();
      await close();
    });
  }

  it('an older page that answers 404 is read once while the page waits for the stream to say why', async () => {
    const { bin, url } = await createBin('older-gone');
    for (let i = 0; i < 220; i += 55) await Promise.all(Array.from({ length: 55 }, (_, j) => capture(`${url}/n/${i + j}`)));
    const { page, assertNoProblems, close } = await web.openSignedIn('/bins');
    const notFound = await notFoundAnswer();
    let olderReads = 0;
    await page.route(
      (at) => at.pathname === `/v1/bins/${bin.bin_id}/requests` && at.searchParams.get('offset') !== '0',
      async (route) => {
        olderReads++;
        await route.fulfill(notFound);
      },
    );
    await page.goto(`${web.url}/bins/${bin.bin_id}`);
    await page.getByText('/n/219', { exact: true }).waitFor();
    await waitLive(page);
    await page.locator('.capture-scroller').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    // The bin is still there, so no `end` event comes: the page gives up on its own after the wait.
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.equal(await alert.textContent(), 'This bin does not exist or has expired.');
    assert.equal(olderReads, 1);
    assertNoProblems();
    await close();
  });

  it('after the server restarts, it shows "Reconnecting…", resumes with Last-Event-ID and lists what was missed once', async () => {
    const { bin, url } = await createBin('restart');
    const { page, context, assertNoProblems, close } = await web.openSignedIn(`/bins/${bin.bin_id}`);
    await waitLive(page);
    const before = await capture(`${url}/before`);
    await waitForRows(page, 1);

    const resumedFrom: (string | null)[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith(`/v1/bins/${bin.bin_id}/stream`))
        void request.allHeaders().then((h) => resumedFrom.push(h['last-event-id'] ?? null));
    });
    // Hold the reconnection until the captures made meanwhile are stored, so the resume must bring them.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await context.route(`**/v1/bins/${bin.bin_id}/stream`, async (route) => {
      await gate;
      await route.fallback();
    });

    await web.service.restart();
    await page.locator('.live-indicator', { hasText: /^Reconnecting…$/ }).waitFor();
    const missed = [await capture(`${url}/missed/1`), await capture(`${url}/missed/2`), await capture(`${url}/missed/3`)];
    assert.equal(await rowsOf(page).count(), 1);
    release();

    await waitLive(page);
    await waitForRows(page, 4);
    const after = await capture(`${url}/after`);
    await waitForRows(page, 5);
    await page.waitForTimeout(300);
    assert.deepEqual(await idsOf(page), [after, ...[...missed].reverse(), before]);
    assert.deepEqual(await pathsOf(page), ['/after', '/missed/3', '/missed/2', '/missed/1', '/before']);
    assert.deepEqual(resumedFrom, [before]);
    assertNoProblems();
    await close();
  });

  it('a bin of 1000 captures opens on its newest rows with under 200 rows in the DOM, and scrolls to the oldest', async () => {
    const { bin, url } = await createBin('thousand');
    const ids: string[] = [];
    for (let i = 0; i < 1000; i += 50) {
      const batch = Array.from({ length: 50 }, (_, j) => capture(`${url}/n/${i + j}`, { method: 'POST', body: String(i + j) }));
      ids.push(...(await Promise.all(batch)));
    }
    const listed: string[] = [];
    const opened = await web.openSignedIn(`/bins/${bin.bin_id}`);
    const { page, assertNoProblems, close } = opened;
    page.on('request', (request) => {
      const at = new URL(request.url());
      if (at.pathname === `/v1/bins/${bin.bin_id}/requests`) listed.push(at.search);
    });
    await page.getByText('/n/999', { exact: true }).waitFor();
    assert.equal(await page.locator('.capture-count').textContent(), '200 of 1000 requests');
    const rendered = await rowsOf(page).count();
    assert.ok(rendered > 5 && rendered < 200, `${rendered} rows in the DOM`);
    assert.equal(await rowsOf(page).first().getAttribute('aria-setsize'), '200');
    assert.deepEqual(await seriousViolations(opened), []);

    // Scrolling to the end loads the older pages, 200 at a time, still rendering only a window.
    await eventually(
      async () => {
        await page.locator('.capture-scroller').evaluate((el) => el.scrollTo(0, el.scrollHeight));
        return page.locator('.capture-count').textContent();
      },
      '1000 of 1000 requests',
      'all pages loaded',
      30_000,
    );
    await page.locator('.capture-scroller').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.getByText('/n/0', { exact: true }).waitFor();
    assert.ok((await rowsOf(page).count()) < 200);
    assert.equal(await rowsOf(page).last().getAttribute('aria-posinset'), '1000');
    assert.equal(await page.getByRole('button', { name: 'Load older requests' }).count(), 0);
    // The first page may be asked for before this listener was added.
    assert.deepEqual(
      listed.filter((search) => search !== '?limit=200&offset=0'),
      ['?limit=200&offset=200', '?limit=200&offset=400', '?limit=200&offset=600', '?limit=200&offset=800'],
    );
    assertNoProblems();
    await close();

    // A deep link to a request far down the first page scrolls its row into view.
    const deep = await web.openSignedIn(`/bins/${bin.bin_id}/requests/${ids[850]}`);
    const row = deep.page.locator('.capture-list a[aria-current="true"]');
    await row.waitFor();
    assert.equal(await row.locator('.capture-path').textContent(), '/n/850');
    assert.ok(await row.isVisible());
    assert.ok(
      await row.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const view = el.closest('.capture-scroller')!.getBoundingClientRect();
        return box.top >= view.top && box.bottom <= view.bottom;
      }),
    );
    deep.assertNoProblems();
    await deep.close();
  });

  it('on a 360px-wide screen shows the list, then the selected request alone with a link back', async () => {
    const { bin, url } = await createBin('narrow');
    const id = await capture(`${url}/a-rather-long-sub-path/that/does/not/fit/on/a/narrow/screen?with=a&long=query`);
    const opened = await web.openSignedIn(`/bins/${bin.bin_id}`, { context: { viewport: { width: 360, height: 640 } } });
    const { page, assertNoProblems, close } = opened;
    await waitForRows(page, 1);
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 360);
    for (const name of ['Copy URL', 'Clear requests', 'Delete bin', 'Pause'])
      assert.ok(await page.getByRole('button', { name }).isVisible(), name);
    assert.ok(await indicatorOf(page).isVisible());
    assert.deepEqual(await seriousViolations(opened), []);

    await rowsOf(page).getByRole('link').click();
    await page.waitForURL(`${web.url}/bins/${bin.bin_id}/requests/${id}`);
    const back = page.getByRole('link', { name: '← All requests' });
    await back.waitFor();
    assert.equal(await page.getByRole('list', { name: 'Captured requests' }).isVisible(), false);
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 360);
    await back.click();
    await page.waitForURL(`${web.url}/bins/${bin.bin_id}`);
    await page.getByRole('list', { name: 'Captured requests' }).waitFor();
    assertNoProblems();
    await close();
  });
});
