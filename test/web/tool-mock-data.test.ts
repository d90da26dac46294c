import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';
import { describedBy, eventually } from '../helpers/tool-pages.js';

const OPENAPI = JSON.parse(readFileSync('dist/openapi.json', 'utf8')) as {
  paths: Record<string, { post: { requestBody: { content: Record<string, { example: { fields: unknown[] } }> } } }>;
};
const SQLITE3 = ['/usr/bin/sqlite3', '/usr/local/bin/sqlite3'].find((path) => existsSync(path));

type Row = Record<string, unknown>;
interface Generated {
  data: Row[];
  rows: number;
  fields: number;
}

/** RFC 4180: fields separated by commas, records ended by CRLF, a quoted field doubles its quotes. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i += 1;
    } else if (quoted && c === '"') {
      quoted = false;
    } else if (quoted) {
      field += c;
    } else if (c === '"' && field === '') {
      quoted = true;
    } else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else {
      field += c;
    }
  }
  assert.deepEqual([record, field, quoted], [[], '', false], 'the last record ends in CRLF');
  return records;
}

/** The rows as text, the way CSV and XML write values: null as null, the rest as JavaScript prints it. */
const asText = (rows: Row[], names: string[]) => rows.map((row) => names.map((n) => (row[n] === null ? null : String(row[n]))));

