import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';
import { countInFlight, describedBy, eventually } from '../helpers/tool-pages.js';

const AREA_HEADINGS = ['Developer utilities', 'Cryptography', 'DNS', 'Email', 'Geo IP'];
const TOOL_TAGS = new Set(['devtools', 'auth', 'dns', 'email', 'geo']);
/** Tool operations no page calls as its own: the mock-data page's type list, and the GET twin of the DNS lookup POST. */
const NOT_A_PAGE = new Set(['GET /v1/mock-data/types', 'GET /v1/lookup']);

interface OpenApi {
  paths: Record<
    string,
    Record<
      string,
      { tags?: string[]; requestBody?: { content: Record<string, { schema: { properties: Record<string, { enum?: string[] }> } }> } }
    >
  >;
}
const OPENAPI = JSON.parse(readFileSync('dist/openapi.json', 'utf8')) as OpenApi;

/** Wait until the tool page's own renderer has replaced its "Loading…" placeholder. */
const rendererLoaded = (page: Page) => page.locator('.tool-panel').getByText('Loading…', { exact: true }).waitFor({ state: 'detached' });

/** The gzip bytes of the scripts at `paths` (under /assets/), as served precompressed. */
const gzipBytesOf = (paths: string[]) => paths.reduce((sum, path) => sum + readFileSync(join('dist', 'web', `${path}.gz`)).length, 0);

/** The rendered top-level fields of the result: each field's value as text. */
const resultValues = (page: Page) =>
  page.getByRole('region', { name: 'Result' }).locator('dd > .tool-value, dd > .tool-string > .tool-value').allTextContents();

