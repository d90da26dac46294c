import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';
import { assertAccessible, describedBy, eventually, refusalDetail } from '../helpers/tool-pages.js';

const OPENAPI = JSON.parse(readFileSync('dist/openapi.json', 'utf8')) as {
  paths: Record<
    string,
    { post: { requestBody: { content: { 'application/json': { schema: { properties: { format: { enum: string[] } } } } } } } }
  >;
};
const FORMATS = OPENAPI.paths['/v1/auth/encode'].post.requestBody.content['application/json'].schema.properties.format.enum;

interface Transcoded {
  result: string;
  format: string;
  action: string;
  result_encoding: string;
}

describe('URL, HTML, hex and Ascii85 page in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  const transcode = (body: Record<string, unknown>) => web.api<Transcoded>('POST', '/v1/auth/encode', body);

  it('each format and direction shows the API answer, and "Use as input" turns the result around', async () => {
    const opened = await web.openSignedIn('/tools/encode');
    const { page, assertNoProblems, close } = opened;
    await page.getByRole('heading', { level: 1, name: 'URL, HTML, hex and Ascii85' }).waitFor();
    const format = page.getByRole('group', { name: 'Format' });
    await format.waitFor();
    // One radio button per format the API takes.
    assert.deepEqual(await format.locator('label').allInnerTexts(), ['URL (percent-encoding)', 'HTML entities', 'Hex', 'Ascii85']);
    assert.deepEqual(FORMATS, ['url', 'html', 'hex', 'ascii85']);
    const output = page.getByRole('region', { name: 'Result' }).getByLabel('Output');
    await eventually(() => output.textContent(), (await transcode({ data: 'a b&c', format: 'url' })).result, 'example');

    const input = page.getByLabel('Input', { exact: true });
    const text = 'café & <b>"tea"</b>/?';
    await input.fill(text);
    await eventually(() => output.textContent(), (await transcode({ data: text, format: 'url' })).result, 'url');
    await format.getByLabel('HTML entities').check();
    const html = await transcode({ data: text, format: 'html' });
    await eventually(() => output.textContent(), html.result, 'html');
    assert.equal(html.result, 'café &amp; &lt;b&gt;&quot;tea&quot;&lt;/b&gt;/?');

    // The result back as input, decoded: the text again.
    await page.getByRole('button', { name: 'Use as input (decode it)' }).click();
    assert.equal(await input.inputValue(), html.result);
    assert.equal(await page.getByRole('group', { name: 'Direction' }).getByLabel('Decode').isChecked(), true);
    await eventually(() => output.textContent(), text, 'decoded back');

    await format.getByLabel('Ascii85').check();
    await page.getByRole('group', { name: 'Direction' }).getByLabel('Encode').check();
    await input.fill(text);
    const ascii85 = await transcode({ data: text, format: 'ascii85', action: 'encode' });
    await eventually(() => output.textContent(), ascii85.result, 'ascii85');

    // Hex of bytes that are not UTF-8, from hex input.
    await input.fill('ff00');
    await format.getByLabel('Hex').check();
    await page.getByRole('group', { name: 'Direction' }).getByLabel('Decode').check();
    const bytes = await transcode({ data: 'ff00', format: 'hex', action: 'decode' });
    assert.equal(bytes.result_encoding, 'hex');
    await page.getByText('The decoded bytes are not UTF-8 text: shown as hex.').waitFor();
    assert.equal(await output.textContent(), bytes.result);

    await page.getByText('curl', { exact: true }).click();
    assert.equal(
      await page.locator('.tool-curl pre').textContent(),
      `curl -sS -X POST '${web.url}/v1/auth/encode' -H "X-API-Key: $DEVUTIL_KEY" -H 'Content-Type: application/json' -d '{"data":"ff00","format":"hex","action":"decode"}'`,
    );
    await assertAccessible(opened, 'encode page');
    assertNoProblems();
    await close();
  });

  it("input the format cannot decode shows the API's detail next to the input", async () => {
    const opened = await web.openSignedIn('/tools/encode');
    const { page, apiErrors, assertNoProblems, close } = opened;
    const output = page.getByRole('region', { name: 'Result' }).getByLabel('Output');
    await eventually(async () => (await output.count()) === 1, true, 'example answered');
    const input = page.getByLabel('Input', { exact: true });
    await input.fill('zz');
    await page.getByRole('group', { name: 'Format' }).getByLabel('Hex').check();
    await page.getByRole('group', { name: 'Direction' }).getByLabel('Decode').check();
    const detail = await refusalDetail(web, '/v1/auth/encode', { data: 'zz', format: 'hex', action: 'decode' });
    await eventually(() => input.getAttribute('aria-invalid'), 'true', 'input invalid');
    assert.deepEqual(await describedBy(page, input), [detail]);
    assert.equal(await page.getByRole('alert').count(), 0);
    await assertAccessible(opened, 'encode error');
    await input.fill('6869');
    await eventually(() => output.textContent(), 'hi', 'fixed');
    assert.equal(await input.getAttribute('aria-invalid'), null);
    assert.deepEqual(apiErrors, ['POST /v1/auth/encode 422']);
    assertNoProblems();
    await close();
  });
});
