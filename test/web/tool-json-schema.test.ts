import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';
import { eventually } from '../helpers/tool-pages.js';

interface Failure {
  error: string;
  path: (string | number)[];
  schema_path: string;
}

const OPENAPI = JSON.parse(readFileSync('dist/openapi.json', 'utf8')) as {
  paths: Record<
    string,
    { post: { requestBody: { content: { 'application/json': { schema: { properties: { draft: { enum: string[] } } } } } } } }
  >;
};

const editor = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true }).and(page.locator('[contenteditable]'));

/** The summary and each listed failure as [pointer, message], as the page shows them. */
async function shownValidation(page: Page): Promise<{ summary: string; errors: string[][] }> {
  const result = page.getByRole('region', { name: 'Result' });
  // An answer still coming (the input changed since) is not the one to read or click.
  if ((await result.getAttribute('aria-busy')) === 'true') return { summary: 'Updating…', errors: [] };
  const summary = result.locator('.json-schema-summary');
  if ((await summary.count()) === 0) return { summary: '', errors: [] };
  // Read at once (no waiting), as a live list may re-render between two reads.
  const [paths, messages] = await Promise.all([
    result.locator('.json-schema-path').allInnerTexts(),
    result.locator('.json-schema-message').allInnerTexts(),
  ]);
  const errors = paths.map((path, i) => [path, messages[i]]);
  return { summary: (await summary.allInnerTexts()).join(''), errors };
}

/** The summary and failures the page should show for an answer of the API. */
function expectedValidation(answer: { valid: boolean; errors: Failure[] }) {
  const pointer = (path: Failure['path']) => (path.length === 0 ? '(root)' : path.map((p) => `/${p}`).join(''));
  const n = answer.errors.length;
  return {
    summary: answer.valid ? 'Valid' : `${n} ${n === 1 ? 'error' : 'errors'}`,
    errors: answer.errors.map((e) => [pointer(e.path), e.error]),
  };
}

/** The text selected in the editor named `name` (inside its shadow root), which the failing field's mark covers too (line breaks aside). */
const selectionIn = (page: Page, name: string) =>
  page.evaluate(
    `(() => { const root = [...document.querySelectorAll('.code-editor-host')].map((h) => h.shadowRoot).find((r) => r && r.querySelector('[aria-label=${JSON.stringify(name)}]'));
      const selected = root.getSelection().toString();
      const marked = [...root.querySelectorAll('.cm-schema-target')].map((m) => m.textContent).join('');
      return selected.replace(/\\n/g, '') === marked ? selected : 'selected ' + selected + ' but marked ' + marked; })()`,
  );

