import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';
import { assertAccessible, describedBy, eventually, refusalDetail } from '../helpers/tool-pages.js';

interface Strength {
  score: number;
  strength: string;
  crack_time_display: string;
  feedback: { warning: string | null; suggestions: string[] };
}

describe('Passwords page in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  it("hashes with the algorithm's own parameters, and a hash carried to Verify is valid only for its password", async () => {
    const opened = await web.openSignedIn('/tools/passwords');
    const { page, assertNoProblems, close } = opened;
    await page.getByRole('heading', { level: 1, name: 'Passwords' }).waitFor();
    const algorithm = page.getByLabel('Algorithm');
    await algorithm.getByRole('option').first().waitFor({ state: 'attached' });
    assert.deepEqual(await algorithm.getByRole('option').allInnerTexts(), ['argon2id', 'bcrypt', 'scrypt']);
    const more = page.locator('.tool-more');
    await page.getByText('More options: argon2id parameters').click();
    assert.deepEqual(await more.locator('label').allInnerTexts(), ['Memory (KiB)', 'Iterations', 'Parallelism']);
    await page.getByLabel('Memory (KiB)').fill('1024');
    await page.getByLabel('Iterations').fill('1');
    // Another algorithm shows its own options only and leaves the others out of the request.
    await algorithm.selectOption('scrypt');
    assert.deepEqual(await more.locator('label').allInnerTexts(), ['Log2 N (cost)', 'Block size r', 'Parallelism p']);
    await algorithm.selectOption('argon2id');
    assert.equal(await page.getByLabel('Memory (KiB)').inputValue(), '');
    await page.getByLabel('Memory (KiB)').fill('1024');
    await page.getByLabel('Iterations').fill('1');
    await page.getByLabel('Password', { exact: true }).fill('correct horse');

    // A slow answer, so that the progress shows long enough to be seen.
    await page.route('**/v1/auth/hash-password', async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.fallback();
    });
    const sent = page.waitForRequest((r) => new URL(r.url()).pathname === '/v1/auth/hash-password');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByRole('progressbar', { name: 'Running' }).waitFor();
    assert.deepEqual((await sent).postDataJSON(), { password: 'correct horse', memory_kib: 1024, iterations: 1 });
    const result = page.getByRole('region', { name: 'Result' });
    const values = result.locator('dd > .tool-string > .tool-value, dd > .tool-value');
    await eventually(async () => (await values.count()) === 2, true, 'hash answer');
    const [hash, answered] = await values.allTextContents();
    assert.equal(answered, 'argon2id');
    assert.match(hash, /^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    assert.deepEqual(await web.api('POST', '/v1/auth/verify-password', { password: 'correct horse', hash }), {
      valid: true,
      algorithm: 'argon2id',
    });

    await result.getByRole('button', { name: 'Verify a password against this hash' }).click();
    assert.equal(await page.getByRole('tab', { name: 'Verify' }).getAttribute('aria-selected'), 'true');
    assert.equal(await page.getByLabel('Hash', { exact: true }).inputValue(), hash);
    const verdict = page.getByRole('region', { name: 'Result' }).locator('.answer-verdict');
    await page.getByRole('button', { name: 'Run' }).click();
    await eventually(() => verdict.textContent(), 'Valid: the password matches this argon2id hash.', 'valid');
    await page.getByLabel('Password', { exact: true }).fill('correct horse!');
    assert.deepEqual(await web.api('POST', '/v1/auth/verify-password', { password: 'correct horse!', hash }), {
      valid: false,
      algorithm: 'argon2id',
    });
    await page.getByRole('button', { name: 'Run' }).click();
    await eventually(() => verdict.textContent(), 'Not valid: the password does not match this argon2id hash.', 'not valid');
    await assertAccessible(opened, 'passwords verify');
    assertNoProblems();
    await close();
  });

  it("the strength meter shows the API's score, feedback and crack time as you type", async () => {
    const opened = await web.openSignedIn('/tools/passwords');
    const { page, assertNoProblems, close } = opened;
    await page.getByRole('tab', { name: 'Strength' }).click();
    const meter = page.getByRole('meter', { name: 'Strength' });
    const password = page.getByLabel('Password', { exact: true });
    const words = page.getByLabel('Words about the user');
    assert.equal(await words.inputValue(), 'alice\nalice@example.com');
    const shown = async () => ({
      score: Number(await meter.getAttribute('value')),
      text: await page.locator('.passwords-meter-text').innerText(),
      warning: await page.locator('.passwords-warning').innerText(),
      suggestions: await page.locator('.passwords-suggestions li').allInnerTexts(),
    });
    const expected = (s: Strength, words: string) => ({
      score: s.score,
      text: `${words}: ${s.score} of 4. Cracked in ${s.crack_time_display} by an offline attack on a slow hash (10,000 guesses a second).`,
      warning: s.feedback.warning ?? 'None.',
      suggestions: s.feedback.suggestions,
    });
    const example = await web.api<Strength>('POST', '/v1/auth/password-strength', {
      password: 'alice2024!',
      user_inputs: ['alice', 'alice@example.com'],
    });
    await eventually(shown, expected(example, 'Fair'), 'example');

    await password.fill('');
    await password.pressSequentially('Tr0ub4dour&3 zebra', { delay: 40 });
    await words.fill('zebra\n\nana');
    const strong = await web.api<Strength>('POST', '/v1/auth/password-strength', {
      password: 'Tr0ub4dour&3 zebra',
      user_inputs: ['zebra', 'ana'],
    });
    const names = ['Very weak', 'Weak', 'Fair', 'Strong', 'Very strong'];
    await eventually(shown, expected(strong, names[strong.score]), 'typed');
    await assertAccessible(opened, 'passwords strength');
    assertNoProblems();
    await close();
  });

  it('the generator follows its options, each password with its copy button and the exact entropy', async () => {
    const opened = await web.openSignedIn('/tools/passwords');
    const { page, assertNoProblems, close } = opened;
    await page.getByRole('tab', { name: 'Generate' }).click();
    const list = page.getByRole('region', { name: 'Result' }).getByRole('listitem');
    await eventually(() => list.count(), 1, 'first password');
    await page.getByLabel('Length').fill('24');
    await page.getByLabel('Count').fill('3');
    await page.getByLabel('Symbols').uncheck();
    await page.getByLabel('Exclude ambiguous').check();
    const query = { length: '24', count: '3', symbols: 'false', exclude_ambiguous: 'true' };
    const answer = await web.api<{ passwords: string[]; entropy_bits: number }>(
      'GET',
      `/v1/auth/generate-password?${new URLSearchParams(query)}`,
    );
    await eventually(() => list.count(), 3, 'three passwords');
    await eventually(
      async () => (await list.locator('code').allTextContents()).every((p) => /^[A-HJ-NP-Za-km-np-z2-9]{24}$/.test(p)),
      true,
      'options followed',
    );
    assert.deepEqual(await list.getByRole('button').allInnerTexts(), ['Copy password 1', 'Copy password 2', 'Copy password 3']);
    await page.getByText(`${answer.entropy_bits} bits of entropy per password`).waitFor();
    const first = await list.first().locator('code').textContent();
    await page.getByRole('button', { name: 'Generate again' }).click();
    await eventually(async () => (await list.first().locator('code').textContent()) !== first, true, 'new passwords');
    await assertAccessible(opened, 'passwords generate');
    assertNoProblems();
    await close();
  });

  it("a password bcrypt cannot take shows the API's detail next to the password", async () => {
    const opened = await web.openSignedIn('/tools/passwords');
    const { page, apiErrors, assertNoProblems, close } = opened;
    const password = page.getByLabel('Password', { exact: true });
    const long = 'é'.repeat(40);
    await password.fill(long);
    await page.getByLabel('Algorithm').selectOption('bcrypt');
    await page.getByRole('button', { name: 'Run' }).click();
    const detail = await refusalDetail(web, '/v1/auth/hash-password', { password: long, algorithm: 'bcrypt' });
    await eventually(() => password.getAttribute('aria-invalid'), 'true', 'password invalid');
    assert.deepEqual(await describedBy(page, password), [detail, 'bcrypt: at most 72 bytes in UTF-8 (longer is a 422, never truncated).']);
    assert.equal(await page.getByRole('alert').count(), 0);
    await assertAccessible(opened, 'passwords error');
    assert.deepEqual(apiErrors, ['POST /v1/auth/hash-password 422']);
    assertNoProblems();
    await close();
  });
});
