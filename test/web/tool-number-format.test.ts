import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';
import { describedBy, eventually } from '../helpers/tool-pages.js';

/** The rendered top-level fields of the result: each field's value as text. */
const resultValues = (page: Page) =>
  page.getByRole('region', { name: 'Result' }).locator('dd > .tool-value, dd > .tool-string > .tool-value').allTextContents();

/** The values of the suggestions the open picker lists. */
const suggestions = (page: Page) =>
  page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option').locator('.picker-value').allInnerTexts();

describe('number format page in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  const answer = (body: unknown) => web.api<Record<string, unknown>>('POST', '/v1/number-format', body);

  it('the locale picker filters as you type; a locale picked by mouse or keyboard gives the API answer for it', async () => {
    const { page, apiErrors, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/number-format');
    const example = { number: 1234567.891, format_type: 'currency', locale: 'de_DE', currency: 'EUR' };
    await eventually(() => resultValues(page), Object.values(await answer(example)).map(String), 'example');

    const locale = page.getByRole('combobox', { name: 'Locale' });
    await locale.fill('german');
    await eventually(() => suggestions(page), ['de_AT', 'de_CH', 'de_DE'], 'german');
    const labels = await page.getByRole('option').locator('.picker-label').allInnerTexts();
    assert.deepEqual(labels, ['German (Austria)', 'German (Switzerland)', 'German (Germany)']);
    assert.equal(await locale.getAttribute('aria-expanded'), 'true');
    await locale.fill('portuguese bra');
    await eventually(() => suggestions(page), ['pt_BR'], 'two words');
    await locale.fill('zz_ZZ');
    await eventually(() => page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option').count(), 0, 'no match');
    assert.equal(await locale.getAttribute('aria-expanded'), 'false');

    await locale.fill('swit');
    await eventually(() => suggestions(page), ['de_CH', 'fr_CH', 'it_CH'], 'switzerland');
    const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, []);
    await page.getByRole('option', { name: /fr_CH/ }).click();
    assert.equal(await locale.inputValue(), 'fr_CH');
    assert.equal(await page.getByRole('listbox', { name: 'Suggestions' }).isVisible(), false);
    await eventually(() => resultValues(page), Object.values(await answer({ ...example, locale: 'fr_CH' })).map(String), 'fr_CH');

    // Keyboard: the arrows move through the suggestions, Enter picks one, Escape closes the list.
    await locale.fill('ja');
    await eventually(() => suggestions(page), ['ja_JP'], 'ja');
    await locale.press('ArrowDown');
    assert.equal(await locale.getAttribute('aria-activedescendant'), 'tool-format-locale-list-0');
    assert.equal(await page.getByRole('option', { name: /ja_JP/ }).getAttribute('aria-selected'), 'true');
    await locale.press('Enter');
    assert.equal(await page.getByRole('listbox', { name: 'Suggestions' }).isVisible(), false);
    assert.equal(await locale.inputValue(), 'ja_JP');

    // The currency picker lists the ISO 4217 codes with their names.
    const currency = page.getByRole('combobox', { name: 'Currency' });
    await currency.fill('japanese');
    await eventually(() => suggestions(page), ['JPY'], 'yen');
    await currency.press('ArrowDown');
    await currency.press('Enter');
    assert.equal(await currency.inputValue(), 'JPY');
    await locale.fill('en_');
    await page.getByRole('listbox', { name: 'Suggestions' }).waitFor();
    await locale.press('Escape');
    assert.equal(await page.getByRole('listbox', { name: 'Suggestions' }).isVisible(), false);
    await locale.fill('ja_JP');
    const body = { ...example, locale: 'ja_JP', currency: 'JPY' };
    await eventually(() => resultValues(page), Object.values(await answer(body)).map(String), 'ja_JP JPY');
    // What was typed on the way (a search, not a locale) may have been sent and refused, nothing else.
    assert.ok(
      apiErrors.every((e) => e === 'POST /v1/number-format 422'),
      apiErrors.join(' '),
    );
    assertNoProblems();
    await close();
  });

  it("an unknown locale shows the API's detail next to the locale picker", async () => {
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn('/tools/number-format');
    await eventually(async () => (await resultValues(page)).length, 4, 'example');
    const locale = page.getByRole('combobox', { name: 'Locale' });
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
    assert.equal(await page.getByRole('combobox', { name: 'Currency' }).getAttribute('aria-invalid'), null);
    assert.equal(await page.getByRole('alert').count(), 0);
    assert.deepEqual(apiErrors, ['POST /v1/number-format 422']);
    assertNoProblems();
    await close();
  });

  it('a number the browser cannot read (1e400) says so next to the field, and a readable one clears it', async () => {
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn('/tools/number-format');
    await eventually(async () => (await resultValues(page)).length, 4, 'example');
    const number = page.getByLabel('Number', { exact: true });
    await number.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('1e400');
    await eventually(() => number.getAttribute('aria-invalid'), 'true', 'number unreadable');
    assert.deepEqual(await describedBy(page, number), [
      'Number is not a number (or too large for one).',
      'A JSON number (a string is refused).',
    ]);
    // 1e4 is readable: the message goes and the answer is the API's.
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await eventually(() => number.getAttribute('aria-invalid'), null, 'number readable again');
    await eventually(() => resultValues(page).then((values) => values[1]), '10000', 'answer for 1e4');
    assert.deepEqual(apiErrors, []);
    assertNoProblems();
    await close();
  });
});
