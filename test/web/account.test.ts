import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { browserSkipReason, startWebApp, type AppPage, type WebApp } from '../helpers/browser.js';

/** A fixed language and zone, so the exact reset time on hover can be compared with the API's. */
const CONTEXT = { locale: 'en-US', timezoneId: 'UTC' };

interface AccountBody {
  key_id: string;
  plan: string;
  areas: string[];
  credits: { limit: number | null; used: number; remaining: number | null; resets_at: string };
}

/** The value shown for a term of the account's facts, e.g. `fact(page, 'Plan')`. */
function fact(page: Page, term: string) {
  return page.locator(`dt:text-is("${term}") + dd`);
}

/** Violations that keep someone from using the page. */
async function seriousViolations(opened: AppPage) {
  return (await opened.axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

describe('account view in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  async function call(key: string, method: string, path: string, body?: unknown) {
    const res = await fetch(web.url + path, {
      method,
      headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    assert.equal(res.status, 200, `${method} ${path}`);
    return res.json() as Promise<unknown>;
  }

  it('a free key: credits used since sign-in, 60 per minute, the reset time and the key', async () => {
    const created = await fetch(`${web.url}/v1/admin/keys`, {
      method: 'POST',
      headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'browser', plan: 'free' }),
    });
    const { key, api_key: secret } = (await created.json()) as { key: { key_id: string }; api_key: string };
    const opened = await web.openSignedIn('/bins', { key: secret, context: CONTEXT });
    const { page, assertNoProblems, close } = opened;

    // Spent after sign-in: the view shows them only if it asks the API again.
    for (let i = 0; i < 3; i++) await call(secret, 'POST', '/v1/json-transform', { data: { a: i }, expression: 'a' });
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByText('3 of 1,000 used, 997 left', { exact: true }).waitFor();

    const account = (await call(secret, 'GET', '/v1/account')) as AccountBody;
    assert.deepEqual(account.credits.used, 3);
    const meter = page.getByRole('meter', { name: 'Credits used' });
    assert.deepEqual(
      [await meter.getAttribute('min'), await meter.getAttribute('max'), await meter.getAttribute('value')],
      ['0', '1000', '3'],
    );
    assert.equal(await fact(page, 'Plan').textContent(), 'free');
    assert.deepEqual(await fact(page, 'Areas').getByRole('listitem').allTextContents(), account.areas);
    assert.deepEqual(account.areas, ['webhook', 'devtools', 'auth', 'dns', 'email', 'geo']);
    assert.equal(await fact(page, 'Rate limit').textContent(), '60 requests per minute');
    assert.equal(await fact(page, 'Key ID').textContent(), key.key_id);
    assert.equal(await fact(page, 'Key name').textContent(), 'browser');

    // The reset: relative on screen, the exact instant of resets_at on hover and in `datetime`.
    const reset = fact(page, 'Credits reset').locator('time');
    assert.equal(await reset.getAttribute('datetime'), account.credits.resets_at);
    const exact = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });
    // ICU versions differ in the space before AM/PM (U+0020 or U+202F): compared as spaces.
    const spaces = (text: string | null) => text?.replace(/\s/g, ' ');
    assert.equal(spaces(await reset.getAttribute('title')), spaces(exact.format(Date.parse(account.credits.resets_at))));
    // The first of next month (UTC): on the month's last day that is hours away.
    assert.match((await reset.textContent()) ?? '', /^(in \d+ (second|minute|hour|day|week)s?|tomorrow|next week|next month)$/);
    assert.equal(await page.locator('section.account').getAttribute('aria-busy'), 'false');

    assert.deepEqual(await seriousViolations(opened), []);
    assertNoProblems();
    await close();
  });

  it('the unlimited bootstrap key: Unlimited credits and no rate limit, also on a 360px dark screen', async () => {
    const opened = await web.openSignedIn('/account', {
      context: { ...CONTEXT, viewport: { width: 360, height: 640 }, colorScheme: 'dark' },
    });
    const { page, assertNoProblems, close } = opened;
    await page.locator('section.account[aria-busy="false"]').waitFor();
    const account = (await call(web.apiKey, 'GET', '/v1/account')) as AccountBody;
    assert.equal(account.credits.limit, null);
    assert.equal(await fact(page, 'Plan').textContent(), 'unlimited');
    assert.equal(await fact(page, 'Credits').textContent(), `Unlimited · ${account.credits.used} used this month`);
    assert.equal(await page.getByRole('meter').count(), 0);
    assert.equal(await fact(page, 'Rate limit').textContent(), 'No rate limit');
    assert.equal(await fact(page, 'Key ID').textContent(), account.key_id);
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 360);
    assert.deepEqual(await seriousViolations(opened), []);
    assertNoProblems();
    await close();
  });
});
