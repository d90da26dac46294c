import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { browserSkipReason, startWebApp, type AppPage, type WebApp } from '../helpers/browser.js';

interface WireBin {
  bin_id: string;
  name: string;
  created_at: string;
  expires_at: string;
  request_count: number;
  catch_url: string;
}

/** Serious and critical accessibility violations only (the brief's bar). */
async function seriousViolations(opened: AppPage) {
  return (await opened.axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

describe('bins list in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  it('with no bin yet, says what to do next', async () => {
    const opened = await web.openSignedIn('/bins');
    const { page, assertNoProblems, close } = opened;
    await page.getByRole('heading', { level: 2, name: 'No bins yet' }).waitFor();
    assert.equal(
      await page.locator('.bins-empty p').textContent(),
      'Create a bin with "New bin", then point a webhook at its catch URL: each request it receives shows up live.',
    );
    assert.equal(await page.getByRole('button', { name: 'New bin' }).count(), 1);
    assert.deepEqual(await seriousViolations(opened), []);
    assertNoProblems();
    await close();
  });

  it('New bin creates a bin with the chosen lifetime, opens it, and shows the catch URL the API gave', async () => {
    const opened = await web.openSignedIn('/bins', { context: { permissions: ['clipboard-read', 'clipboard-write'] } });
    const { page, assertNoProblems, close } = opened;
    await page.getByRole('button', { name: 'New bin' }).click();
    const form = page.getByRole('form', { name: 'New bin' });
    assert.equal(await form.getByLabel('Lifetime').inputValue(), '86400');
    assert.deepEqual(await form.getByLabel('Lifetime').locator('option').allTextContents(), [
      '10 minutes',
      '1 hour',
      '6 hours',
      '12 hours',
      '1 day',
      '2 days',
    ]);
    assert.deepEqual(await seriousViolations(opened), []);
    await form.getByLabel('Name').fill('orders');
    await form.getByLabel('Lifetime').selectOption({ label: '1 hour' });
    const created = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/v1/bins');
    await form.getByRole('button', { name: 'Create bin' }).click();
    const { bin, url } = (await (await created).json()) as { bin: WireBin; url: string };

    await page.getByRole('heading', { level: 1, name: 'orders' }).waitFor();
    assert.equal(page.url(), `${web.url}/bins/${bin.bin_id}`);
    assert.equal(url, `${web.url}/v1/catch/${bin.bin_id}`);
    assert.equal(await page.locator('.bin-header .bin-url code').textContent(), url);
    assert.equal(Date.parse(bin.expires_at) - Date.parse(bin.created_at), 3600_000);
    await page.getByRole('button', { name: 'Copy URL' }).click();
    await page.getByText('Copied', { exact: true }).waitFor();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), url);

    // Back in the list: name, URL, count, and times relative with the exact one on hover.
    await page.getByRole('link', { name: 'Bins', exact: true }).click();
    const item = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'orders' }) });
    await item.waitFor();
    assert.equal(await item.locator('code').textContent(), url);
    // "in 59 minutes" once a fraction of a second has passed since the creation; "just now" lasts 5 s, which a busy machine can pass.
    assert.match(
      (await item.locator('.bin-meta').textContent())!,
      /^0 requests · created (just now|\d+ seconds ago) · expires in (1 hour|59 minutes)$/,
    );
    const expires = item.locator('time').nth(1);
    assert.equal(await expires.getAttribute('datetime'), bin.expires_at);
    assert.equal(await expires.getAttribute('title'), await exactTime(opened, bin.expires_at));
    await item.getByRole('link', { name: 'orders' }).click();
    await page.getByRole('heading', { level: 1, name: 'orders' }).waitFor();
    assert.equal(page.url(), `${web.url}/bins/${bin.bin_id}`);
    assertNoProblems();
    await close();
  });

  it("shows the API's validation message next to the field it names", async () => {
    const opened = await web.openSignedIn('/bins');
    const { page, apiErrors, assertNoProblems, close } = opened;
    const name = 'n'.repeat(129);
    const res = await fetch(`${web.url}/v1/bins`, {
      method: 'POST',
      headers: { 'x-api-key': web.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ name, ttl_seconds: 86400 }),
    });
    assert.equal(res.status, 422);
    const { errors } = (await res.json()) as { errors: { path: string; message: string }[] };
    assert.deepEqual(errors, [{ path: 'name', message: 'must NOT have more than 128 characters' }]);

    await page.getByRole('button', { name: 'New bin' }).click();
    const field = page.getByLabel('Name');
    await field.fill(name);
    await page.getByRole('button', { name: 'Create bin' }).click();
    const message = page.locator('#new-bin-name-error');
    await message.waitFor();
    assert.equal(await message.textContent(), errors[0].message);
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    assert.equal(await field.getAttribute('aria-describedby'), 'new-bin-name-error');
    assert.equal(await page.evaluate('document.activeElement.id'), 'new-bin-name');
    assert.deepEqual(apiErrors, ['POST /v1/bins 422']);
    assert.equal(page.url(), `${web.url}/bins`);
    assert.deepEqual(await seriousViolations(opened), []);

    await page.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(await page.getByRole('form', { name: 'New bin' }).count(), 0);
    assertNoProblems();
    await close();
  });

  it('Delete asks first, and removes the bin from the list and from the API', async () => {
    const { bin } = await web.api<{ bin: WireBin }>('POST', '/v1/bins', { name: 'to delete' });
    const opened = await web.openSignedIn('/bins');
    const { page, assertNoProblems, close } = opened;
    const item = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'to delete' }) });
    const button = item.getByRole('button', { name: 'Delete bin to delete' });
    const questions: string[] = [];

    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await button.click();
    await page.waitForTimeout(100);
    assert.equal(await item.count(), 1);
    await web.api('GET', `/v1/bins/${bin.bin_id}`);

    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.accept();
    });
    await button.click();
    await item.waitFor({ state: 'detached' });
    assert.deepEqual(questions, ['Delete the bin to delete and its requests?', 'Delete the bin to delete and its requests?']);
    const gone = await fetch(`${web.url}/v1/bins/${bin.bin_id}`, { headers: { 'x-api-key': web.apiKey } });
    assert.equal(gone.status, 404);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Bins' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'orders' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'to delete' }).count(), 0);
    assertNoProblems();
    await close();
  });

  it('an unknown bin says so, with a link back to the bins', async () => {
    const opened = await web.openSignedIn('/bins/bin_doesnotexist');
    const { page, apiErrors, assertNoProblems, close } = opened;
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.equal(await alert.textContent(), 'This bin does not exist or has expired.');
    // The bin and its live stream are asked for at once: both answer 404 (the stream's unless the first 404 cancelled it).
    assert.ok(apiErrors.includes('GET /v1/bins/bin_doesnotexist 404'), String(apiErrors));
    assert.deepEqual(
      apiErrors.filter((e) => e !== 'GET /v1/bins/bin_doesnotexist 404' && e !== 'GET /v1/bins/bin_doesnotexist/stream 404'),
      [],
    );
    assert.deepEqual(await seriousViolations(opened), []);
    await page.getByRole('link', { name: 'Back to bins' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bins' }).waitFor();
    assert.equal(page.url(), `${web.url}/bins`);
    assertNoProblems();
    await close();
  });

  it('fits a 360px-wide screen, long names and URLs included', async () => {
    await web.api('POST', '/v1/bins', { name: 'a-very-long-bin-name-without-any-space-'.repeat(3) });
    const opened = await web.openSignedIn('/bins', { context: { viewport: { width: 360, height: 640 } } });
    const { page, assertNoProblems, close } = opened;
    await page.getByRole('list', { name: 'Your bins' }).waitFor();
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 360);
    await page.getByRole('button', { name: 'New bin' }).click();
    await page.getByLabel('Name').waitFor();
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 360);
    assert.deepEqual(await seriousViolations(opened), []);
    assertNoProblems();
    await close();
  });
});

/** `iso` in the browser's language and zone, as the exact time shown on hover. */
async function exactTime({ page }: AppPage, iso: string): Promise<string> {
  return page.evaluate(`new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }).format(${Date.parse(iso)})`);
}
