import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';
import { assertAccessible, countInFlight, describedBy, eventually, refusalDetail } from '../helpers/tool-pages.js';

const OPENAPI = JSON.parse(readFileSync('dist/openapi.json', 'utf8')) as {
  paths: Record<
    string,
    { post: { requestBody: { content: { 'application/json': { schema: { properties: { algorithm: { enum: string[] } } } } } } } }
  >;
};
/** Every algorithm the API takes, in the schema's order. */
const ALGORITHMS = OPENAPI.paths['/v1/auth/hash'].post.requestBody.content['application/json'].schema.properties.algorithm.enum;

/** The table as it stands: [algorithm, bits, hash] per row. */
const tableOf = (page: Page) =>
  page
    .getByRole('group', { name: 'Hashes' })
    .getByRole('row')
    .evaluateAll((rows) =>
      rows.slice(1).map((row) => {
        const cells = [...row.children].map((c) => c.querySelector('code')?.textContent ?? c.textContent ?? '');
        return [cells[0], cells[1], cells[2]];
      }),
    );

describe('Hash page in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  /** The rows the API's answers make for `body`, one call per algorithm. */
  async function expectedTable(body: Record<string, unknown>): Promise<string[][]> {
    const rows: string[][] = [];
    for (const algorithm of ALGORITHMS) {
      const { hash } = await web.api<{ hash: string }>('POST', '/v1/auth/hash', { ...body, algorithm });
      const bits = body.encoding === 'base64' ? Buffer.from(hash, 'base64').length * 8 : hash.length * 4;
      rows.push([algorithm, String(bits), hash]);
    }
    return rows;
  }

  it('every algorithm at once, each row equal to the API, with one request in flight while typing fast', async () => {
    const opened = await web.openSignedIn('/tools/hash');
    const { page, assertNoProblems, close } = opened;
    await page.getByRole('heading', { level: 1, name: 'Hash' }).waitFor();
    await eventually(() => tableOf(page), await expectedTable({ data: 'abc' }), 'example');
    assert.equal(ALGORITHMS.length, 10);

    // Slow answers, so that keystrokes land while a call is in flight.
    await page.route('**/v1/auth/hash', async (route) => {
      await new Promise((r) => setTimeout(r, 150));
      await route.fallback();
    });
    const calls = countInFlight(page, '/v1/auth/hash');
    const data = page.getByLabel('Data', { exact: true });
    await data.fill('');
    await data.pressSequentially('The quick brown fox', { delay: 120 });
    await eventually(() => tableOf(page), await expectedTable({ data: 'The quick brown fox' }), 'typed', 20_000);
    await eventually(async () => calls.now(), 0, 'settled');
    assert.equal(calls.max(), 1);
    await page.unroute('**/v1/auth/hash');

    // With quick answers, the other algorithms still wait for a pause in the typing: at most one call
    // a keystroke, then one per other algorithm (a free key has 60 calls a minute).
    const typing = countInFlight(page, '/v1/auth/hash');
    await data.fill('');
    await data.pressSequentially('jumps over the lazy dog', { delay: 120 });
    await eventually(() => tableOf(page), await expectedTable({ data: 'jumps over the lazy dog' }), 'typed quickly answered', 20_000);
    assert.ok(typing.sent() <= 'jumps over the lazy dog'.length + 1 + ALGORITHMS.length - 1, `${typing.sent()} calls`);

    await data.fill('00ff');
    await page.getByLabel('Input encoding').selectOption('hex');
    await page.getByLabel('Output encoding').selectOption('base64');
    await eventually(
      () => tableOf(page),
      await expectedTable({ data: '00ff', data_encoding: 'hex', encoding: 'base64' }),
      'hex in, base64 out',
    );
    assert.equal(await page.getByRole('button', { name: 'Copy sha3-256 hash' }).count(), 1);
    await assertAccessible(opened, 'hash page');
    assertNoProblems();
    await close();
  });

  it("data that is not the hex it claims to be shows the API's detail next to the data", async () => {
    const opened = await web.openSignedIn('/tools/hash');
    const { page, apiErrors, assertNoProblems, close } = opened;
    await eventually(async () => (await tableOf(page)).every((row) => row[2] !== '…'), true, 'example');
    const data = page.getByLabel('Data', { exact: true });
    await data.fill('zz');
    await page.getByLabel('Input encoding').selectOption('hex');
    const detail = await refusalDetail(web, '/v1/auth/hash', { data: 'zz', data_encoding: 'hex' });
    await eventually(() => data.getAttribute('aria-invalid'), 'true', 'data invalid');
    assert.deepEqual(await describedBy(page, data), [detail, 'Data to hash (UTF-8 unless data_encoding).']);
    const result = page.getByRole('region', { name: 'Result' });
    await result.getByText('No result: see the error.').waitFor();
    // The refusal ends the update: nothing says "Updating…" while the error stands.
    await eventually(() => result.getAttribute('aria-busy'), null, 'not busy after the refusal');
    assert.equal(await result.getByText('Updating…').count(), 0);
    await assertAccessible(opened, 'hash error');
    await data.fill('6869');
    await eventually(() => tableOf(page), await expectedTable({ data: '6869', data_encoding: 'hex' }), 'fixed');
    // One refusal: the other algorithms wait for the selected one's answer and were never asked.
    assert.deepEqual(apiErrors, ['POST /v1/auth/hash 422']);
    assertNoProblems();
    await close();
  });
});
