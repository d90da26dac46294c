import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';

interface Mock {
  mock_id: string;
  name: string;
  status_code: number;
  content_type: string;
  delay_ms: number;
  has_custom_headers: boolean;
  has_body: boolean;
  created_at: string;
  expires_at: string;
  hit_count: number;
  endpoint_url: string;
  headers: Record<string, string>;
  body: string;
  method: string | null;
  path: string | null;
}

/** A string CodeMirror's chunk holds and the app's own code does not: the editor's content class. */
const EDITOR_MARK = 'cm-content';

/** The texts of the elements that describe the Body editor (element references: ids cannot leave its shadow root). */
const EDITOR_DESCRIPTION =
  "[...(document.querySelector('.mock-body-editor').shadowRoot.querySelector('.cm-content').ariaDescribedByElements ?? [])].map((e) => e.textContent).join(' | ')";

describe('mocks in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  const getMock = async (id: string) => (await web.api<{ mock: Mock }>('GET', `/v1/mocks/${id}`)).mock;
  const createMock = async (body: Record<string, unknown>) => (await web.api<{ mock: Mock; url: string }>('POST', '/v1/mocks', body)).mock;

  /** What the API itself says about a create body it refuses: its errors[]. */
  async function refusal(body: unknown): Promise<{ path: string; message: string }[]> {
    const res = await fetch(`${web.url}/v1/mocks`, {
      method: 'POST',
      headers: { 'x-api-key': web.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(res.status, 422);
    return ((await res.json()) as { errors: { path: string; message: string }[] }).errors;
  }

  /** The text of the elements a field's aria-describedby names. */
  async function description(field: Locator): Promise<string> {
    const ids = (await field.getAttribute('aria-describedby')) ?? '';
    const texts = await Promise.all(ids.split(' ').map((id) => field.page().locator(`[id="${id}"]`).textContent()));
    return texts.join(' | ');
  }

  /** The CodeMirror Body editor (inside its shadow root), once its chunk has loaded. */
  async function bodyEditor(page: Page): Promise<Locator> {
    const editor = page.locator(`.${EDITOR_MARK}[aria-label="Body"]`);
    await editor.waitFor();
    return editor;
  }

  /** The Body editor's text, one line per CodeMirror line element. */
  const editorText = async (page: Page) => (await page.locator('.cm-content[aria-label="Body"] .cm-line').allTextContents()).join('\n');

  /** The URLs of the JavaScript files the page has loaded so far. */
  const scriptUrls = async (page: Page) => (await page.evaluate("performance.getEntriesByType('resource').map((e) => e.name)")) as string[];

  const meta = (page: Page, term: string) =>
    page
      .locator('.mock-meta div')
      .filter({ has: page.getByText(term, { exact: true }) })
      .locator('dd');

  it('an empty list says what to do; /bins loads no editor code, the mock form loads it without a CSP violation', async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/bins');
    await page.waitForLoadState('networkidle');
    const binsScripts = (await scriptUrls(page)).filter((url) => url.endsWith('.js'));
    assert.ok(binsScripts.length > 0);
    for (const url of binsScripts) assert.ok(!(await (await fetch(url)).text()).includes(EDITOR_MARK), `${url} holds the editor`);

    await page.getByRole('link', { name: 'Mocks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Mocks' }).waitFor();
    const empty = page.locator('.mocks-empty');
    assert.equal(
      await empty.textContent(),
      'No mocks yet. Choose New mock to make a URL that answers with the status, headers, body and delay you set: a stand-in for an API your code calls, or for a webhook receiver.',
    );
    assert.deepEqual(await axeViolations(), []);

    await page.getByRole('button', { name: 'New mock' }).click();
    assert.equal(page.url(), `${web.url}/mocks?new`);
    await bodyEditor(page);
    const added = (await scriptUrls(page)).filter((url) => url.endsWith('.js') && !binsScripts.includes(url));
    // The editor arrives with the form (in one or more chunks, as Vite splits CodeMirror's packages).
    const holding = [];
    for (const url of added) if ((await (await fetch(url)).text()).includes(EDITOR_MARK)) holding.push(url);
    assert.ok(holding.length >= 1, `no editor in the scripts the form added: ${added.join(', ')}`);
    // The form opens with the API's defaults.
    assert.equal(await page.getByLabel('Status', { exact: true }).inputValue(), '200');
    assert.equal(await page.getByLabel('Content type', { exact: true }).inputValue(), 'application/json');
    assert.equal(await page.getByLabel('Delay (ms)', { exact: true }).inputValue(), '0');
    assert.equal(await page.getByLabel('Lifetime (seconds)', { exact: true }).inputValue(), '86400');
    assert.equal(await page.getByLabel('Method', { exact: true }).inputValue(), '');
    assert.deepEqual(await axeViolations(), []);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'New mock' }).waitFor();
    assert.equal(page.url(), `${web.url}/mocks`);
    assertNoProblems();
    await close();
  });

  it('a mock created through the form with every field has exactly those values, and the list shows it', async () => {
    const { page, context, assertNoProblems, axeViolations, close } = await web.openSignedIn('/mocks');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.url });
    await page.getByRole('button', { name: 'New mock' }).click();
    await page.getByLabel('Name', { exact: true }).fill('order hook');
    await page.getByLabel('Status', { exact: true }).fill('201');
    await page.getByLabel('Content type', { exact: true }).fill('application/json; charset=utf-8');
    const headers = page.getByRole('group', { name: 'Headers' });
    await headers.getByRole('button', { name: 'Add header' }).click();
    await headers.getByLabel('Header 1 name', { exact: true }).fill('x-one');
    await headers.getByLabel('Header 1 value', { exact: true }).fill('first');
    await headers.getByRole('button', { name: 'Add header' }).click();
    await headers.getByLabel('Header 2 name', { exact: true }).fill('x-two');
    await headers.getByLabel('Header 2 value', { exact: true }).fill('second value');
    // A third row, removed again: only the two remain.
    await headers.getByRole('button', { name: 'Add header' }).click();
    await headers.getByLabel('Header 3 name', { exact: true }).fill('x-gone');
    await headers.getByRole('button', { name: 'Remove header 3' }).click();
    assert.equal(await headers.getByRole('textbox').count(), 4);

    const editor = await bodyEditor(page);
    await editor.click();
    await page.keyboard.type('{"ok":tru');
    const warning = page.locator('#mock-body-warning');
    await warning.waitFor();
    assert.match((await warning.textContent()) ?? '', /^Not valid JSON \(.+\)\. The mock serves the body exactly as written\.$/);
    assert.equal(await page.evaluate(EDITOR_DESCRIPTION), await warning.textContent());
    assert.equal(await editor.getAttribute('aria-invalid'), null);
    await page.keyboard.type('e,"n":1}');
    await warning.waitFor({ state: 'detached' });
    assert.equal(await editor.textContent(), '{"ok":true,"n":1}');

    await page.getByLabel('Delay (ms)', { exact: true }).fill('0');
    await page.getByLabel('Method', { exact: true }).selectOption('POST');
    await page.getByLabel('Path', { exact: true }).fill('/hook');
    await page.getByLabel('Lifetime (seconds)', { exact: true }).fill('3600');
    assert.deepEqual(await axeViolations(), []);
    await page.getByRole('button', { name: 'Create mock' }).click();

    await page.waitForURL(/\/mocks\/mock_[\w-]+$/);
    await page.getByRole('heading', { level: 1, name: 'order hook' }).waitFor();
    const id = new URL(page.url()).pathname.split('/')[2];
    const mock = await getMock(id);
    assert.deepEqual(
      {
        name: mock.name,
        status_code: mock.status_code,
        content_type: mock.content_type,
        headers: mock.headers,
        body: mock.body,
        delay_ms: mock.delay_ms,
        method: mock.method,
        path: mock.path,
        hit_count: mock.hit_count,
        lifetime_ms: Date.parse(mock.expires_at) - Date.parse(mock.created_at),
      },
      {
        name: 'order hook',
        status_code: 201,
        content_type: 'application/json; charset=utf-8',
        headers: { 'x-one': 'first', 'x-two': 'second value' },
        body: '{"ok":true,"n":1}',
        delay_ms: 0,
        method: 'POST',
        path: '/hook',
        hit_count: 0,
        lifetime_ms: 3_600_000,
      },
    );
    const url = `${web.url}/v1/mock/${id}/hook`;
    assert.equal(await page.locator('.mock-url code').textContent(), url);
    assert.equal(await meta(page, 'Hits').textContent(), '0');

    // Back leads to the list, not to the emptied form: the create replaced its history entry.
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Mocks' }).waitFor();
    assert.equal(page.url(), `${web.url}/mocks`);
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'order hook' }) });
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    assert.deepEqual(cells.slice(0, 5), ['order hook', 'POST', '201', `${url}Copy URL`, '0']);
    assert.match(cells[5], /^in (1 hour|59 minutes)$/);
    assert.equal(await row.locator('time').getAttribute('datetime'), mock.expires_at);
    assert.equal(await row.locator('code').textContent(), url);
    await row.getByRole('button', { name: 'Copy URL' }).click();
    await row.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), url);
    assert.deepEqual(await axeViolations(), []);
    await row.getByRole('link', { name: 'order hook' }).click();
    await page.getByRole('heading', { level: 1, name: 'order hook' }).waitFor();
    assert.equal(page.url(), `${web.url}/mocks/${id}`);
    assertNoProblems();
    await close();
  });

  it("the API's message for a bad value is shown next to its field, and nothing is created", async () => {
    const before = (await web.api<{ total: number }>('GET', '/v1/mocks')).total;
    const { page, apiErrors, assertNoProblems, axeViolations, close } = await web.openSignedIn('/mocks?new');
    await bodyEditor(page);
    // The input's min is 100; the form leaves the judgement to the API.
    const status = page.getByLabel('Status', { exact: true });
    await status.fill('99');
    await page.getByRole('button', { name: 'Create mock' }).click();
    await page.locator('#mock-status-error').waitFor();
    const [statusError] = await refusal({ status_code: 99 });
    assert.deepEqual(statusError.path, 'status_code');
    assert.equal(await description(status), `100 to 599. | ${statusError.message}`);
    assert.equal(await status.getAttribute('aria-invalid'), 'true');
    // Every error named a field, so no sentence above the form; the field with one has focus.
    assert.equal(await page.getByRole('alert').count(), 0);
    assert.equal(await page.evaluate('document.activeElement.id'), 'mock-status');
    assert.deepEqual(await axeViolations(), []);

    // The header names are checked once the schema holds: a name with a space, on its row.
    await status.fill('200');
    const headers = page.getByRole('group', { name: 'Headers' });
    await headers.getByRole('button', { name: 'Add header' }).click();
    const headerName = headers.getByLabel('Header 1 name', { exact: true });
    await headerName.fill('x bad');
    await headers.getByLabel('Header 1 value', { exact: true }).fill('1');
    await page.getByRole('button', { name: 'Create mock' }).click();
    await headerName.and(page.locator('[aria-invalid="true"]')).waitFor();
    const [headerError] = await refusal({ headers: { 'x bad': '1' } });
    assert.equal(headerError.path, 'headers.x bad');
    assert.equal(await description(headerName), headerError.message);
    assert.equal(await status.getAttribute('aria-invalid'), null);
    assert.equal(await page.evaluate('document.activeElement.id'), await headerName.getAttribute('id'));
    assert.equal(await page.getByRole('alert').count(), 0);
    assert.deepEqual(apiErrors, ['POST /v1/mocks 422', 'POST /v1/mocks 422']);
    assert.deepEqual(await axeViolations(), []);

    // A value the form sees as missing is said at once, without a call.
    await status.fill('');
    await page.getByRole('button', { name: 'Create mock' }).click();
    await page.getByText('Enter a number.').waitFor();
    assert.equal(await description(status), '100 to 599. | Enter a number.');
    assert.deepEqual(apiErrors, ['POST /v1/mocks 422', 'POST /v1/mocks 422']);

    // Corrected, it is created.
    await status.fill('200');
    await headerName.fill('x-good');
    await page.getByRole('button', { name: 'Create mock' }).click();
    await page.waitForURL(/\/mocks\/mock_[\w-]+$/);
    assert.equal((await web.api<{ total: number }>('GET', '/v1/mocks')).total, before + 1);
    assertNoProblems();
    await close();
  });

  it('Try it shows the configured status, headers and body, and the hit count goes from 0 to 1', async () => {
    const mock = await createMock({
      name: 'try me',
      status_code: 202,
      content_type: 'text/plain; charset=utf-8',
      headers: { 'x-trace': 't-1' },
      body: 'accepted <b>as text</b>',
      method: 'PUT',
    });
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn(`/mocks/${mock.mock_id}`);
    await page.getByRole('heading', { level: 1, name: 'try me' }).waitFor();
    assert.equal(await meta(page, 'Hits').textContent(), '0');
    const tryIt = page.getByRole('region', { name: 'Try it' });
    assert.equal(await tryIt.locator('.hint').textContent(), `Sends PUT to ${web.url}/v1/mock/${mock.mock_id} from this browser.`);
    await tryIt.getByRole('button', { name: 'Try it' }).click();
    const status = tryIt.locator('.mock-try-status');
    await status.waitFor();
    assert.match((await status.textContent()) ?? '', /^202 Accepted in \d+ ms$/);
    assert.equal(await tryIt.getByLabel('Response body').textContent(), 'accepted <b>as text</b>');
    assert.equal(await tryIt.locator('b').count(), 0);
    const header = async (name: string) =>
      tryIt
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name, exact: true }) })
        .getByRole('cell')
        .textContent();
    assert.equal(await header('x-trace'), 't-1');
    assert.equal(await header('x-mock-id'), mock.mock_id);
    assert.equal(await header('content-type'), 'text/plain; charset=utf-8');
    assert.equal(await header('content-security-policy'), 'sandbox');

    await meta(page, 'Hits').filter({ hasText: /^1$/ }).waitFor();
    assert.equal(await meta(page, 'Hits').textContent(), '1');
    assert.equal((await getMock(mock.mock_id)).hit_count, 1);
    assert.deepEqual(await axeViolations(), []);
    assertNoProblems();
    await close();
  });

  it('editing sends only the changed fields; a reload shows the saved values', async () => {
    const mock = await createMock({
      name: 'to edit',
      status_code: 200,
      headers: { 'x-one': '1', 'x-two': '2' },
      body: '{"v":1}',
      method: 'GET',
      path: '/a',
      delay_ms: 10,
    });
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn(`/mocks/${mock.mock_id}`);
    await page.getByRole('heading', { level: 1, name: 'to edit' }).waitFor();
    const form = page.getByRole('region', { name: 'Edit mock' });
    assert.equal(await form.getByLabel('Name', { exact: true }).inputValue(), 'to edit');
    assert.equal(await form.getByLabel('Method', { exact: true }).inputValue(), 'GET');
    assert.equal(await form.getByLabel('Path', { exact: true }).inputValue(), '/a');
    assert.equal(await form.getByLabel('Delay (ms)', { exact: true }).inputValue(), '10');
    assert.equal(await form.getByLabel('Lifetime (seconds)', { exact: true }).inputValue(), '');
    assert.equal(await form.getByLabel('Header 2 value', { exact: true }).inputValue(), '2');
    assert.equal(await (await bodyEditor(page)).textContent(), '{"v":1}');

    // Nothing changed: no call.
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByRole('status').filter({ hasText: 'Nothing changed.' }).waitFor();
    const tryIt = page.getByRole('region', { name: 'Try it' });
    await tryIt.getByRole('button', { name: 'Try it' }).click();
    await tryIt
      .locator('.mock-try-status')
      .filter({ hasText: /^200 OK in \d+ ms$/ })
      .waitFor();

    await form.getByLabel('Status', { exact: true }).fill('503');
    await form.getByRole('button', { name: 'Remove header 1' }).click();
    await form.getByLabel('Method', { exact: true }).selectOption('');
    await form.getByLabel('Lifetime (seconds)', { exact: true }).fill('120');
    const patch = page.waitForRequest((r) => r.method() === 'PATCH');
    await form.getByRole('button', { name: 'Save changes' }).click();
    assert.deepEqual((await patch).postDataJSON(), { status_code: 503, headers: { 'x-two': '2' }, method: null, ttl_seconds: 120 });
    await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    // The answer of the mock as it was is gone: Try it starts afresh.
    assert.equal(await tryIt.locator('.mock-try-status').count(), 0);

    const saved = await getMock(mock.mock_id);
    assert.deepEqual(
      [saved.name, saved.status_code, saved.headers, saved.body, saved.method, saved.path, saved.delay_ms],
      ['to edit', 503, { 'x-two': '2' }, '{"v":1}', null, '/a', 10],
    );
    assert.ok(Math.abs(Date.parse(saved.expires_at) - Date.now() - 120_000) < 10_000);
    assert.equal(await form.getByLabel('Lifetime (seconds)', { exact: true }).inputValue(), '');
    assert.equal(await meta(page, 'Method').textContent(), 'any');
    assert.equal(await meta(page, 'Status').textContent(), '503');

    // A body edited in the editor, with another method typed as free text.
    const editor = await bodyEditor(page);
    await editor.click();
    await page.keyboard.press('End');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(',"w":2}');
    await form.getByLabel('Method', { exact: true }).selectOption('other');
    await form.getByLabel('Custom method', { exact: true }).fill('PURGE');
    const second = page.waitForRequest((r) => r.method() === 'PATCH');
    await form.getByRole('button', { name: 'Save changes' }).click();
    assert.deepEqual((await second).postDataJSON(), { body: '{"v":1,"w":2}', method: 'PURGE' });
    await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    assert.deepEqual([(await getMock(mock.mock_id)).body, (await getMock(mock.mock_id)).method], ['{"v":1,"w":2}', 'PURGE']);

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'to edit' }).waitFor();
    assert.equal(page.url(), `${web.url}/mocks/${mock.mock_id}`);
    assert.equal(await form.getByLabel('Status', { exact: true }).inputValue(), '503');
    assert.equal(await form.getByLabel('Method', { exact: true }).inputValue(), 'other');
    assert.equal(await form.getByLabel('Custom method', { exact: true }).inputValue(), 'PURGE');
    assert.equal(await (await bodyEditor(page)).textContent(), '{"v":1,"w":2}');
    assert.deepEqual(await axeViolations(), []);
    assertNoProblems();
    await close();
  });

  it('saving a mock deleted meanwhile shows the API detail above the form', async () => {
    const mock = await createMock({ name: 'vanishing' });
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn(`/mocks/${mock.mock_id}`);
    await page.getByRole('heading', { level: 1, name: 'vanishing' }).waitFor();
    await web.api('DELETE', `/v1/mocks/${mock.mock_id}`);
    await page.getByLabel('Name', { exact: true }).fill('renamed');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const res = await fetch(`${web.url}/v1/mocks/${mock.mock_id}`, { headers: { 'x-api-key': web.apiKey } });
    assert.equal(await alert.textContent(), ((await res.json()) as { detail: string }).detail);
    assert.deepEqual(apiErrors, [`PATCH /v1/mocks/${mock.mock_id} 404`]);
    assertNoProblems();
    await close();
  });

  it('Delete mock asks first, then removes the mock and returns to the list', async () => {
    const mock = await createMock({ name: 'doomed' });
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn(`/mocks/${mock.mock_id}`);
    await page.getByRole('heading', { level: 1, name: 'doomed' }).waitFor();
    await page.getByRole('button', { name: 'Delete mock' }).click();
    const confirm = page.getByRole('group', { name: /^Delete this mock\?/ });
    assert.equal(await page.evaluate('document.activeElement.textContent'), 'Cancel');
    assert.deepEqual(await axeViolations(), []);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    assert.equal((await getMock(mock.mock_id)).name, 'doomed');

    await page.getByRole('button', { name: 'Delete mock' }).click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Mocks' }).waitFor();
    assert.equal(page.url(), `${web.url}/mocks`);
    await page.getByRole('table').waitFor();
    assert.equal(await page.getByRole('link', { name: 'doomed' }).count(), 0);
    const res = await fetch(`${web.url}/v1/mocks/${mock.mock_id}`, { headers: { 'x-api-key': web.apiKey } });
    assert.equal(res.status, 404);
    assert.equal((await fetch(`${web.url}${mock.endpoint_url}`)).status, 404);
    assertNoProblems();
    await close();
  });

  it('a structured response_body shows as JSON text and stays when other fields change', async () => {
    const mock = await createMock({ name: 'structured', response_body: { items: [1, 2], ok: true } });
    const { page, assertNoProblems, close } = await web.openSignedIn(`/mocks/${mock.mock_id}`);
    await page.getByRole('heading', { level: 1, name: 'structured' }).waitFor();
    await bodyEditor(page);
    assert.equal(await editorText(page), JSON.stringify({ items: [1, 2], ok: true }, null, 2));
    await page.getByLabel('Delay (ms)', { exact: true }).fill('5');
    const patch = page.waitForRequest((r) => r.method() === 'PATCH');
    await page.getByRole('button', { name: 'Save changes' }).click();
    assert.deepEqual((await patch).postDataJSON(), { delay_ms: 5 });
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const saved = (await web.api<{ mock: Mock & { response_body?: unknown } }>('GET', `/v1/mocks/${mock.mock_id}`)).mock;
    assert.deepEqual([saved.response_body, saved.body, saved.delay_ms], [{ items: [1, 2], ok: true }, '', 5]);
    assertNoProblems();
    await close();
  });

  it('without the editor chunk the Body field stays a plain textarea that saves', async () => {
    const { page, close } = await web.openSignedIn('/mocks');
    const blocked: string[] = [];
    await page.route(/\/assets\/code-editor-setup-[\w-]+\.js$/, (route) => (blocked.push(route.request().url()), route.abort()));
    await page.getByRole('button', { name: 'New mock' }).click();
    const body = page.getByRole('textbox', { name: 'Body', exact: true });
    await page.getByLabel('Name', { exact: true }).fill('plain body');
    await page.getByLabel('Content type', { exact: true }).fill('text/plain');
    await body.fill('hello\nworld');
    assert.equal(await body.evaluate((el) => el.tagName), 'TEXTAREA');
    assert.equal(blocked.length, 1);
    await page.getByRole('button', { name: 'Create mock' }).click();
    await page.waitForURL(/\/mocks\/mock_[\w-]+$/);
    const mock = await getMock(new URL(page.url()).pathname.split('/')[2]);
    assert.deepEqual([mock.name, mock.content_type, mock.body], ['plain body', 'text/plain', 'hello\nworld']);
    await close();
  });

  it('fast typing in the Body editor is kept as typed: a later render never puts an older text back', async () => {
    const { page, assertNoProblems, close } = await web.openSignedIn('/mocks?new');
    const editor = await bodyEditor(page);
    await editor.click();
    const text = Array.from({ length: 40 }, (_, i) => `${i}`).join(',');
    await page.keyboard.type(`[${text}`);
    assert.equal(await editorText(page), `[${text}]`);
    await page.getByLabel('Name', { exact: true }).fill('typed');
    await page.getByRole('button', { name: 'Create mock' }).click();
    await page.waitForURL(/\/mocks\/mock_[\w-]+$/);
    assert.equal((await getMock(new URL(page.url()).pathname.split('/')[2])).body, `[${text}]`);
    assertNoProblems();
    await close();
  });

  it('the Body editor follows a dark system theme', async () => {
    const { page, assertNoProblems, close } = await web.openSignedIn('/mocks?new', { context: { colorScheme: 'dark' } });
    await bodyEditor(page);
    const background =
      "getComputedStyle(document.querySelector('.mock-body-editor').shadowRoot.querySelector('.cm-editor')).backgroundColor";
    assert.equal(await page.evaluate(background), 'rgb(26, 31, 37)');
    await page.emulateMedia({ colorScheme: 'light' });
    assert.equal(await page.evaluate(background), 'rgb(255, 255, 255)');
    assertNoProblems();
    await close();
  });

  it('text typed in the Body textarea before the editor loads goes on in the editor at the caret; the label focuses the editor', async () => {
    const { page, assertNoProblems, close } = await web.openSignedIn('/mocks');
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/code-editor-setup-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'New mock' }).click();
    const textarea = page.getByRole('textbox', { name: 'Body', exact: true });
    await textarea.click();
    await page.keyboard.type('abc');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await textarea.evaluate((el) => el.tagName), 'TEXTAREA');
    release();
    await bodyEditor(page);
    assert.equal(await textarea.count(), 1);
    assert.equal(await textarea.evaluate((el) => el.tagName), 'DIV');
    await page.keyboard.type('X');
    assert.equal(await editorText(page), 'abXc');

    await page.getByLabel('Name', { exact: true }).click();
    await page.getByText('Body', { exact: true }).click();
    assert.equal(await page.evaluate("document.querySelector('.mock-body-editor').shadowRoot.activeElement.ariaLabel"), 'Body');
    await page.keyboard.type('Y');
    assert.equal(await editorText(page), 'abXYc');
    assertNoProblems();
    await close();
  });

  it('a content type other than JSON turns the Body colouring off in the same editor, and back', async () => {
    const mock = await createMock({ name: 'colours', body: '{"a":"b"}' });
    const { page, assertNoProblems, close } = await web.openSignedIn(`/mocks/${mock.mock_id}`);
    const editor = await bodyEditor(page);
    const property = editor.locator('span', { hasText: /^"a"$/ });
    await property.waitFor();
    assert.equal(await property.evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).color), 'rgb(31, 79, 168)');
    const content = await editor.elementHandle();
    const contentType = page.getByLabel('Content type', { exact: true });
    await contentType.fill('text/plain');
    await property.waitFor({ state: 'detached' });
    assert.equal(await editorText(page), '{"a":"b"}');
    await contentType.fill('application/json');
    await property.waitFor();
    // The editor was reconfigured, not rebuilt.
    assert.equal(await content?.evaluate((el) => el.isConnected), true);
    assertNoProblems();
    await close();
  });

  it("the Body editor's selection and its marks for control characters follow the system theme", async () => {
    const { page, assertNoProblems, close } = await web.openSignedIn('/mocks?new', { context: { colorScheme: 'dark' } });
    const editor = await bodyEditor(page);
    await editor.click();
    await page.keyboard.type('a');
    await page.keyboard.insertText('\u0007');
    const style = (locator: Locator) =>
      locator.evaluate((el) => {
        const { color, backgroundColor } = el.ownerDocument.defaultView!.getComputedStyle(el);
        return { color, backgroundColor };
      });
    const special = editor.locator('.cm-specialChar');
    assert.equal((await style(special)).color, 'rgb(255, 119, 136)');
    await page.keyboard.press('Control+A');
    const selection = page.locator('.mock-body-editor .cm-selectionBackground').first();
    assert.equal((await style(selection)).backgroundColor, 'rgb(44, 63, 107)');
    await page.emulateMedia({ colorScheme: 'light' });
    assert.equal((await style(selection)).backgroundColor, 'rgb(205, 218, 251)');
    assert.equal((await style(special)).color, 'rgb(255, 0, 0)');
    assertNoProblems();
    await close();
  });
  it('on a 360px screen the mocks list is a card per mock: nothing scrolls sideways, each value named by its column', async () => {
    const { mock } = await web.api<{ mock: { mock_id: string } }>('POST', '/v1/mocks', {
      name: 'narrow one',
      method: 'PUT',
      status_code: 202,
    });
    const { page, axeViolations, assertNoProblems, close } = await web.openSignedIn('/mocks', {
      context: { viewport: { width: 360, height: 740 } },
    });
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'narrow one' }) });
    await row.waitFor();
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 360);
    // One value a line, each after its column's name (drawn by the style sheet, so not in innerText).
    assert.match(await row.innerText(), /^narrow one\nPUT\n202\nhttp:\/\/[^\n]+\nCopy URL\n0\nin /);
    const labels = await row
      .locator('td')
      .evaluateAll((cells) => cells.map((cell) => cell.ownerDocument.defaultView!.getComputedStyle(cell, '::before').content));
    assert.deepEqual(labels, ['none', '"Method: "', '"Status: "', 'none', '"Hits: "', '"Expires: "']);
    const copy = row.getByRole('button', { name: 'Copy URL' });
    const box = await copy.boundingBox();
    assert.ok(box !== null && box.x + box.width <= 360, 'Copy URL within the screen');
    assert.equal(await row.locator('code').textContent(), `${web.url}/v1/mock/${mock.mock_id}`);
    const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, []);
    assertNoProblems();
    await close();
  });
});
