import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';
import { assertAccessible, describedBy, eventually, refusalDetail } from '../helpers/tool-pages.js';

interface Setup {
  secret: string;
  otpauth_uri: string;
  qr_code: string;
  digits: number;
  period: number;
  algorithm: string;
}

/** The RFC 6238 test secret ("12345678901234567890") in base32, and its SHA1 8-digit code at T = 59. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

/** The seconds the current code has left, from its hint. */
async function secondsLeft(current: Locator): Promise<number> {
  const hint = await current.locator('.hint').innerText();
  return Number(/^(\d+) seconds? left/.exec(hint)?.[1] ?? 0);
}

describe('TOTP page in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  it('generates a secret with its QR code, shows a live code the API verifies, and carries it to Verify', async () => {
    const opened = await web.openSignedIn('/tools/totp');
    const { page, assertNoProblems, close } = opened;
    await page.getByRole('heading', { level: 1, name: 'TOTP' }).waitFor();
    await page.getByLabel('Issuer').fill('ACME Co');
    await page.getByLabel('Account').fill('ana@example.com');
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/auth/totp-generate');
    await page.getByRole('button', { name: 'Run' }).click();
    const response = await answered;
    assert.deepEqual(Object.fromEntries(new URL(response.url()).searchParams), { issuer: 'ACME Co', account: 'ana@example.com' });
    const setup = (await response.json()) as Setup;

    const result = page.getByRole('region', { name: 'Result' });
    const qr = result.getByRole('img', { name: 'QR code of the otpauth URI for ana@example.com (ACME Co)' });
    await qr.waitFor();
    assert.match(setup.qr_code, /^data:image\/png;base64,/);
    assert.equal(await qr.getAttribute('src'), setup.qr_code);
    assert.equal(await qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth > 0), true);
    assert.deepEqual(await result.locator('dd code.tool-value').allTextContents(), [setup.secret, setup.otpauth_uri]);
    assert.equal(await result.getByRole('definition').nth(2).innerText(), '6 digits, a new code every 30 seconds, HMAC-SHA1');

    // The code shown is one the API takes as valid now.
    const current = result.getByRole('region', { name: 'Current code' });
    await current.locator('.totp-code').waitFor();
    // Far enough from the step's end that the code shown is still the current one when the API checks it.
    await eventually(async () => (await secondsLeft(current)) >= 10, true, 'a fresh step', 30_000);
    const code = (await current.locator('.totp-code').innerText()).replace(' ', '');
    assert.match(code, /^\d{6}$/);
    assert.deepEqual(await web.api('POST', '/v1/auth/totp-verify', { secret: setup.secret, code, window: 0 }), { valid: true, delta: 0 });

    // The ring counts down: its dash offset changes each second.
    const ring = current.locator('circle.totp-ring-left');
    // The part hidden is the part of the step gone (read again if a second ticks between the two reads).
    await eventually(
      async () => Number(await ring.getAttribute('stroke-dashoffset')) === (100 * (30 - (await secondsLeft(current)))) / 30,
      true,
      'ring matches the seconds left',
    );
    const offset = await ring.getAttribute('stroke-dashoffset');
    await eventually(async () => (await ring.getAttribute('stroke-dashoffset')) !== offset, true, 'ring moved');

    await current.getByRole('button', { name: 'Verify this code' }).click();
    assert.equal(await page.getByRole('tab', { name: 'Verify' }).getAttribute('aria-selected'), 'true');
    assert.equal(await page.getByLabel('Secret').inputValue(), setup.secret);
    assert.equal(await page.getByLabel('Code', { exact: true }).inputValue(), code);
    const verdict = page.getByRole('region', { name: 'Result' }).locator('.answer-verdict');
    await eventually(() => verdict.textContent(), 'Valid: it is the code of the current step.', 'carried code valid');
    await assertAccessible(opened, 'totp verify');
    assertNoProblems();
    await close();
  });

  it('verifies a code within the window, said in words as the API answers', async () => {
    const opened = await web.openSignedIn('/tools/totp');
    const { page, assertNoProblems, close } = opened;
    await page.getByRole('tab', { name: 'Verify' }).click();
    const verdict = page.getByRole('region', { name: 'Result' }).locator('.answer-verdict');
    // The form starts as an authenticator app's code is checked: 6 digits, at this moment.
    assert.equal(await page.getByLabel('Digits').inputValue(), '6');
    assert.equal(await page.getByLabel('Timestamp').inputValue(), '');
    await eventually(async () => (await verdict.textContent())?.endsWith(' the current step.'), true, 'example');
    await page.getByRole('button', { name: 'Use this code' }).click();
    await eventually(async () => (await verdict.textContent())?.startsWith('Valid: it is the code of '), true, 'the current code');

    // The RFC's code at T = 59.
    const example = { secret: RFC_SECRET, code: '94287082', digits: 8, period: 30, algorithm: 'SHA1', window: 1, timestamp: 59 };
    await page.getByLabel('Secret').fill(RFC_SECRET);
    await page.getByLabel('Code', { exact: true }).fill('94287082');
    await page.getByLabel('Digits').selectOption('8');
    await page.getByLabel('Timestamp').fill('59');
    assert.deepEqual(await web.api('POST', '/v1/auth/totp-verify', example), { valid: true, delta: 0 });
    await eventually(() => verdict.textContent(), 'Valid: it is the code of the step at 1970-01-01T00:00:59Z.', 'RFC example');
    const codeHere = page.getByRole('region', { name: 'Code at this time' }).locator('.totp-code');
    assert.equal(await codeHere.innerText(), '9428 7082');

    // One step later the same code is the previous step's: valid with a window of 1, not with 0.
    const timestamp = page.getByLabel('Timestamp');
    await timestamp.fill('89');
    assert.deepEqual(await web.api('POST', '/v1/auth/totp-verify', { ...example, timestamp: 89 }), { valid: true, delta: -1 });
    await eventually(
      () => verdict.textContent(),
      'Valid: it is the code of 1 step (30 seconds) before the step at 1970-01-01T00:01:29Z, within the window of 1.',
      'delta -1',
    );
    await page.getByLabel('Window').fill('0');
    assert.deepEqual(await web.api('POST', '/v1/auth/totp-verify', { ...example, timestamp: 89, window: 0 }), {
      valid: false,
      delta: null,
    });
    await eventually(() => verdict.textContent(), 'Not valid: it is not the code of the step at 1970-01-01T00:01:29Z.', 'window 0');
    // A code of another length is said to be one.
    await page.getByLabel('Code', { exact: true }).fill('9428 708');
    await eventually(() => verdict.textContent(), 'Not valid: the code has 7 digits, and these codes have 8.', 'short code');

    // The code of that step, computed in the page, is the one the API takes there.
    const stepCode = (await codeHere.innerText()).replace(' ', '');
    assert.deepEqual(await web.api('POST', '/v1/auth/totp-verify', { ...example, code: stepCode, timestamp: 89, window: 0 }), {
      valid: true,
      delta: 0,
    });
    await page.getByRole('button', { name: 'Use this code' }).click();
    await eventually(() => verdict.textContent(), 'Valid: it is the code of the step at 1970-01-01T00:01:29Z.', 'used code');
    await assertAccessible(opened, 'totp verify');
    assertNoProblems();
    await close();
  });

  it("a bad issuer or secret shows the API's detail next to that field", async () => {
    const opened = await web.openSignedIn('/tools/totp');
    const { page, apiErrors, assertNoProblems, close } = opened;
    const issuer = page.getByLabel('Issuer');
    await issuer.fill('ACME:Co');
    await page.getByRole('button', { name: 'Run' }).click();
    const res = await fetch(`${web.url}/v1/auth/totp-generate?issuer=ACME%3ACo`, { headers: { 'x-api-key': web.apiKey } });
    assert.equal(res.status, 422);
    const { detail } = (await res.json()) as { detail: string };
    await eventually(() => issuer.getAttribute('aria-invalid'), 'true', 'issuer invalid');
    assert.deepEqual(await describedBy(page, issuer), [detail, 'Shown by authenticator apps.']);
    assert.equal(await page.getByLabel('Account').getAttribute('aria-invalid'), null);
    await assertAccessible(opened, 'totp generate error');

    await page.getByRole('tab', { name: 'Verify' }).click();
    const secret = page.getByLabel('Secret');
    await secret.fill('not base32!');
    const secretDetail = await refusalDetail(web, '/v1/auth/totp-verify', {
      secret: 'not base32!',
      code: '123456',
      digits: 6,
      period: 30,
      algorithm: 'SHA1',
      window: 1,
    });
    await eventually(() => secret.getAttribute('aria-invalid'), 'true', 'secret invalid');
    assert.deepEqual(await describedBy(page, secret), [secretDetail, 'Base32, case-insensitive, spaces and padding optional.']);
    // The refusal ends the update: the result is not left "Updating…".
    await eventually(
      () => page.getByRole('region', { name: 'Result' }).getAttribute('aria-busy'),
      null,
      'verify not busy after the refusal',
    );
    assert.equal(
      await page.getByRole('region', { name: 'Current code' }).locator('.hint').innerText(),
      'The secret is not base32, so it gives no code.',
    );
    assert.deepEqual(apiErrors, ['GET /v1/auth/totp-generate 422', 'POST /v1/auth/totp-verify 422']);
    assertNoProblems();
    await close();
  });
});