describe('mock data page in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  const answer = (body: unknown) => web.api<Generated>('POST', '/v1/mock-data', body);
  const field = (page: Page, n: number) => page.getByRole('group', { name: `Field ${n}`, exact: true });
  /** Each preview row's cells as text. */
  const previewRows = async (page: Page) => {
    const rows = await page.getByRole('group', { name: 'Preview' }).locator('tbody tr').all();
    return Promise.all(rows.map((row) => row.locator('td').allTextContents()));
  };
  const previewHead = (page: Page) => page.getByRole('group', { name: 'Preview' }).locator('thead th').allTextContents();
  /** The rows as the preview shows them: null as null, objects and arrays as JSON. */
  const expectedPreview = (data: Row[]) =>
    data.map((row) => Object.values(row).map((v) => (v === null ? 'null' : typeof v === 'object' ? JSON.stringify(v) : String(v))));

  async function downloadText(page: Page, label: string): Promise<{ name: string; text: string }> {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: `Download ${label}` }).click()]);
    return { name: download.suggestedFilename(), text: readFileSync((await download.path())!, 'utf8') };
  }

  it('the field table comes from /v1/mock-data/types; rows edited, moved and removed generate what the API answers', async () => {
    const { page, apiErrors, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/mock-data');
    const types = await web.api<{ count: number; types: { name: string }[]; locales: string[] }>('GET', '/v1/mock-data/types');
    // The OpenAPI example, as the page opens on it (the document's example has lost the email's `nullable`).
    const example = OPENAPI.paths['/v1/mock-data'].post.requestBody.content['application/json'].example;
    assert.deepEqual(example.fields[4], { name: 'email', type: 'email', options: { null_ratio: 0.2 } });
    // The page opens on the example, generated at once.
    const first = await answer(example);
    await eventually(() => previewRows(page), expectedPreview(first.data), 'example preview');
    assert.deepEqual(await previewHead(page), ['id', 'name', 'price', 'sku', 'email']);
    assert.equal(await page.locator('.mock-summary p').innerText(), '3 rows × 5 fields, locale en_US, seed 42');

    const typeSelect = field(page, 1).getByLabel('Type', { exact: true });
    assert.deepEqual(
      await typeSelect.getByRole('option').allTextContents(),
      types.types.map((t) => t.name),
    );
    assert.ok(types.count >= 50);
    assert.deepEqual(await page.getByLabel('Locale').getByRole('option').allTextContents(), types.locales);
    // Each type's options, from its schema: price has min, max, decimals; null ratio only once nullable.
    const price = field(page, 3);
    assert.deepEqual(await price.locator('label').allInnerTexts(), ['Name', 'Type', 'Min', 'Max', 'Decimals', 'Nullable']);
    assert.equal(await price.getByLabel('Min', { exact: true }).inputValue(), '5');
    // The example's null ratio shows once the field is nullable.
    assert.equal(await field(page, 5).getByLabel('Null ratio').count(), 0);
    await field(page, 5).getByLabel('Nullable').check();
    assert.equal(await field(page, 5).getByLabel('Null ratio').inputValue(), '0.2');
    await price.getByLabel('Nullable').check();
    assert.deepEqual(await price.locator('label').allInnerTexts(), ['Name', 'Type', 'Min', 'Max', 'Decimals', 'Nullable', 'Null ratio']);
    await price.getByLabel('Nullable').uncheck();

    // Field 2 becomes an enum named colour, moves first; sku goes; a constant is added.
    await field(page, 2).getByLabel('Type', { exact: true }).selectOption('enum');
    assert.deepEqual(await field(page, 2).locator('label').allInnerTexts(), ['Name', 'Type', 'Values', 'Nullable']);
    assert.equal(await field(page, 2).getByLabel('Values').getAttribute('aria-required'), 'true');
    await field(page, 2).getByLabel('Values').fill('["red", "green", 3]');
    await field(page, 2).getByLabel('Name', { exact: true }).fill('colour');
    await field(page, 2).getByRole('button', { name: 'Move up' }).click();
    assert.equal(await field(page, 1).getByLabel('Name', { exact: true }).inputValue(), 'colour');
    assert.equal(await field(page, 1).getByRole('button', { name: 'Move up' }).isDisabled(), true);
    assert.equal(await field(page, 4).getByLabel('Name', { exact: true }).inputValue(), 'sku');
    await field(page, 4).getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'Add field' }).click();
    assert.equal(await field(page, 5).getByLabel('Name', { exact: true }).inputValue(), 'field_5');
    await field(page, 5).getByLabel('Type', { exact: true }).selectOption('constant');
    await field(page, 5).getByLabel('Value', { exact: true }).fill('{"a": [1, null]}');
    assert.equal(await field(page, 5).getByRole('button', { name: 'Move down' }).isDisabled(), true);
    await page.getByLabel('Rows').fill('4');
    await page.getByLabel('Locale').selectOption('de_DE');
    await page.getByLabel('Seed').fill('7');
    await page.getByRole('button', { name: 'Generate' }).click();

    const body = {
      fields: [
        { name: 'colour', type: 'enum', options: { values: ['red', 'green', 3] } },
        { name: 'id', type: 'sequence' },
        { name: 'price', type: 'price', options: { min: 5, max: 50 } },
        { name: 'email', type: 'email', options: { nullable: true, null_ratio: 0.2 } },
        { name: 'field_5', type: 'constant', options: { value: { a: [1, null] } } },
      ],
      rows: 4,
      locale: 'de_DE',
      seed: 7,
    };
    const expected = await answer(body);
    await eventually(() => previewRows(page), expectedPreview(expected.data), 'edited preview');
    assert.deepEqual(await previewHead(page), ['colour', 'id', 'price', 'email', 'field_5']);
    assert.equal(
      await page.getByRole('group', { name: 'Preview' }).locator('tbody tr').first().locator('td').last().textContent(),
      '{"a":[1,null]}',
    );
    await page.getByText('curl', { exact: true }).click();
    assert.equal(
      await page.locator('.tool-curl pre').textContent(),
      `curl -sS -X POST '${web.url}/v1/mock-data' -H "X-API-Key: $DEVUTIL_KEY" -H 'Content-Type: application/json' -d '${JSON.stringify(body)}'`,
    );
    const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, []);
    assert.deepEqual(apiErrors, []);
    assertNoProblems();
    await close();
  });

  it('the downloads hold the rows shown: JSON equal, CSV, SQL (run in sqlite3) and XML read back to the same values', async () => {
    const { page, assertNoProblems, close } = await web.openSignedIn('/tools/mock-data');
    await eventually(async () => (await previewRows(page)).length, 3, 'example preview');
    // Text that each format must quote: quotes, a comma, a newline and markup characters.
    const tricky = 'O\'Brien, "quoted"\nline <&> x';
    await field(page, 2).getByLabel('Type', { exact: true }).selectOption('constant');
    await field(page, 2).getByLabel('Value', { exact: true }).fill(JSON.stringify(tricky));
    await field(page, 2).getByLabel('Name', { exact: true }).fill('note');
    await page.getByRole('button', { name: 'Add field' }).click();
    await field(page, 6).getByLabel('Type', { exact: true }).selectOption('boolean');
    await field(page, 6).getByLabel('Name', { exact: true }).fill('ok');
    await field(page, 5).getByLabel('Nullable').check();
    await page.getByLabel('Rows').fill('6');
    await page.getByLabel('Seed').fill('11');
    await page.getByText('SQL options').click();
    await page.getByLabel('Table name').fill('people "list"');
    await page.getByRole('button', { name: 'Generate' }).click();
    const body = {
      fields: [
        { name: 'id', type: 'sequence' },
        { name: 'note', type: 'constant', options: { value: tricky } },
        { name: 'price', type: 'price', options: { min: 5, max: 50 } },
        { name: 'sku', type: 'regex', options: { pattern: '[A-Z]{3}-\\d{4}' } },
        { name: 'email', type: 'email', options: { nullable: true, null_ratio: 0.2 } },
        { name: 'ok', type: 'boolean' },
      ],
      rows: 6,
      locale: 'en_US',
      seed: 11,
    };
    const expected = await answer(body);
    await eventually(() => previewRows(page), expectedPreview(expected.data), 'preview');
    const names = body.fields.map((f) => f.name);
    assert.ok(expected.data.some((row) => row.email === null) && expected.data.some((row) => row.email !== null));

    const json = await downloadText(page, 'JSON');
    assert.equal(json.name, 'mock-data.json');
    assert.deepEqual(JSON.parse(json.text), expected.data);

    const csv = await downloadText(page, 'CSV');
    assert.equal(csv.name, 'mock-data.csv');
    const [header, ...records] = parseCsv(csv.text);
    assert.deepEqual(header, names);
    assert.deepEqual(
      records,
      asText(expected.data, names).map((row) => row.map((v) => v ?? '')),
    );
    assert.equal(records[0][1], tricky);

    const xml = await downloadText(page, 'XML');
    assert.equal(xml.name, 'mock-data.xml');
    // Chromium's own XML parser reads the file (the test process has none).
    const parsed = await page.evaluate<{ name: string; null: string | null; text: string }[][] | null>(
      `(() => {
        const doc = new DOMParser().parseFromString(${JSON.stringify(xml.text)}, 'application/xml');
        if (doc.querySelector('parsererror')) return null;
        return [...doc.documentElement.children].map((row) =>
          [...row.children].map((cell) => ({ name: cell.tagName, null: cell.getAttribute('null'), text: cell.textContent })));
      })()`,
    );
    assert.ok(parsed !== null, 'well-formed XML');
    assert.deepEqual(
      parsed.map((row) => row.map((cell) => cell.name)),
      expected.data.map(() => names),
    );
    assert.deepEqual(
      parsed.map((row) => row.map((cell) => (cell.null === 'true' ? null : cell.text))),
      asText(expected.data, names),
    );

    const sql = await downloadText(page, 'SQL');
    assert.equal(sql.name, 'mock-data.sql');
    assert.equal(
      sql.text,
      (await web.api<{ data: string }>('POST', '/v1/mock-data', { ...body, output_format: 'sql', table_name: 'people "list"' })).data,
    );
    if (SQLITE3 === undefined) {
      // The statements are still the API's own (checked above); running them needs the sqlite3 CLI.
      console.log('# sqlite3 is not installed: the SQL download was not run');
    } else {
      const out = execFileSync(SQLITE3, [':memory:'], {
        input: `${sql.text}\n.mode json\nSELECT * FROM "people ""list""";\n`,
        encoding: 'utf8',
      });
      const rows = JSON.parse(out) as Row[];
      // SQLite stores BOOLEAN as 0 and 1.
      assert.deepEqual(
        rows,
        expected.data.map((row) => ({ ...row, ok: row.ok ? 1 : 0 })),
      );
    }

    // An empty seed: each Generate draws new rows, the seed used is shown, and the downloads repeat it.
    await page.getByLabel('Seed').fill('');
    await page.getByRole('button', { name: 'Generate' }).click();
    const summary = page.locator('.mock-summary p');
    await eventually(async () => /seed (\d+)/.exec(await summary.innerText())?.[1] !== '11', true, 'new seed');
    const seed = Number(/seed (\d+)/.exec(await summary.innerText())![1]);
    const drawn = await answer({ ...body, seed });
    assert.deepEqual(await previewRows(page), expectedPreview(drawn.data));
    assert.deepEqual(JSON.parse((await downloadText(page, 'JSON')).text), drawn.data);
    const fromApi = await web.api<{ data: string }>('POST', '/v1/mock-data', { ...body, seed, output_format: 'csv' });
    assert.equal((await downloadText(page, 'CSV')).text, fromApi.data);
    assert.equal(await page.getByLabel('Seed').inputValue(), '');
    await page.getByRole('button', { name: 'Keep this seed' }).click();
    assert.equal(await page.getByLabel('Seed').inputValue(), String(seed));
    assertNoProblems();
    await close();
  });

  it("a bad option shows the API's detail next to it in the field table; JSON the form cannot read is said next to it", async () => {
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn('/tools/mock-data');
    await eventually(async () => (await previewRows(page)).length, 3, 'example preview');
    const price = field(page, 3);
    await price.getByLabel('Min', { exact: true }).fill('60');
    await page.getByRole('button', { name: 'Generate' }).click();
    const refusal = await fetch(`${web.url}/v1/mock-data`, {
      method: 'POST',
      headers: { 'x-api-key': web.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ fields: [{ name: 'p', type: 'price', options: { min: 60, max: 50 } }], seed: 42 }),
    });
    assert.equal(refusal.status, 422);
    const { detail } = (await refusal.json()) as { detail: string };
    assert.equal(detail, 'fields[0].options.max must be greater than or equal to min (60).');
    const max = price.getByLabel('Max', { exact: true });
    await eventually(() => max.getAttribute('aria-invalid'), 'true', 'max invalid');
    assert.deepEqual(await describedBy(page, max), [detail.replace('fields[0]', 'fields[2]'), 'Highest price (default 1000).']);
    assert.equal(await price.getByLabel('Min', { exact: true }).getAttribute('aria-invalid'), null);
    assert.equal(await page.getByRole('alert').count(), 0);
    await page.getByRole('region', { name: 'Result' }).getByText('No rows: see the error.').waitFor();

    await price.getByLabel('Min', { exact: true }).fill('5');
    await page.getByLabel('Rows').fill('5000');
    await page.getByRole('button', { name: 'Generate' }).click();
    const rows = page.getByLabel('Rows');
    await eventually(async () => (await describedBy(page, rows))[0], 'Invalid body: rows must be <= 1000.', 'rows');
    assert.equal(await max.getAttribute('aria-invalid'), null);

    // An enum's values must be JSON: said next to them, and nothing is sent.
    await page.getByLabel('Rows').fill('3');
    await field(page, 2).getByLabel('Type', { exact: true }).selectOption('enum');
    const values = field(page, 2).getByLabel('Values');
    await values.fill('[red, green]');
    assert.equal((await describedBy(page, values))[0], 'Values is not valid JSON (text goes in double quotes).');
    await page.getByRole('button', { name: 'Generate' }).click();
    assert.deepEqual(apiErrors, ['POST /v1/mock-data 422', 'POST /v1/mock-data 422']);

    // Rows generated, then a value the form cannot read: the earlier rows and their downloads go.
    await values.fill('["red", "green"]');
    await page.getByRole('button', { name: 'Generate' }).click();
    await eventually(async () => (await previewRows(page)).length, 3, 'rows again');
    const downloads = page.getByRole('group', { name: 'Downloads' });
    assert.equal(await downloads.count(), 1);
    await values.fill('[red, green]');
    await page.getByRole('region', { name: 'Result' }).getByText('No rows: see the error.').waitFor();
    assert.equal(await downloads.count(), 0);
    assertNoProblems();
    await close();
  });

  it('a duplicate field name is said at the Name of the field that repeats it', async () => {
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn('/tools/mock-data');
    await eventually(async () => (await previewRows(page)).length, 3, 'example preview');
    const second = field(page, 2).getByLabel('Name', { exact: true });
    await second.fill('id');
    await page.getByRole('button', { name: 'Generate' }).click();
    await eventually(() => second.getAttribute('aria-invalid'), 'true', 'second name invalid');
    assert.equal((await describedBy(page, second))[0], 'fields[1].name "id" is a duplicate: each field name must be unique.');
    assert.equal(await field(page, 1).getByLabel('Name', { exact: true }).getAttribute('aria-invalid'), null);
    assert.equal(await page.getByRole('alert').count(), 0);
    assert.deepEqual(apiErrors, ['POST /v1/mock-data 422']);
    assertNoProblems();
    await close();
  });
});
