import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';
import { apiAnswer, assertAccessible, describedBy, eventually, refusalDetail } from '../helpers/tool-pages.js';

describe('HMAC page in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  it('signs as you type with the algorithm picked, and a signature verifies, said in words', async () => {
    const opened = await web.openSignedIn('/tools/hmac');
    const { page, assertNoProblems, close } = opened;
    await page.getByRole('heading', { level: 1, name: 'HMAC' }).waitFor();
    const result = page.getByRole('region', { name: 'Result' });
    const signature = result.locator('dd code.tool-value');
    const example = await web.api<{ signature: string }>('POST', '/v1/auth/hmac', {
      data: 'what do ya want for nothing?',
      key: 'Jefe',
      algorithm: 'sha256',
    });
    await eventually(() => signature.textContent(), example.signature, 'example');

    // While a changed message is being signed, the old signature cannot be carried to Verify.
    const carry = result.getByRole('button', { name: 'Verify this signature' });
    assert.equal(await carry.isEnabled(), true);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/v1/auth/hmac', async (route) => {
      await held;
      await route.fallback();
    });
    await page.getByLabel('Message', { exact: true }).pressSequentially('!!');
    await eventually(() => carry.isDisabled(), true, 'not carried while signing');
    release();
    await page.unroute('**/v1/auth/hmac');
    const changed = await web.api<{ signature: string }>('POST', '/v1/auth/hmac', {
      data: 'what do ya want for nothing?!!',
      key: 'Jefe',
      algorithm: 'sha256',
    });
    await eventually(() => signature.textContent(), changed.signature, 'the changed message signed');
    assert.equal(await carry.isEnabled(), true);

    const algorithm = page.getByLabel('Algorithm');
    assert.deepEqual(await algorithm.getByRole('option').allInnerTexts(), ['sha256', 'sha384', 'sha512']);
    await page.getByLabel('Message', { exact: true }).fill('{"event":"push"}');
    await page.getByLabel('Key', { exact: true }).fill('s3cr3t');
    await algorithm.selectOption('sha512');
    await page.getByLabel('Signature encoding').selectOption('base64');
    const body = { data: '{"event":"push"}', key: 's3cr3t', algorithm: 'sha512', encoding: 'base64' };
    const signed = await web.api<{ signature: string }>('POST', '/v1/auth/hmac', body);
    await eventually(() => signature.textContent(), signed.signature, 'signed');
    assert.equal(await result.getByRole('definition').nth(1).innerText(), 'HMAC-SHA512, written in base64');

    // Carried to Verify: valid, as the API says; one character off: not valid.
    await result.getByRole('button', { name: 'Verify this signature' }).click();
    assert.equal(await page.getByRole('tab', { name: 'Verify' }).getAttribute('aria-selected'), 'true');
    const field = page.getByLabel('Signature', { exact: true });
    assert.equal(await field.inputValue(), signed.signature);
    assert.equal(await page.getByLabel('Algorithm').inputValue(), 'sha512');
    const verdict = page.getByRole('region', { name: 'Result' }).locator('.answer-verdict');
    assert.deepEqual(await web.api('POST', '/v1/auth/hmac-verify', { ...body, signature: signed.signature }), {
      valid: true,
      algorithm: 'sha512',
    });
    await eventually(() => verdict.textContent(), 'Valid: the signature is the HMAC-SHA512 of the message with this key.', 'valid');
    const tampered = (signed.signature.startsWith('A') ? 'B' : 'A') + signed.signature.slice(1);
    await field.fill(tampered);
    assert.deepEqual((await apiAnswer(web, 'POST', '/v1/auth/hmac-verify', { ...body, signature: tampered })).body, {
      valid: false,
      algorithm: 'sha512',
    });
    await eventually(
      () => verdict.textContent(),
      'Not valid: the signature is not the HMAC-SHA512 of the message with this key.',
      'not valid',
    );
    await assertAccessible(opened, 'hmac verify');
    assertNoProblems();
    await close();
  });

  it("a key that is not the hex it claims to be shows the API's detail next to the key", async () => {
    const opened = await web.openSignedIn('/tools/hmac');
    const { page, apiErrors, assertNoProblems, close } = opened;
    const key = page.getByLabel('Key', { exact: true });
    await page.getByRole('region', { name: 'Result' }).locator('dd code.tool-value').waitFor();
    await key.fill('xyz');
    await page.getByLabel('Key encoding').selectOption('hex');
    const detail = await refusalDetail(web, '/v1/auth/hmac', {
      data: 'what do ya want for nothing?',
      key: 'xyz',
      key_encoding: 'hex',
      algorithm: 'sha256',
    });
    await eventually(() => key.getAttribute('aria-invalid'), 'true', 'key invalid');
    assert.deepEqual(await describedBy(page, key), [detail, 'HMAC key (UTF-8 unless key_encoding).']);
    assert.equal(await page.getByLabel('Message', { exact: true }).getAttribute('aria-invalid'), null);
    await eventually(() => page.getByRole('region', { name: 'Result' }).getAttribute('aria-busy'), null, 'not busy after the refusal');
    await assertAccessible(opened, 'hmac error');
    await key.fill('6b6579');
    await eventually(() => key.getAttribute('aria-invalid'), null, 'key fixed');
    assert.deepEqual(apiErrors, ['POST /v1/auth/hmac 422']);
    assertNoProblems();
    await close();
  });
});
