import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';
import { assertAccessible, describedBy, eventually, refusalDetail } from '../helpers/tool-pages.js';

describe('Base64 page in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  const encode = (body: Record<string, unknown>) => web.api<{ result: string }>('POST', '/v1/auth/base64-encode', body);
  const decode = (data: string) => web.api<{ result: string; result_encoding: string }>('POST', '/v1/auth/base64-decode', { data });

  it('typing on either side updates the other with the API answer, the URL-safe and padding toggles re-encode, and text goes round trip', async () => {
    const opened = await web.openSignedIn('/tools/base64');
    const { page, assertNoProblems, close } = opened;
    await page.getByRole('heading', { level: 1, name: 'Base64' }).waitFor();
    const text = page.getByLabel('Text', { exact: true });
    const base64 = page.getByLabel('Base64', { exact: true });
    const tab = (name: string) => page.getByRole('tab', { name }).getAttribute('aria-selected');
    // The page opens on the example's answer.
    await eventually(() => base64.inputValue(), (await encode({ data: 'hello world' })).result, 'example');

    const typed = 'Grüße ✓ ?>>';
    await text.fill('');
    await text.pressSequentially(typed);
    const expected = (await encode({ data: typed })).result;
    await eventually(() => base64.inputValue(), expected, 'encoded');
    assert.match(expected, /[+/]/);

    await page.getByLabel('URL-safe').check();
    const urlSafe = (await encode({ data: typed, url_safe: true })).result;
    await eventually(() => base64.inputValue(), urlSafe, 'url-safe');
    assert.match(urlSafe, /[-_]/);
    await page.getByLabel('Padding').uncheck();
    const bare = (await encode({ data: typed, url_safe: true, padding: false })).result;
    await eventually(() => base64.inputValue(), bare, 'no padding');
    assert.equal(await text.inputValue(), typed);

    // Typed on the Base64 side, the text side follows and the Decode tab shows.
    const other = 'SGVsbG8sIGRldnV0aWwh';
    await base64.fill(other);
    await eventually(async () => [await text.inputValue(), await tab('Decode')], [(await decode(other)).result, 'true'], 'decoded');
    assert.equal(await text.inputValue(), 'Hello, devutil!');

    // Round trip: the text typed again, its Base64 decoded back.
    await text.fill(typed);
    await eventually(() => tab('Encode'), 'true', 'encode again');
    await eventually(() => base64.inputValue(), bare, 'encoded again');
    await base64.fill('');
    await base64.pressSequentially(bare);
    await eventually(async () => [await tab('Decode'), await text.inputValue()], ['true', typed], 'round trip');
    assert.equal((await decode(bare)).result, typed);

    // Bytes that are not UTF-8 come back as hex, said next to the text side.
    await base64.fill('//79');
    await eventually(() => text.inputValue(), (await decode('//79')).result, 'hex');
    assert.equal(await text.inputValue(), 'fffefd');
    assert.deepEqual(await describedBy(page, text), ['The bytes are not UTF-8 text: shown as hex.']);
    assert.equal(await page.getByLabel('Text is').inputValue(), 'hex');

    await page.getByText('Raw JSON').click();
    assert.equal(await page.locator('.tool-raw pre').textContent(), JSON.stringify(await decode('//79'), null, 2));
    await assertAccessible(opened, 'base64 page');
    assertNoProblems();
    await close();
  });

  it("invalid Base64 shows the API's detail next to the Base64 side", async () => {
    const opened = await web.openSignedIn('/tools/base64');
    const { page, apiErrors, assertNoProblems, close } = opened;
    const text = page.getByLabel('Text', { exact: true });
    const base64 = page.getByLabel('Base64', { exact: true });
    await eventually(() => base64.inputValue(), (await encode({ data: 'hello world' })).result, 'example');
    await base64.fill('abc$');
    const detail = await refusalDetail(web, '/v1/auth/base64-decode', { data: 'abc$' });
    await eventually(() => base64.getAttribute('aria-invalid'), 'true', 'base64 invalid');
    assert.deepEqual(await describedBy(page, base64), [
      detail,
      'Decoding takes either alphabet, padding optional, spaces and line breaks ignored.',
    ]);
    assert.equal(await text.getAttribute('aria-invalid'), null);
    assert.equal(await page.getByRole('alert').count(), 0);
    await assertAccessible(opened, 'base64 error');
    await base64.fill('aGk=');
    await eventually(() => text.inputValue(), 'hi', 'fixed');
    assert.equal(await base64.getAttribute('aria-invalid'), null);
    assert.deepEqual(apiErrors, ['POST /v1/auth/base64-decode 422']);
    assertNoProblems();
    await close();
  });
});
