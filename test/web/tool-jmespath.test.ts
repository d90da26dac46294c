import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';
import { eventually } from '../helpers/tool-pages.js';

const EXAMPLE_DATA = {
  people: [
    { name: 'Ada', age: 36 },
    { name: 'Alan', age: 41 },
  ],
};

/** The rendered result (the pretty JSON block) and the expression it answers, or null while there is none. */
async function shownResult(page: Page): Promise<{ result: string; expression: string } | null> {
  const values = page.getByRole('region', { name: 'Result' }).locator('dd > .tool-value');
  if ((await values.count()) !== 2) return null;
  const [result, expression] = await values.allTextContents();
  return { result, expression };
}

describe('the JMESPath page in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  /** What the API answers to `body`: status and JSON body. */
  async function call(body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${web.url}/v1/json-transform`, {
      method: 'POST',
      headers: { 'x-api-key': web.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const expectedFor = async (data: unknown, expression: string) => {
    const { status, body } = await call({ data, expression });
    assert.equal(status, 200);
    return { result: JSON.stringify(body.result, null, 2), expression: body.expression as string };
  };

  it('shows data and expression side by side and the live result the API gives, for typing, chips and data edits', async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/jmespath');
    const data = page.getByRole('textbox', { name: 'Data' }).and(page.locator('[contenteditable]'));
    await data.waitFor();
    const expression = page.getByLabel('Expression', { exact: true });
    // Side by side on a wide screen: the expression's column starts right of the data's.
    const [dataBox, expressionBox] = [await data.boundingBox(), await expression.boundingBox()];
    assert.ok(dataBox && expressionBox && expressionBox.x >= dataBox.x + dataBox.width, 'side by side');

    await eventually(() => shownResult(page), await expectedFor(EXAMPLE_DATA, 'people[?age > `40`].name'), 'example');
    // Coloured by token, as text: strings are spans inside the block.
    assert.deepEqual(await page.locator('.json-view .json-string').allTextContents(), ['"Alan"']);

    // Typing fast ends on the answer for the last keystroke.
    await expression.fill('');
    await expression.pressSequentially('people[*].age', { delay: 20 });
    await eventually(() => shownResult(page), await expectedFor(EXAMPLE_DATA, 'people[*].age'), 'typed');

    // A chip puts its expression in the field and answers it.
    const chips = page.getByRole('group', { name: 'Examples to try' }).getByRole('button');
    assert.ok((await chips.count()) >= 4);
    const chip = chips.filter({ hasText: 'sort_by' });
    const chipExpression = await chip.innerText();
    await chip.click();
    assert.equal(await expression.inputValue(), chipExpression);
    assert.equal(await chip.getAttribute('aria-pressed'), 'true');
    await eventually(() => shownResult(page), await expectedFor(EXAMPLE_DATA, chipExpression), 'chip');

    // Editing the data answers again.
    const edited = { people: [{ name: 'Grace', age: 85 }] };
    await data.fill(JSON.stringify(edited));
    await eventually(() => shownResult(page), await expectedFor(edited, chipExpression), 'data edited');

    const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, []);
    assertNoProblems();
    await close();
  });

  it("a parse error shows the API's detail next to the expression with a caret at its column", async () => {
    const { page, apiErrors, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/jmespath', {
      context: { viewport: { width: 360, height: 740 }, colorScheme: 'dark' },
    });
    const expression = page.getByLabel('Expression', { exact: true });
    await eventually(async () => (await shownResult(page)) !== null, true, 'example answer');

    const bad = 'people[?age > `40`.name';
    const refused = await call({ data: EXAMPLE_DATA, expression: bad });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'invalid_expression');
    const position = refused.body.position as number;
    assert.equal(position, 23);
    await expression.fill(bad);
    await eventually(() => expression.getAttribute('aria-invalid'), 'true', 'expression invalid');
    const errorId = (await expression.getAttribute('aria-describedby'))!.split(' ')[0];
    assert.equal(await page.locator(`[id="${errorId}"]`).innerText(), refused.body.detail);
    assert.equal(await page.getByRole('region', { name: 'Result' }).locator('p').innerText(), 'No result: see the error.');
    assert.equal(await page.getByRole('alert').count(), 0);

    // The caret's line has as many characters before "^" as the position; the marked character is the one there (end: a space).
    const caret = page.locator('.jmespath-caret-text');
    const [line, pointer] = (await caret.textContent())!.split('\n');
    assert.equal(line, bad + ' ');
    assert.equal(pointer, ' '.repeat(position) + '^');
    assert.equal(await caret.locator('mark').textContent(), ' ');

    // An error inside the expression: the lexer's position, the character at it marked.
    const lexer = 'people[*].name ~ x';
    const lexed = await call({ data: EXAMPLE_DATA, expression: lexer });
    await expression.fill(lexer);
    await eventually(async () => page.locator(`[id="${errorId}"]`).innerText(), lexed.body.detail as string, 'lexer error');
    await eventually(async () => (await caret.textContent())!.split('\n')[1], ' '.repeat(lexed.body.position as number) + '^', 'caret');
    assert.equal(await caret.locator('mark').textContent(), '~');
    await page.getByRole('button', { name: `Go to position ${lexed.body.position as number}` }).click();
    assert.equal(await page.evaluate('document.activeElement.id'), await expression.getAttribute('id'));
    assert.deepEqual(await page.evaluate('[document.activeElement.selectionStart, document.activeElement.selectionEnd]'), [15, 16]);

    const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, []);
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 360);

    await expression.fill('people[0].name');
    await eventually(() => expression.getAttribute('aria-invalid'), null, 'fixed');
    assert.equal(await caret.count(), 0);
    await eventually(() => shownResult(page), { result: '"Ada"', expression: 'people[0].name' }, 'fixed answer');
    assert.deepEqual(apiErrors, ['POST /v1/json-transform 400', 'POST /v1/json-transform 400']);
    assertNoProblems();
    await close();
  });
});
