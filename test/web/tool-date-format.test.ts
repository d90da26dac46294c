import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';
import { countInFlight, describedBy, eventually } from '../helpers/tool-pages.js';

/** The rendered top-level fields of the result: each field's value as text. */
const resultValues = (page: Page) =>
  page.getByRole('region', { name: 'Result' }).locator('dd > .tool-value, dd > .tool-string > .tool-value').allTextContents();

/** The values of the suggestions the open picker lists. */
const suggestions = (page: Page) =>
  page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option').locator('.picker-value').allInnerTexts();

describe('date format page in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  const answer = (body: unknown) => web.api<{ formatted: string }>('POST', '/v1/date-format', body);

  it('the zone pickers filter as you type; zones picked and a format typed give the API answer for them', async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/date-format');
    const example = {
      date: '2026-03-08 01:30:00',
      from_timezone: 'America/New_York',
      to_timezone: 'Europe/Berlin',
      output_format: '%A %d %B %Y %H:%M %Z',
    };
    await eventually(() => resultValues(page), Object.values(await answer(example)).map(String), 'example');

    const from = page.getByRole('combobox', { name: 'From timezone' });
    const to = page.getByRole('combobox', { name: 'To timezone' });
    await from.fill('europe/b');
    await page.getByRole('option', { name: /Europe\/Berlin/ }).waitFor();
    const zones = await suggestions(page);
    assert.ok(zones.length >= 5, zones.join(' '));
    for (const zone of zones) assert.match(zone, /^Europe\/B/);
    await from.fill('new york');
    await eventually(() => suggestions(page), ['America/New_York'], 'new york');
    // Each zone shows its offset now, and an offset finds its zones.
    await from.fill('+05:30');
    await eventually(async () => (await suggestions(page)).includes('Asia/Kolkata'), true, 'offset');
    assert.deepEqual(
      await page
        .getByRole('option', { name: /Asia\/Kolkata/ })
        .locator('.picker-label')
        .allInnerTexts(),
      ['GMT+05:30'],
    );
    const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, []);

    await from.fill('tokyo');
    await page.getByRole('option', { name: /Asia\/Tokyo/ }).click();
    assert.equal(await from.inputValue(), 'Asia/Tokyo');
    await to.fill('sao pa');
    await eventually(() => suggestions(page), ['America/Sao_Paulo'], 'sao paulo');
    await to.press('ArrowDown');
    await to.press('Enter');
    assert.equal(await to.inputValue(), 'America/Sao_Paulo');
    await page.getByRole('textbox', { name: 'Date', exact: true }).fill('2024-02-29 13:45:00');
    await page.getByRole('textbox', { name: 'Output format' }).fill('%d/%m/%Y %I:%M %p %Z (%z)');
    const body = {
      date: '2024-02-29 13:45:00',
      from_timezone: 'Asia/Tokyo',
      to_timezone: 'America/Sao_Paulo',
      output_format: '%d/%m/%Y %I:%M %p %Z (%z)',
    };
    const expected = await answer(body);
    assert.equal(expected.formatted, '29/02/2024 01:45 AM -03 (-0300)');
    await eventually(() => resultValues(page), Object.values(expected).map(String), 'typed input');
    assertNoProblems();
    await close();
  });

  it('the cheat sheet shows what the API prints for each directive, and a click inserts it at the caret', async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/date-format');
    await eventually(async () => (await resultValues(page)).length, 4, 'example');
    await page.getByText('strftime cheat sheet').click();
    const table = page.getByRole('table').filter({ hasText: 'Directive' });
    await table.getByText('Examples for 2026-03-08 01:30:00 in Europe/Berlin, as the API prints them.').waitFor();
    const rows = await table.locator('tbody tr').all();
    assert.ok(rows.length >= 40, `${rows.length} directives`);
    const base = { date: '2026-03-08 01:30:00', from_timezone: 'America/New_York', to_timezone: 'Europe/Berlin' };
    for (const row of rows) {
      const directive = await row.getByRole('cell').first().innerText();
      const { formatted } = await answer({ ...base, output_format: directive });
      assert.equal(await row.locator('td').nth(2).textContent(), formatted.replace(/\n/g, '⏎').replace(/\t/g, '⇥'), directive);
    }
    assert.equal(await table.getByRole('row').filter({ hasText: 'Time zone abbreviation' }).locator('td').nth(2).textContent(), 'CET');
    const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, []);

    const output = page.getByRole('textbox', { name: 'Output format' });
    await output.fill('%Y-');
    await page.getByRole('button', { name: 'Insert %m', exact: true }).click();
    assert.equal(await output.inputValue(), '%Y-%m');
    // The caret is after what was inserted; moved to the start, the next directive goes there.
    await output.press('Home');
    await page.getByRole('button', { name: 'Insert %A', exact: true }).click();
    assert.equal(await output.inputValue(), '%A%Y-%m');
    await page.getByRole('button', { name: 'Insert %n', exact: true }).click();
    assert.equal(await output.inputValue(), '%A%n%Y-%m');
    const expected = await answer({ ...base, output_format: '%A%n%Y-%m' });
    assert.equal(expected.formatted, 'Sunday\n2026-03');
    await eventually(() => resultValues(page), Object.values(expected).map(String), 'inserted directives');

    // A new date: the examples follow the answer.
    await page.getByRole('textbox', { name: 'Date', exact: true }).fill('2026-07-04 12:00:00');
    await table.getByText('Examples for 2026-07-04 12:00:00 in Europe/Berlin, as the API prints them.').waitFor();
    assert.equal(await table.getByRole('row').filter({ hasText: 'Time zone abbreviation' }).locator('td').nth(2).textContent(), 'CEST');
    assertNoProblems();
    await close();
  });

  it('with the cheat sheet open, its examples and the live answer never have two calls in flight, and both follow the last date', async () => {
    const { page, assertNoProblems, close } = await web.openSignedIn('/tools/date-format');
    await eventually(async () => (await resultValues(page)).length, 4, 'example');
    await page.getByText('strftime cheat sheet').click();
    const table = page.getByRole('table').filter({ hasText: 'Directive' });
    await table.getByText('Examples for 2026-03-08 01:30:00 in Europe/Berlin, as the API prints them.').waitFor();
    // Slow answers, so that the next date is typed while the examples for the last answer are on their way.
    await page.route('**/v1/date-format', async (route) => {
      await new Promise((r) => setTimeout(r, 300));
      await route.fallback();
    });
    const calls = countInFlight(page, '/v1/date-format');
    const date = page.getByRole('textbox', { name: 'Date', exact: true });
    for (const day of ['01', '02', '03', '04']) {
      const typed = `2026-07-${day} 12:00:00`;
      const answered = page.waitForResponse((r) => {
        const body = r.request().postDataJSON() as { date?: string; output_format?: string } | null;
        return new URL(r.url()).pathname === '/v1/date-format' && body?.date === typed && body.output_format === '%A %d %B %Y %H:%M %Z';
      });
      await date.fill(typed);
      await answered;
    }
    await table.getByText('Examples for 2026-07-04 12:00:00 in Europe/Berlin, as the API prints them.').waitFor();
    const expected = await answer({
      date: '2026-07-04 12:00:00',
      from_timezone: 'America/New_York',
      to_timezone: 'Europe/Berlin',
      output_format: '%A %d %B %Y %H:%M %Z',
    });
    await eventually(() => resultValues(page), Object.values(expected).map(String), 'last date');
    await eventually(async () => calls.now(), 0, 'all settled');
    assert.ok(calls.sent() >= 8, `${calls.sent()} calls`);
    assert.equal(calls.max(), 1);
    assertNoProblems();
    await close();
  });

  it("an unknown zone and an unknown directive show the API's detail next to their fields", async () => {
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn('/tools/date-format');
    await eventually(async () => (await resultValues(page)).length, 4, 'example');
    const to = page.getByRole('combobox', { name: 'To timezone' });
    await to.fill('Mars/Olympus_Mons');
    const refusal = await fetch(`${web.url}/v1/date-format`, {
      method: 'POST',
      headers: { 'x-api-key': web.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        date: '2026-03-08 01:30:00',
        from_timezone: 'America/New_York',
        to_timezone: 'Mars/Olympus_Mons',
        output_format: '%A %d %B %Y %H:%M %Z',
      }),
    });
    assert.equal(refusal.status, 422);
    const { detail } = (await refusal.json()) as { detail: string };
    await eventually(() => to.getAttribute('aria-invalid'), 'true', 'zone invalid');
    assert.deepEqual(await describedBy(page, to), [detail, 'IANA zone of the output; default from_timezone.']);
    assert.equal(await page.getByRole('combobox', { name: 'From timezone' }).getAttribute('aria-invalid'), null);
    assert.equal(await page.getByRole('alert').count(), 0);

    await to.fill('Europe/Berlin');
    await eventually(() => to.getAttribute('aria-invalid'), null, 'zone fixed');
    const output = page.getByRole('textbox', { name: 'Output format' });
    await output.fill('%Y %Q');
    await eventually(async () => (await describedBy(page, output))[0], 'output_format has an unsupported directive "%Q"', 'directive');
    assert.equal(await output.getAttribute('aria-invalid'), 'true');
    assert.deepEqual(apiErrors, ['POST /v1/date-format 422', 'POST /v1/date-format 422']);
    assertNoProblems();
    await close();
  });
});