describe('the JSON Schema page in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  async function call(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(web.url + path, {
      method: 'POST',
      headers: { 'x-api-key': web.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const validation = async (body: unknown) => {
    const { status, body: answer } = await call('/v1/json-schema-validate', body);
    assert.equal(status, 200);
    return expectedValidation(answer as unknown as { valid: boolean; errors: Failure[] });
  };

  it('lists the failures the API finds, and clicking one selects the failing value in the data', async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/json-schema');
    const data = editor(page, 'Data');
    await data.waitFor();
    const schema = editor(page, 'Schema');
    const [schemaBox, dataBox] = [await schema.boundingBox(), await data.boundingBox()];
    assert.ok(schemaBox && dataBox && dataBox.x >= schemaBox.x + schemaBox.width, 'side by side');

    const example = {
      data: { name: 'Ada', age: 'thirty' },
      schema: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } }, required: ['name'] },
    };
    await eventually(() => shownValidation(page), await validation(example), 'example');
    await page.getByRole('button', { name: /^\/age / }).click();
    await eventually(() => selectionIn(page, 'Data'), '"thirty"', 'age selected');

    const body = {
      data: { id: 7, tags: ['a', 3, 'c'], owner: { email: 42 }, extra: true },
      schema: {
        type: 'object',
        required: ['id', 'name'],
        additionalProperties: false,
        properties: {
          id: { type: 'integer' },
          name: { type: 'string' },
          tags: { type: 'array', items: { type: 'string' } },
          owner: { type: 'object', properties: { email: { type: 'string' } } },
        },
      },
    };
    await schema.fill(JSON.stringify(body.schema, null, 2));
    await data.fill(JSON.stringify(body.data, null, 2));
    const expected = await validation(body);
    assert.ok(expected.errors.length >= 3, JSON.stringify(expected));
    await eventually(() => shownValidation(page), expected, 'typed');
    await page.getByRole('button', { name: /^\/tags\/1 / }).click();
    await eventually(() => selectionIn(page, 'Data'), '3', 'tags/1 selected');
    await page.getByRole('button', { name: /^\/owner\/email / }).click();
    await eventually(() => selectionIn(page, 'Data'), '42', 'owner/email selected');
    // A failure of the whole value (a missing property) selects all of it.
    await page.getByRole('button', { name: /^\(root\) .*name/ }).click();
    await eventually(() => selectionIn(page, 'Data'), JSON.stringify(body.data, null, 2), 'root selected');

    await data.fill(JSON.stringify({ id: 1, name: 'x' }));
    await eventually(() => shownValidation(page), { summary: 'Valid', errors: [] }, 'valid');
    const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, []);
    assertNoProblems();
    await close();
  });

  it('an edit that replaces the data just after a failure was selected replaces all of it, and both editors edited back to back count', async () => {
    const { page, assertNoProblems, close } = await web.openSignedIn('/tools/json-schema');
    const data = editor(page, 'Data');
    const schema = editor(page, 'Schema');
    await data.waitFor();
    const example = {
      data: { name: 'Ada', age: 'thirty' },
      schema: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } }, required: ['name'] },
    };
    const exampleShown = await validation(example);
    // Selecting a failure selects and marks its value; replacing all the data afterwards must replace all of it,
    // not the value selected before (the editor once wrote that older selection back while clearing the mark).
    for (let round = 0; round < 6; round++) {
      await eventually(() => shownValidation(page), exampleShown, `example, round ${round}`);
      await page.getByRole('button', { name: /^\/age / }).click();
      await eventually(() => selectionIn(page, 'Data'), '"thirty"', `age selected, round ${round}`);
      // Focus goes to the Schema editor and comes back, as when both are edited.
      await schema.fill(JSON.stringify(example.schema, null, round));
      const replaced = JSON.stringify({ round, age: 1 });
      await data.fill(replaced);
      await eventually(() => data.innerText(), replaced, `data replaced, round ${round}`);
      await data.fill(JSON.stringify(example.data));
    }
    // Typing straight over the selected value replaces it, as in any editor, and writes no inline style (the CSP refuses them).
    await eventually(() => shownValidation(page), exampleShown, 'example, typed over');
    await page.getByRole('button', { name: /^\/age / }).click();
    await eventually(() => selectionIn(page, 'Data'), '"thirty"', 'age selected, typed over');
    await page.keyboard.type('30');
    await eventually(() => data.innerText(), JSON.stringify({ ...example.data, age: 30 }), 'value typed over');
    await eventually(() => shownValidation(page), { summary: 'Valid', errors: [] }, 'typed over, valid');
    // An opening bracket typed over a selection wraps it, as the editor's closing brackets do.
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('[');
    await eventually(() => data.innerText(), `[${JSON.stringify({ ...example.data, age: 30 })}]`, 'wrapped in brackets');
    // Schema then Data at once: the answer is for both edits.
    const both = {
      schema: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'integer' } } },
      data: { id: 'seven', extra: true },
    };
    await schema.fill(JSON.stringify(both.schema, null, 2));
    await data.fill(JSON.stringify(both.data, null, 2));
    await eventually(() => shownValidation(page), await validation(both), 'both edited');
    assertNoProblems();
    await close();
  });

  it('the draft selector offers the API drafts and changes the answer; Infer fills the schema editor', async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/json-schema', {
      context: { viewport: { width: 360, height: 740 }, colorScheme: 'dark' },
    });
    const data = editor(page, 'Data');
    const schema = editor(page, 'Schema');
    await data.waitFor();
    const draft = page.getByLabel('Draft');
    const drafts = OPENAPI.paths['/v1/json-schema-validate'].post.requestBody.content['application/json'].schema.properties.draft.enum;
    const values = await Promise.all((await draft.locator('option').all()).map((o) => o.getAttribute('value')));
    assert.deepEqual(values, ['', ...drafts]);

    // `format` is asserted under draft 7, an annotation under 2020-12 (the default).
    const sample = {
      data: { email: 'not-an-email' },
      schema: { type: 'object', properties: { email: { type: 'string', format: 'email' } } },
    };
    await schema.fill(JSON.stringify(sample.schema));
    await data.fill(JSON.stringify(sample.data));
    await eventually(() => shownValidation(page), await validation(sample), 'default draft');
    assert.equal((await shownValidation(page)).summary, 'Valid');
    await draft.selectOption('7');
    const draft7 = await validation({ ...sample, draft: '7' });
    assert.equal(draft7.summary, '1 error');
    await eventually(() => shownValidation(page), draft7, 'draft 7');

    // Infer from the data: the editor holds the API's schema, which the data then satisfies.
    const instance = { id: 1, name: 'Ada', email: null, tags: ['x', 'y'] };
    await data.fill(JSON.stringify(instance, null, 2));
    const inferred = await call('/v1/json-to-schema', { data: instance });
    assert.equal(inferred.status, 200);
    await page.getByRole('button', { name: 'Infer schema from data' }).click();
    await eventually(() => schema.innerText(), JSON.stringify(inferred.body.schema, null, 2), 'inferred schema');
    await eventually(
      () => shownValidation(page),
      await validation({ data: instance, schema: inferred.body.schema, draft: '7' }),
      'inferred',
    );
    assert.equal((await shownValidation(page)).summary, 'Valid');

    // Data that is not JSON cannot be inferred from: said next to the button, nothing sent.
    await data.fill('{"a": ');
    await page.getByRole('button', { name: 'Infer schema from data' }).click();
    const inferError = page.getByRole('alert');
    await inferError.waitFor();
    assert.match(await inferError.innerText(), /^Data is not valid JSON/);

    // The Infer tab (its own inputs: the OpenAPI example, samples of one object) shows the API's schema, and hands it to the Validate tab.
    await page.getByRole('tab', { name: 'Infer a schema' }).click();
    const samples = [
      { id: 1, name: 'Ada', email: null },
      { id: 2, name: 'Alan', email: 'alan@example.com', tags: ['x'] },
    ];
    const tabSchema = JSON.stringify((await call('/v1/json-to-schema', { data: samples })).body.schema, null, 2);
    await eventually(
      () => page.getByRole('region', { name: 'Inferred schema' }).locator('.json-view').textContent(),
      tabSchema,
      'infer tab',
    );
    await editor(page, 'Data').fill(JSON.stringify({ n: 1.5 }));
    const other = JSON.stringify((await call('/v1/json-to-schema', { data: { n: 1.5 } })).body.schema, null, 2);
    await eventually(
      () => page.getByRole('region', { name: 'Inferred schema' }).locator('.json-view').textContent(),
      other,
      'infer edited',
    );
    await page.getByRole('button', { name: 'Validate with this schema' }).click();
    assert.equal(await page.getByRole('tab', { name: 'Validate' }).getAttribute('aria-selected'), 'true');
    await eventually(() => schema.innerText(), other, 'carried schema');
    const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, []);
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 360);
    assertNoProblems();
    await close();
  });

  it('a schema the API refuses shows its detail next to the Schema editor', async () => {
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn('/tools/json-schema');
    const schema = editor(page, 'Schema');
    await schema.waitFor();
    const body = { data: { name: 'Ada', age: 'thirty' }, schema: { type: 'objectx' } };
    const refused = await call('/v1/json-schema-validate', body);
    assert.equal(refused.status, 422);
    assert.equal(refused.body.code, 'validation_error');
    await schema.fill(JSON.stringify(body.schema));
    await eventually(() => schema.getAttribute('aria-invalid'), 'true', 'schema invalid');
    assert.equal(await page.locator('[id="tool-validate-schema-error"]').innerText(), refused.body.detail);
    assert.equal(await editor(page, 'Data').getAttribute('aria-invalid'), null);
    assert.equal(await page.getByRole('alert').count(), 0);
    assert.deepEqual(apiErrors, ['POST /v1/json-schema-validate 422']);
    assertNoProblems();
    await close();
  });
});
