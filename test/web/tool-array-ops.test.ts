import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';
import { describedBy, eventually } from '../helpers/tool-pages.js';

interface Answer {
  result: unknown[];
  operation: string;
  count: number;
}

describe('array operations page in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  const answer = (body: unknown) => web.api<Answer>('POST', '/v1/array-ops', body);
  const result = (page: Page) => page.getByRole('region', { name: 'Result' });
  /** The count line and each listed item as the page shows them. */
  const shownList = async (page: Page) => ({
    count: await result(page).locator('.array-count').innerText(),
    items: await result(page).getByRole('list', { name: 'Result items' }).getByRole('listitem').allInnerTexts(),
  });
  const expectedList = (a: Answer, noun: string) => ({ count: `${a.count} ${noun}`, items: a.result.map((item) => JSON.stringify(item)) });
  const optionLabels = (page: Page) =>
    page
      .getByRole('group', { name: /^Options of/ })
      .locator('label')
      .allInnerTexts();

  it('only the options the picked operation takes are shown, each keeping its value', async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/array-ops');
    await page.getByRole('heading', { level: 1, name: 'Array operations' }).waitFor();
    const operation = page.getByLabel('Operation', { exact: true });
    // The page's renderer loads after the heading: wait for its operation picker.
    await operation.getByRole('option').first().waitFor({ state: 'attached' });
    assert.deepEqual(await operation.getByRole('option').allInnerTexts(), [
      'sort',
      'deduplicate',
      'intersect',
      'diff',
      'union',
      'chunk',
      'flatten',
      'compact',
      'reverse',
      'sample',
    ]);
    // The example: objects sorted by age, descending, shown as a table.
    const example = await answer({
      operation: 'sort',
      arrays: [
        [
          { name: 'b', age: 30 },
          { name: 'a', age: 25 },
        ],
      ],
      options: { key: 'age', reverse: true },
    });
    await eventually(() => result(page).locator('tbody tr').allInnerTexts(), ['b\t30', 'a\t25'], 'example table');
    assert.equal(await result(page).locator('.array-count').innerText(), `${example.count} items`);
    assert.deepEqual(await optionLabels(page), ['Sort key', 'Descending']);
    assert.equal(await page.getByLabel('Sort key').inputValue(), 'age');
    assert.equal(await page.getByLabel('Descending').isChecked(), true);

    await operation.selectOption('chunk');
    assert.deepEqual(await optionLabels(page), ['Chunk size']);
    assert.equal(await page.getByLabel('Chunk size').getAttribute('aria-required'), 'true');
    await page.getByLabel('Chunk size').fill('1');
    await operation.selectOption('flatten');
    assert.deepEqual(await optionLabels(page), ['Depth']);
    await operation.selectOption('sample');
    assert.deepEqual(await optionLabels(page), ['Sample size', 'Seed']);
    // One `size` option: the chunk size is the sample size.
    assert.equal(await page.getByLabel('Sample size').inputValue(), '1');
    await operation.selectOption('union');
    assert.deepEqual(await optionLabels(page), []);
    await page.getByText('This operation takes no options.').waitFor();
    await operation.selectOption('sort');
    assert.deepEqual(await optionLabels(page), ['Sort key', 'Descending']);
    assert.equal(await page.getByLabel('Sort key').inputValue(), 'age');
    await eventually(() => result(page).locator('tbody tr').allInnerTexts(), ['b\t30', 'a\t25'], 'sorted again');
    assert.deepEqual(await axeViolations(), []);
    assertNoProblems();
    await close();
  });

  it('the result is the list the API answers, with its count, and the request has only the options of the operation', async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/array-ops');
    const arraysEditor = page.getByRole('textbox', { name: 'Arrays' }).and(page.locator('[contenteditable]'));
    await arraysEditor.waitFor();
    const arrays = [
      [3, 1, 'b', 2],
      [2, { id: 1 }, null, 'a', [0]],
    ];
    await arraysEditor.fill(JSON.stringify(arrays));
    await page.getByLabel('Operation', { exact: true }).selectOption('chunk');
    // Picked with no size set, chunk starts at 2 rather than at an error.
    assert.equal(await page.getByLabel('Chunk size').inputValue(), '2');
    const chunk = { operation: 'chunk', arrays, options: { size: 2 } };
    await eventually(() => shownList(page), expectedList(await answer(chunk), 'chunks'), 'chunks');

    await page.getByText('curl', { exact: true }).click();
    assert.equal(
      await page.locator('.tool-curl pre').textContent(),
      `curl -sS -X POST '${web.url}/v1/array-ops' -H "X-API-Key: $DEVUTIL_KEY" -H 'Content-Type: application/json' -d '${JSON.stringify(chunk)}'`,
    );

    // Sorted in the mixed-type order, descending, with no key (cleared).
    await page.getByLabel('Operation', { exact: true }).selectOption('sort');
    await page.getByLabel('Sort key').fill('');
    const sorted = await answer({ operation: 'sort', arrays, options: { reverse: true } });
    await eventually(() => shownList(page), expectedList(sorted, 'items'), 'sorted');
    assert.equal(sorted.result.length, 9);

    await page.getByLabel('Operation', { exact: true }).selectOption('intersect');
    const intersect = await answer({ operation: 'intersect', arrays });
    assert.deepEqual(intersect.result, [2]);
    await eventually(() => shownList(page), expectedList(intersect, 'item'), 'intersect');
    await page.getByLabel('Operation', { exact: true }).selectOption('flatten');
    await page.getByLabel('Depth').fill('-1');
    const flat = await answer({ operation: 'flatten', arrays, options: { depth: -1 } });
    await eventually(() => shownList(page), expectedList(flat, 'items'), 'flatten');
    const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, []);
    assertNoProblems();
    await close();
  });

  it("a bad option or bad arrays show the API's detail next to that field", async () => {
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn('/tools/array-ops');
    const arraysEditor = page.getByRole('textbox', { name: 'Arrays' }).and(page.locator('[contenteditable]'));
    await arraysEditor.waitFor();
    await page.getByLabel('Operation', { exact: true }).selectOption('chunk');
    const size = page.getByLabel('Chunk size');
    // Size cleared: the API says chunk needs one, next to it.
    await size.fill('');
    const required = await fetch(`${web.url}/v1/array-ops`, {
      method: 'POST',
      headers: { 'x-api-key': web.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        operation: 'chunk',
        arrays: [
          [
            { name: 'b', age: 30 },
            { name: 'a', age: 25 },
          ],
        ],
      }),
    });
    assert.equal(required.status, 422);
    await eventually(
      async () => (await describedBy(page, size))[0],
      ((await required.json()) as { detail: string }).detail,
      'size required',
    );
    await size.fill('0');
    const refusal = await fetch(`${web.url}/v1/array-ops`, {
      method: 'POST',
      headers: { 'x-api-key': web.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'chunk', arrays: [[1]], options: { size: 0 } }),
    });
    const { detail } = (await refusal.json()) as { detail: string };
    assert.equal(detail, 'Invalid body: options.size must be >= 1.');
    await eventually(async () => (await describedBy(page, size))[0], detail, 'size 0');
    assert.equal(await size.getAttribute('aria-invalid'), 'true');
    await size.fill('2');
    await eventually(() => size.getAttribute('aria-invalid'), null, 'size fixed');

    // Not an array of arrays: the API names each element, next to the editor.
    await arraysEditor.fill('[1, 2]');
    const arraysError = page.locator('[id="tool-apply-arrays-error"]');
    await eventually(() => arraysError.textContent(), 'arrays[0] must be array; arrays[1] must be array', 'arrays');
    assert.equal(await arraysEditor.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByRole('alert').count(), 0);
    assert.deepEqual(apiErrors, ['POST /v1/array-ops 422', 'POST /v1/array-ops 422', 'POST /v1/array-ops 422']);
    assertNoProblems();
    await close();
  });
});