describe('tool pages in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    const plans = join(mkdtempSync(join(tmpdir(), 'devutil-plans-')), 'plans.json');
    writeFileSync(plans, JSON.stringify({ plans: { tiny: { monthly_credits: 1, rate_limit_per_minute: null } } }));
    web = await startWebApp({ PLANS_FILE: plans });
  });
  after(() => web?.close());

  /** What the API answers to `body` on `path`, with the bootstrap key. */
  const answer = (path: string, body: unknown) => web.api<Record<string, unknown>>('POST', path, body);

  async function newKey(plan: string): Promise<string> {
    const res = await fetch(`${web.url}/v1/admin/keys`, {
      method: 'POST',
      headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `tools-${plan}`, plan }),
    });
    assert.equal(res.status, 201);
    return ((await res.json()) as { api_key: string }).api_key;
  }

  it('the index lists every tool grouped by area, each page has its heading, and the pages cover every tool operation', async () => {
    const { page, apiErrors, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools');
    await page.getByRole('heading', { level: 1, name: 'Tools' }).waitFor();
    const groups = page.getByRole('region');
    assert.deepEqual(await groups.getByRole('heading', { level: 2 }).allTextContents(), AREA_HEADINGS);
    const cards: { area: string; name: string; href: string; description: string }[] = [];
    for (const area of AREA_HEADINGS) {
      const group = page.getByRole('region', { name: area });
      for (const item of await group.getByRole('listitem').all()) {
        const link = item.getByRole('link');
        cards.push({
          area,
          name: await link.innerText(),
          href: (await link.getAttribute('href'))!,
          description: await item.getByRole('paragraph').innerText(),
        });
      }
    }
    assert.ok(cards.length >= 19, `${cards.length} cards`);
    assert.equal(new Set(cards.map((c) => c.href)).size, cards.length);
    for (const card of cards) assert.match(card.href, /^\/tools\/[a-z0-9-]+$/);

    const called = new Set<string>();
    for (const card of cards) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tools' }).click();
      await page.getByRole('region', { name: card.area }).getByRole('link', { name: card.name, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: card.name, exact: true }).waitFor();
      // axe checks the page's own form and result, not the placeholder shown while its code loads.
      await rendererLoaded(page);
      assert.equal(new URL(page.url()).pathname, card.href);
      assert.equal(await page.locator('.tool-description').innerText(), card.description);
      const operations = await page.getByRole('region', { name: 'API operations' }).getByRole('listitem').allInnerTexts();
      for (const op of operations) called.add(op);
      const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(serious, [], card.name);
    }
    const toolOperations = Object.entries(OPENAPI.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => TOOL_TAGS.has(op.tags?.[0] ?? ''))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    assert.deepEqual([...called].sort(), toolOperations.filter((op) => !NOT_A_PAGE.has(op)).sort());
    // Every live page opened on its example inputs, each of which the API accepted.
    assert.deepEqual(apiErrors, []);
    assertNoProblems();
    await close();
  });

  it('a tool page with a JSON editor loads at most 150 KB gzip of JavaScript beyond the shell', async () => {
    const { page, assertNoProblems, close } = await web.openSignedIn('/bins');
    const scripts: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/assets/') && pathname.endsWith('.js')) scripts.push(pathname);
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tools' }).click();
    await page.getByRole('link', { name: 'JMESPath' }).click();
    await page.getByRole('textbox', { name: 'Data' }).and(page.locator('[contenteditable]')).waitFor();
    assert.ok(
      scripts.some((s) => s.includes('code-editor')),
      scripts.join(' '),
    );
    const gzipBytes = gzipBytesOf(scripts);
    assert.ok(gzipBytes <= 150 * 1024, `${gzipBytes} bytes gzip: ${scripts.join(' ')}`);
    assertNoProblems();
    await close();
  });

  it('every tool page fits a 360px-wide dark screen, has no serious axe violation there, and loads at most 150 KB gzip of JavaScript beyond the shell', async () => {
    const index = await web.openSignedIn('/tools');
    const main = index.page.getByRole('main');
    await main.getByRole('link').first().waitFor();
    const tools = await main
      .getByRole('listitem')
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => a.textContent ?? ''));
    await index.close();
    assert.ok(tools.length >= 19, tools.join(', '));

    for (const name of tools) {
      const opened = await web.openSignedIn('/bins', { context: { viewport: { width: 360, height: 740 }, colorScheme: 'dark' } });
      const { page } = opened;
      await page.getByRole('heading', { level: 1, name: 'Bins' }).waitFor();
      const scripts: string[] = [];
      page.on('request', (request) => {
        const { pathname } = new URL(request.url());
        if (pathname.startsWith('/assets/') && pathname.endsWith('.js')) scripts.push(pathname);
      });
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tools' }).click();
      await page.getByRole('main').getByRole('link', { name, exact: true }).click();
      await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
      await rendererLoaded(page);
      // A live page's first answer is part of what must fit and read well.
      await eventually(() => page.locator('[aria-busy="true"]').count(), 0, `${name}: settled`);
      assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 360, name);
      const serious = (await opened.axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(serious, [], name);
      const gzipBytes = gzipBytesOf(scripts);
      assert.ok(gzipBytes <= 150 * 1024, `${name}: ${gzipBytes} bytes gzip: ${scripts.join(' ')}`);
      opened.assertNoProblems();
      await opened.close();
    }
  });

  it('a tool page and its editor keep their contrast in the dark theme and fit a 360px-wide screen', async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/jmespath', {
      context: { viewport: { width: 360, height: 740 }, colorScheme: 'dark' },
    });
    await page.getByRole('textbox', { name: 'Data' }).and(page.locator('[contenteditable]')).waitFor();
    await eventually(async () => (await resultValues(page)).length, 2, 'answer');
    assert.deepEqual(await axeViolations(), []);
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 360);
    assertNoProblems();
    await close();
  });

  it('"Search tools" filters the cards as you type, by name, description and keywords', async () => {
    const { page, assertNoProblems, close } = await web.openSignedIn('/tools');
    const search = page.getByLabel('Search tools');
    const visibleNames = () => page.getByRole('main').getByRole('listitem').getByRole('link').allInnerTexts();
    await search.fill('base64');
    await eventually(visibleNames, ['Base64'], 'base64');
    assert.equal(await page.getByRole('status').filter({ hasText: 'match' }).innerText(), '1 tool matches; Enter opens Base64.');
    await search.fill('bcrypt');
    await eventually(visibleNames, ['Passwords'], 'bcrypt');
    await search.fill('otp');
    await eventually(visibleNames, ['TOTP'], 'otp');
    await search.fill('uuid');
    await eventually(visibleNames, ['Keys and key pairs'], 'uuid');
    await search.fill('zzzz');
    await page.getByText('No tool matches “zzzz”.').waitFor();
    await search.fill('');
    await eventually(async () => (await visibleNames()).length >= 19, true, 'all cards back');
    // The search finds each tool by its own name.
    for (const name of await visibleNames()) {
      await search.fill(name);
      await eventually(async () => (await visibleNames()).includes(name), true, name);
    }
    // Enter opens the best match, and the tab names the tool.
    await search.fill('jwt');
    await search.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'JWT' }).waitFor();
    assert.equal(page.url(), `${web.url}/tools/jwt`);
    await eventually(() => page.title(), 'JWT · devutil', 'title');
    await page.goto(`${web.url}/tools/no-such-tool`);
    await page.getByRole('heading', { level: 1, name: 'Tool not found' }).waitFor();
    await eventually(() => page.title(), 'Tool not found · devutil', 'title of an unknown tool');
    assertNoProblems();
    await close();
  });

  it('Ctrl+K opens the search from /bins, arrows move, Enter opens the tool, Escape closes, and recent tools come first', async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/bins');
    await page.getByRole('heading', { level: 1, name: 'Bins' }).waitFor();
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Search tools' });
    await dialog.waitFor();
    const input = dialog.getByLabel('Search tools');
    assert.equal(await page.evaluate("document.activeElement?.getAttribute('aria-label')"), 'Search tools');
    await input.pressSequentially('base');
    const options = dialog.getByRole('option');
    await eventually(async () => (await options.first().innerText()).split(/\s+/)[0], 'Base64', 'first option');
    assert.equal(await options.first().getAttribute('aria-selected'), 'true');
    assert.deepEqual(await axeViolations(), []);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Base64' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/tools/base64');
    assert.equal(await dialog.count(), 0);

    await page.keyboard.press('Control+k');
    await dialog.waitFor();
    // Nothing typed: the tool just used is first.
    await eventually(async () => (await options.first().innerText()).split(/\s+/)[0], 'Base64', 'recent first');
    await page.keyboard.press('ArrowDown');
    assert.equal(await options.nth(1).getAttribute('aria-selected'), 'true');
    assert.equal(await options.first().getAttribute('aria-selected'), 'false');
    await page.keyboard.press('ArrowUp');
    assert.equal(await options.first().getAttribute('aria-selected'), 'true');
    await page.keyboard.press('Escape');
    await eventually(() => dialog.count(), 0, 'dialog closed');
    assert.equal(new URL(page.url()).pathname, '/tools/base64');
    // ⌘K does the same, also while typing in a field of the page.
    await page.getByRole('textbox').first().focus();
    await page.keyboard.press('Meta+k');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await eventually(() => dialog.count(), 0, 'dialog closed after ⌘K');

    await page.getByRole('link', { name: 'Tools', exact: true }).click();
    const recent = page.getByRole('region', { name: 'Recently used' });
    await recent.waitFor();
    assert.deepEqual(await recent.getByRole('link').allInnerTexts(), ['Base64']);
    assertNoProblems();
    await close();
  });

  it('Ctrl+K straight after Enter opened a tool opens the search again, and it stays open', async () => {
    const { page, assertNoProblems, close } = await web.openSignedIn('/bins');
    // A slow CPU stretches the frame in which the closed search is torn down, where the race lies.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    await page.getByRole('heading', { level: 1, name: 'Bins' }).waitFor();
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Search tools' });
    await dialog.waitFor();
    await dialog.getByLabel('Search tools').pressSequentially('base');
    await eventually(async () => (await dialog.getByRole('option').first().innerText()).split(/\s+/)[0], 'Base64', 'first option');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+k');
    await page.getByRole('heading', { level: 1, name: 'Base64' }).waitFor();
    await dialog.waitFor();
    await page.waitForTimeout(500);
    assert.equal(await dialog.isVisible(), true);
    assert.equal(await page.evaluate('document.activeElement?.tagName'), 'INPUT');
    assert.equal(await page.evaluate("document.activeElement?.getAttribute('aria-label')"), 'Search tools');
    await page.keyboard.press('Escape');
    await eventually(() => dialog.count(), 0, 'dialog closed');
    assertNoProblems();
    await close();
  });

  it('number format: the form comes from the schema, the live result, raw JSON and curl equal the API for the same input', async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/number-format');
    await page.getByRole('heading', { level: 1, name: 'Number format' }).waitFor();
    const schema = OPENAPI.paths['/v1/number-format'].post.requestBody!.content['application/json'].schema;
    const formatType = page.getByLabel('Format type');
    // The page's own renderer loads after the heading: wait for its fields.
    await formatType.waitFor();
    assert.deepEqual(await formatType.getByRole('option').allInnerTexts(), schema.properties.format_type.enum);
    assert.equal(await page.getByLabel('Number').getAttribute('type'), 'number');
    assert.equal(await page.getByLabel('Decimals').isVisible(), false);
    await page.getByText('More options').click();
    assert.equal(await page.getByLabel('Decimals').getAttribute('type'), 'number');

    // The page opens on the OpenAPI example and shows its answer.
    const example = { number: 1234567.891, format_type: 'currency', locale: 'de_DE', currency: 'EUR' };
    const exampleAnswer = await answer('/v1/number-format', example);
    await eventually(() => resultValues(page), Object.values(exampleAnswer).map(String), 'example');

    await page.getByLabel('Number').fill('0.256');
    await formatType.selectOption('percent');
    await page.getByLabel('Locale').fill('fr_FR');
    await page.getByLabel('Currency').fill('');
    await page.getByLabel('Decimals').fill('1');
    const body = { number: 0.256, format_type: 'percent', locale: 'fr_FR', decimals: 1 };
    const expected = await answer('/v1/number-format', body);
    await eventually(() => resultValues(page), Object.values(expected).map(String), 'typed input');
    assert.deepEqual(await page.getByRole('region', { name: 'Result' }).getByRole('term').allInnerTexts(), [
      'Formatted',
      'Original',
      'Locale',
      'Format type',
    ]);

    await page.getByText('Raw JSON').click();
    assert.equal(await page.locator('.tool-raw pre').textContent(), JSON.stringify(expected, null, 2));
    await page.getByText('curl', { exact: true }).click();
    const curl = await page.locator('.tool-curl pre').textContent();
    assert.equal(
      curl,
      `curl -sS -X POST '${web.url}/v1/number-format' -H "X-API-Key: $DEVUTIL_KEY" -H 'Content-Type: application/json' -d '${JSON.stringify(body)}'`,
    );
    assert.ok(!curl.includes(web.apiKey));
    assert.equal(await page.getByRole('status').filter({ hasText: 'credit' }).innerText(), 'This key has no credit limit.');
    const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, []);
    assertNoProblems();
    await close();
  });

  it("a bad input shows the API's detail next to the field it names", async () => {
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn('/tools/number-format');
    const locale = page.getByLabel('Locale');
    await locale.fill('xx_XX');
    const refusal = await fetch(`${web.url}/v1/number-format`, {
      method: 'POST',
      headers: { 'x-api-key': web.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ number: 1234567.891, format_type: 'currency', locale: 'xx_XX', currency: 'EUR' }),
    });
    assert.equal(refusal.status, 422);
    const { detail } = (await refusal.json()) as { detail: string };
    await eventually(() => locale.getAttribute('aria-invalid'), 'true', 'locale invalid');
    assert.deepEqual(await describedBy(page, locale), [detail, 'CLDR locale, ll_CC or ll-CC.']);
    assert.equal(await page.getByLabel('Number').getAttribute('aria-invalid'), null);
    assert.equal(await page.getByRole('alert').count(), 0);
    await locale.fill('en_US');
    await eventually(() => locale.getAttribute('aria-invalid'), null, 'locale fixed');
    assert.equal(await page.getByText(detail).count(), 0);

    // A JMESPath syntax error has no errors[] but belongs to the expression.
    await page.goto(`${web.url}/tools/jmespath`);
    const expression = page.getByLabel('Expression');
    await expression.fill('people[');
    const syntax = await fetch(`${web.url}/v1/json-transform`, {
      method: 'POST',
      headers: { 'x-api-key': web.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ data: {}, expression: 'people[' }),
    });
    assert.equal(syntax.status, 400);
    const syntaxDetail = ((await syntax.json()) as { detail: string }).detail;
    await eventually(() => expression.getAttribute('aria-invalid'), 'true', 'expression invalid');
    assert.equal((await describedBy(page, expression))[0], syntaxDetail);
    // JSON the editor cannot parse is said next to it, and not sent.
    const sent = apiErrors.length;
    const data = page.getByRole('textbox', { name: 'Data' });
    await data.fill('{"people": [');
    // Inside the editor's shadow root an id of the page cannot be referenced: the error is its description.
    await eventually(async () => (await data.getAttribute('aria-description'))?.startsWith('Data is not valid JSON'), true, 'data invalid');
    assert.equal(await data.getAttribute('aria-invalid'), 'true');
    assert.match(await page.locator(`[id="tool-query-data-error"]`).innerText(), /^Data is not valid JSON/);
    assert.equal(apiErrors.length, sent);
    assert.deepEqual(apiErrors, ['POST /v1/number-format 422', 'POST /v1/json-transform 400']);
    assertNoProblems();
    await close();
  });

  it('fast typing keeps one request in flight and ends on the answer for the last input', async () => {
    const { page, assertNoProblems, close } = await web.openSignedIn('/tools/number-format');
    await eventually(async () => (await resultValues(page)).length, 4, 'first answer');
    // Slow answers, so that keystrokes land while a call is in flight (slow enough that a busy machine still merges keystrokes).
    await page.route('**/v1/number-format', async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.fallback();
    });
    const calls = countInFlight(page, '/v1/number-format');

    const number = page.getByLabel('Number');
    await number.fill('');
    // Slower than the debounce, so that most keystrokes ask for an answer while one is on its way.
    await number.pressSequentially('9876543210', { delay: 350 });
    const expected = await answer('/v1/number-format', { number: 9876543210, format_type: 'currency', locale: 'de_DE', currency: 'EUR' });
    await eventually(() => resultValues(page), Object.values(expected).map(String), 'final answer');
    await eventually(async () => calls.now(), 0, 'all settled');
    assert.equal(calls.max(), 1);
    assert.ok(calls.sent() >= 2 && calls.sent() < 10, `${calls.sent()} requests for 10 keystrokes`);
    assertNoProblems();
    await close();
  });

  it('a costly operation waits for Run and shows its progress; each tab keeps its own inputs and answer', async () => {
    const { page, assertNoProblems, close } = await web.openSignedIn('/tools/passwords');
    await page.getByRole('heading', { level: 1, name: 'Passwords' }).waitFor();
    const tabs = page.getByRole('tablist', { name: 'Operations' }).getByRole('tab');
    assert.deepEqual(await tabs.allInnerTexts(), ['Hash', 'Verify', 'Strength', 'Generate']);
    assert.equal(await page.getByRole('tab', { name: 'Hash' }).getAttribute('aria-selected'), 'true');
    const result = page.getByRole('region', { name: 'Result' });
    await result.getByText('Press Run to see the result.').waitFor();

    await page.route('**/v1/auth/hash-password', async (route) => {
      await new Promise((r) => setTimeout(r, 500));
      await route.fallback();
    });
    await page.getByLabel('Password', { exact: true }).fill('hunter2 hunter2');
    await page.getByLabel('Algorithm').selectOption('bcrypt');
    await page.getByText('More options').click();
    await page.getByLabel('Cost').fill('4');
    const run = page.getByRole('button', { name: 'Run' });
    await run.click();
    await page.getByRole('progressbar', { name: 'Running' }).waitFor();
    assert.equal(await run.isDisabled(), true);
    await eventually(async () => (await resultValues(page)).length, 2, 'hash answer');
    const [hash, algorithm] = await resultValues(page);
    assert.equal(algorithm, 'bcrypt');
    assert.match(hash, /^\$2b\$04\$/);
    assert.deepEqual(await answer('/v1/auth/verify-password', { password: 'hunter2 hunter2', hash }), { valid: true, algorithm: 'bcrypt' });
    assert.equal(await page.getByRole('progressbar').count(), 0);

    // The arrow keys move between tabs; a live tab answers at once.
    await page.getByRole('tab', { name: 'Hash' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.getByRole('tab', { name: 'Strength' }).getAttribute('aria-selected'), 'true');
    const strength = await answer('/v1/auth/password-strength', { password: 'alice2024!', user_inputs: ['alice', 'alice@example.com'] });
    const top = ['score', 'strength', 'entropy_bits', 'crack_time_seconds', 'crack_time_display'].map((k) => String(strength[k]));
    await eventually(async () => (await resultValues(page)).slice(0, 5), top, 'strength answer');
    await page.getByRole('tab', { name: 'Hash' }).click();
    assert.equal(await page.getByLabel('Password', { exact: true }).inputValue(), 'hunter2 hunter2');
    assert.deepEqual(await resultValues(page), [hash, 'bcrypt']);
    assertNoProblems();
    await close();
  });

  it('Share puts the inputs in the fragment, never the query, and the link restores them', async () => {
    const { page, assertNoProblems, close } = await web.openSignedIn('/tools/number-format');
    await page.getByLabel('Number').fill('42');
    await page.getByLabel('Format type').selectOption('decimal');
    await page.getByLabel('Locale').fill('en_GB');
    await page.getByRole('button', { name: 'Share' }).click();
    await eventually(async () => new URL(page.url()).hash.startsWith('#s='), true, 'fragment');
    const link = new URL(page.url());
    assert.equal(link.search, '');
    assert.equal(link.pathname, '/tools/number-format');
    // No warning: nothing here is secret.
    assert.equal(await page.getByRole('alert').count(), 0);
    await page.getByRole('status').filter({ hasText: 'address bar' }).waitFor();
    await close();

    const opened = await web.openSignedIn(link.pathname + link.hash);
    await opened.page.getByRole('heading', { level: 1, name: 'Number format' }).waitFor();
    assert.equal(await opened.page.getByLabel('Number').inputValue(), '42');
    assert.equal(await opened.page.getByLabel('Format type').inputValue(), 'decimal');
    assert.equal(await opened.page.getByLabel('Locale').inputValue(), 'en_GB');
    const expected = await answer('/v1/number-format', { number: 42, locale: 'en_GB', currency: 'EUR' });
    await eventually(() => resultValues(opened.page), Object.values(expected).map(String), 'restored answer');
    assertNoProblems();
    opened.assertNoProblems();
    await opened.close();
  });

  it('Share warns on a page whose inputs hold a secret, and can leave the secret out', async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/hmac');
    await page.getByRole('heading', { level: 1, name: 'HMAC' }).waitFor();
    assert.equal(await page.getByLabel('Key', { exact: true }).inputValue(), 'Jefe');
    const share = page.getByRole('button', { name: 'Share', exact: true });
    await share.click();
    const warning = page.getByRole('alert');
    await warning.waitFor();
    assert.match(await warning.innerText(), /These inputs hold secrets \(Key\)\. A link carries them in plain text/);
    assert.equal(new URL(page.url()).hash, '');
    assert.deepEqual(await axeViolations(), []);
    await page.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(await warning.count(), 0);
    assert.equal(new URL(page.url()).hash, '');

    await share.click();
    await page.getByRole('button', { name: 'Share without secrets' }).click();
    await eventually(async () => new URL(page.url()).hash.startsWith('#s='), true, 'fragment');
    const state = JSON.parse(Buffer.from(new URL(page.url()).hash.slice(3), 'base64url').toString('utf8')) as {
      o: string;
      i: Record<string, unknown>;
    };
    assert.equal(state.o, 'sign');
    assert.equal(state.i.key, '');
    assert.equal(state.i.data, 'what do ya want for nothing?');

    await share.click();
    await page.getByRole('button', { name: 'Share with secrets' }).click();
    const keyInLink = () =>
      (JSON.parse(Buffer.from(new URL(page.url()).hash.slice(3), 'base64url').toString('utf8')) as { i: { key: string } }).i.key;
    await eventually(async () => keyInLink(), 'Jefe', 'secret in the link');
    assertNoProblems();
    await close();
  });

  it('a free-plan key sees what a call cost and the credits left; a spent quota is said plainly', async () => {
    const free = await newKey('free');
    const { page, assertNoProblems, close } = await web.openSignedIn('/tools/number-format', { key: free });
    const credits = page.getByRole('status').filter({ hasText: 'credit' });
    await credits.waitFor();
    const account = (await (await fetch(`${web.url}/v1/account`, { headers: { 'x-api-key': free } })).json()) as {
      credits: { limit: number; remaining: number };
    };
    assert.equal(account.credits.remaining, 999);
    assert.equal(await credits.innerText(), 'This call cost 1 credit. 999 of 1000 credits left this month.');
    await close();

    const tiny = await newKey('tiny');
    const spent = await web.openSignedIn('/tools/number-format', { key: tiny });
    const tinyCredits = spent.page.getByRole('status').filter({ hasText: 'credit' });
    await tinyCredits.waitFor();
    assert.equal(await tinyCredits.innerText(), 'This call cost 1 credit. 0 of 1 credits left this month.');
    await spent.page.getByLabel('Number').fill('7');
    const refused = await fetch(`${web.url}/v1/number-format`, {
      method: 'POST',
      headers: { 'x-api-key': tiny, 'content-type': 'application/json' },
      body: JSON.stringify({ number: 7 }),
    });
    assert.equal(refused.status, 429);
    const body = (await refused.json()) as { code: string; detail: string };
    assert.equal(body.code, 'credits_exhausted');
    const alert = spent.page.getByRole('alert');
    await alert.waitFor();
    assert.equal(await alert.innerText(), `Your credits have run out. ${body.detail}`);
    assert.deepEqual(spent.apiErrors, ['POST /v1/number-format 429']);
    assertNoProblems();
    spent.assertNoProblems();
    await spent.close();
  });
});
