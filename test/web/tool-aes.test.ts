import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, startWebApp, type AppPage, type WebApp } from '../helpers/browser.js';
import { describedBy, eventually } from '../helpers/tool-pages.js';

const PLAINTEXT = 'meet me at the usual place ☕';
const OTHER_KEY = Buffer.alloc(32, 7).toString('base64');

async function noSeriousViolations(opened: AppPage, what: string): Promise<void> {
  const serious = (await opened.axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious, [], what);
}

describe('AES-256-GCM page in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  const result = (page: Page) => page.getByRole('region', { name: 'Result' });
  /** The rendered answer: each term with its value's text. */
  async function shownAnswer(page: Page): Promise<Record<string, string>> {
    const rows = result(page).locator('.tool-field-row');
    const shown: Record<string, string> = {};
    for (const row of await rows.all())
      shown[await row.locator('dt').innerText()] = (await row.locator('.tool-value').first().textContent())!;
    return shown;
  }
  /** What the API answers to `body`, with its status. */
  async function decryptByApi(body: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown> }> {
    const res = await fetch(`${web.url}/v1/auth/decrypt`, {
      method: 'POST',
      headers: { 'x-api-key': web.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }

  it('encrypt with a generated key; "Decrypt this" carries ciphertext, IV, tag and key, and gives the plaintext back', async () => {
    const opened = await web.openSignedIn('/tools/aes');
    const { page } = opened;
    await page.getByRole('heading', { level: 1, name: 'AES-256-GCM encryption' }).waitFor();
    await page.getByLabel('Plaintext', { exact: true }).fill(PLAINTEXT);
    await page.getByRole('radio', { name: 'Generate a new key' }).check();
    assert.equal(await page.getByLabel('Key', { exact: true }).count(), 0);
    await page.getByRole('button', { name: 'Run' }).click();
    await result(page).getByRole('button', { name: 'Decrypt this' }).waitFor();
    const encrypted = await shownAnswer(page);
    assert.deepEqual(Object.keys(encrypted), ['Ciphertext', 'IV', 'Tag', 'Key', 'Algorithm']);
    assert.equal(encrypted.Algorithm, 'aes-256-gcm');
    assert.equal(Buffer.from(encrypted.IV, 'base64').length, 12);
    assert.equal(Buffer.from(encrypted.Key, 'base64').length, 32);
    // The page shows what the API made: the API decrypts it back.
    const { ciphertext, iv, tag, key } = { ciphertext: encrypted.Ciphertext, iv: encrypted.IV, tag: encrypted.Tag, key: encrypted.Key };
    assert.deepEqual(await decryptByApi({ ciphertext, iv, tag, key }), {
      status: 200,
      json: { plaintext: PLAINTEXT, plaintext_encoding: 'utf8' },
    });
    await noSeriousViolations(opened, 'encrypt');

    await result(page).getByRole('button', { name: 'Decrypt this' }).click();
    assert.equal(await page.getByRole('tab', { name: 'Decrypt' }).getAttribute('aria-selected'), 'true');
    await eventually(() => page.getByLabel('Ciphertext', { exact: true }).inputValue(), ciphertext, 'ciphertext carried');
    assert.equal(await page.getByLabel('IV', { exact: true }).inputValue(), iv);
    assert.equal(await page.getByLabel('Tag', { exact: true }).inputValue(), tag);
    assert.equal(await page.getByLabel('Key', { exact: true }).inputValue(), key);
    assert.equal(await page.getByRole('radio', { name: /^Key/ }).isChecked(), true);
    await page.getByRole('button', { name: 'Run' }).click();
    await eventually(() => shownAnswer(page), { Plaintext: PLAINTEXT }, 'plaintext');
    await noSeriousViolations(opened, 'decrypt');
    opened.assertNoProblems();
    await opened.close();
  });

  it('with a passphrase, "Decrypt this" carries the passphrase, salt and scrypt parameters', async () => {
    const opened = await web.openSignedIn('/tools/aes');
    const { page } = opened;
    await page.getByLabel('Plaintext', { exact: true }).fill(PLAINTEXT);
    await page.getByRole('radio', { name: 'Passphrase (scrypt)' }).check();
    // The example's key waits aside: the API refuses a key with a passphrase.
    assert.equal(await page.getByLabel('Key', { exact: true }).count(), 0);
    await page.getByLabel('Passphrase', { exact: true }).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Run' }).click();
    await result(page).getByRole('button', { name: 'Decrypt this' }).waitFor();
    const encrypted = await shownAnswer(page);
    assert.deepEqual(Object.keys(encrypted), ['Ciphertext', 'IV', 'Tag', 'Salt', 'Key derivation', 'Algorithm']);
    assert.equal(encrypted['Key derivation'], 'scrypt (log_n 15, r 8, p 1)');

    await result(page).getByRole('button', { name: 'Decrypt this' }).click();
    await eventually(() => page.getByLabel('Salt', { exact: true }).inputValue(), encrypted.Salt, 'salt carried');
    assert.equal(await page.getByRole('radio', { name: 'Passphrase (scrypt)' }).isChecked(), true);
    assert.equal(await page.getByLabel('Passphrase', { exact: true }).inputValue(), 'correct horse battery staple');
    assert.equal(await page.getByLabel('Key', { exact: true }).count(), 0);
    const kdfParams = page.getByRole('textbox', { name: 'scrypt parameters' }).and(page.locator('[contenteditable]'));
    await kdfParams.waitFor();
    assert.deepEqual(JSON.parse((await kdfParams.textContent())!), { log_n: 15, r: 8, p: 1 });
    await page.getByRole('button', { name: 'Run' }).click();
    await eventually(() => shownAnswer(page), { Plaintext: PLAINTEXT }, 'plaintext');

    // A wrong passphrase: decryption_failed, said next to the passphrase.
    await page.getByLabel('Passphrase', { exact: true }).fill('incorrect horse');
    await page.getByRole('button', { name: 'Run' }).click();
    const passphrase = page.getByLabel('Passphrase', { exact: true });
    await eventually(() => passphrase.getAttribute('aria-invalid'), 'true', 'passphrase invalid');
    const refusal = await decryptByApi({
      ciphertext: encrypted.Ciphertext,
      iv: encrypted.IV,
      tag: encrypted.Tag,
      passphrase: 'incorrect horse',
      salt: encrypted.Salt,
    });
    assert.equal(refusal.status, 422);
    assert.equal(refusal.json.code, 'decryption_failed');
    assert.equal((await describedBy(page, passphrase))[0], refusal.json.detail);
    opened.assertNoProblems();
    await opened.close();
  });

  it('a wrong key shows decryption_failed in words next to Key; a malformed key next to Key on Encrypt', async () => {
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn('/tools/aes');
    await page.getByRole('tab', { name: 'Decrypt' }).click();
    const key = page.getByLabel('Key', { exact: true });
    await key.fill(OTHER_KEY);
    await page.getByRole('button', { name: 'Run' }).click();
    const refusal = await decryptByApi({
      ciphertext: 'pWb3j0bS2c5tQ0sV8Q4=',
      iv: 'r0XW3y2lXxq0bE8m',
      tag: 'u2Cw0hY4Nq1c7Zl3yQmGfA==',
      key: OTHER_KEY,
    });
    assert.deepEqual(refusal, {
      status: 422,
      json: { detail: 'Decryption failed: wrong key or tampered data.', code: 'decryption_failed' },
    });
    await eventually(() => key.getAttribute('aria-invalid'), 'true', 'key invalid');
    assert.deepEqual(await describedBy(page, key), [refusal.json.detail, await page.locator('[id="tool-decrypt-key-hint"]').innerText()]);
    assert.equal(await page.getByLabel('Ciphertext', { exact: true }).getAttribute('aria-invalid'), null);
    assert.equal(await page.getByRole('alert').count(), 0);
    await result(page)
      .getByText(/^No plaintext\. AES-GCM only tells that the tag does not match/)
      .waitFor();

    await page.getByRole('tab', { name: 'Encrypt' }).click();
    const encryptKey = page.getByLabel('Key', { exact: true });
    await encryptKey.fill('short');
    await page.getByRole('button', { name: 'Run' }).click();
    await eventually(() => encryptKey.getAttribute('aria-invalid'), 'true', 'encrypt key invalid');
    const malformed = await fetch(`${web.url}/v1/auth/encrypt`, {
      method: 'POST',
      headers: { 'x-api-key': web.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ plaintext: 'attack at dawn', key: 'short' }),
    });
    assert.equal(malformed.status, 422);
    assert.equal((await describedBy(page, encryptKey))[0], ((await malformed.json()) as { detail: string }).detail);
    // Emptied and run again: what is wrong now replaces the earlier answer, and nothing is sent.
    await encryptKey.fill('');
    await page.getByRole('button', { name: 'Run' }).click();
    await eventually(
      async () => (await describedBy(page, encryptKey))[0],
      'Enter the 32-byte key, or choose “Generate a new key”.',
      'empty key',
    );
    assert.deepEqual(apiErrors, ['POST /v1/auth/decrypt 422', 'POST /v1/auth/encrypt 422']);
    assertNoProblems();
    await close();
  });
});
