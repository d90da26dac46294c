import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';

const WRONG_KEY = 'dk_' + 'x'.repeat(32);
const NAV_LINKS = ['Bins', 'Mocks', 'Tools', 'Account', 'API docs'];

/**
 * Hold back the page's GET /v1/account calls made with a key `which` picks until `release()`;
 * `asked` settles once the first of them is made.
 */
async function holdAccountChecks(page: Page, which: (key: string | undefined) => boolean) {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let ask = () => {};
  const asked = new Promise<void>((resolve) => (ask = resolve));
  await page.route('**/v1/account', async (route) => {
    if (which(route.request().headers()['x-api-key'])) {
      ask();
      await held;
    }
    await route.continue();
  });
  return { release, asked };
}

describe('sign-in in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  /** A new key on the free plan: its id and secret. */
  async function newKey(): Promise<{ id: string; secret: string }> {
    const created = await fetch(`${web.url}/v1/admin/keys`, {
      method: 'POST',
      headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'browser', plan: 'free' }),
    });
    const { key, api_key: secret } = (await created.json()) as { key: { key_id: string }; api_key: string };
    return { id: key.key_id, secret };
  }

  /** What the API itself says about a key, to compare with what the form shows. */
  async function accountDetail(key: string): Promise<string> {
    const res = await fetch(`${web.url}/v1/account`, { headers: { 'x-api-key': key } });
    assert.equal(res.status, 401);
    return ((await res.json()) as { detail: string }).detail;
  }

  it('a wrong key shows the API detail and stores nothing', async () => {
    const { page, apiErrors, assertNoProblems, close } = await web.openPage('/');
    await page.getByLabel('API key').fill(WRONG_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.equal(await alert.textContent(), await accountDetail(WRONG_KEY));
    assert.deepEqual(apiErrors, ['GET /v1/account 401']);
    assert.equal(await page.evaluate('localStorage.length'), 0);
    assert.equal(await page.getByRole('navigation').count(), 0);
    assertNoProblems();
    await close();
  });

  it('the right key signs in, opens the bins and shows the navigation', async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openPage('/');
    assert.deepEqual(await axeViolations(), []);
    await page.getByLabel('API key').fill(web.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.waitFor();
    assert.deepEqual(await nav.getByRole('link').allTextContents(), NAV_LINKS);
    assert.equal(await nav.getByRole('link', { name: 'API docs' }).getAttribute('href'), '/docs');
    assert.equal(await nav.getByRole('link', { name: 'Bins' }).getAttribute('aria-current'), 'page');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Bins');
    assert.equal(page.url(), `${web.url}/bins`);
    assert.equal(await page.title(), 'Bins · devutil');
    assert.equal(await page.evaluate("localStorage.getItem('devutil.apiKey')"), web.apiKey);
    assert.deepEqual(await axeViolations(), []);
    assertNoProblems();
    await close();
  });

  it('a /#key= link signs in, leaves no key in the address, and a reload keeps the session', async () => {
    const { page, assertNoProblems, close } = await web.openPage(`/#key=${web.apiKey}`);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    // The shell moves from / to /bins just after it shows.
    await page.waitForURL(`${web.url}/bins`);
    assert.equal(await page.evaluate('location.href'), `${web.url}/bins`);
    assert.equal(await page.evaluate('location.hash'), '');
    // The entry with the key was rewritten, not left behind: Back goes to the page before it.
    await page.goBack();
    assert.equal(page.url(), 'about:blank');
    await page.goForward();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    assert.equal(page.url(), `${web.url}/bins`);
    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Bins');
    assertNoProblems();
    await close();
  });

  it('a /#key= link opened in a tab already on the app (only the fragment changes) signs in and leaves no key', async () => {
    const { page, apiErrors, assertNoProblems, close } = await web.openPage(`/#key=${WRONG_KEY}`);
    await page.getByRole('alert').waitFor();
    assert.equal(await page.evaluate('location.hash'), '');
    // The same document: no reload happens, so the app must notice the new fragment itself.
    await page.evaluate(`location.hash = 'key=${web.apiKey}'`);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    assert.equal(await page.evaluate('location.hash'), '');
    assert.equal(page.url(), `${web.url}/bins`);
    assert.equal(await page.evaluate("localStorage.getItem('devutil.apiKey')"), web.apiKey);
    assert.deepEqual(apiErrors, ['GET /v1/account 401']);
    assertNoProblems();
    await close();
  });

  it('a refused /#key= link opened while signed in keeps the session and says why, until dismissed', async () => {
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn('/mocks');
    await page.evaluate(`location.hash = 'key=${WRONG_KEY}'`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.equal(
      await alert.locator('p').textContent(),
      `The key in the link was refused: ${await accountDetail(WRONG_KEY)} You are still signed in with your own key.`,
    );
    assert.equal(await page.evaluate('location.hash'), '');
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Mocks');
    assert.equal(await page.evaluate("localStorage.getItem('devutil.apiKey')"), web.apiKey);
    await page.getByRole('button', { name: 'Dismiss' }).click();
    assert.equal(await page.getByRole('alert').count(), 0);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    assert.deepEqual(apiErrors, ['GET /v1/account 401']);
    assertNoProblems();
    await close();
  });

  it('a refused /#key= link opened in a new tab signs in with the stored key and says why', async () => {
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn('/bins');
    await page.goto(`${web.url}/mocks#key=${WRONG_KEY}`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.equal(
      await alert.locator('p').textContent(),
      `The key in the link was refused: ${await accountDetail(WRONG_KEY)} You are still signed in with your own key.`,
    );
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Mocks');
    assert.equal(await page.evaluate("localStorage.getItem('devutil.apiKey')"), web.apiKey);
    assert.deepEqual(apiErrors, ['GET /v1/account 401']);
    assertNoProblems();
    await close();
  });

  it('Sign out while a link’s key is being checked stays signed out', async () => {
    const other = await newKey();
    const { page, assertNoProblems, close } = await web.openSignedIn('/bins');
    const { release } = await holdAccountChecks(page, () => true);
    await page.evaluate(`location.hash = 'key=${other.secret}'`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    release();
    await page.waitForTimeout(300);
    assert.equal(await page.getByLabel('API key').count(), 1);
    assert.equal(await page.evaluate("localStorage.getItem('devutil.apiKey')"), null);
    assertNoProblems();
    await close();
  });

  it('a /#key= link checked while the stored key still is wins, whichever answer comes last', async () => {
    const other = await newKey();
    const { page, assertNoProblems, close } = await web.openSignedIn('/account');
    // The stored key's check is held back until the link's has answered.
    const stored = await holdAccountChecks(page, (key) => key === web.apiKey);
    await page.reload();
    await stored.asked;
    await page.evaluate(`location.hash = 'key=${other.secret}'`);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    stored.release();
    await page.waitForFunction(`localStorage.getItem('devutil.apiKey') === ${JSON.stringify(other.secret)}`);
    await page.getByText(other.id, { exact: false }).first().waitFor();
    // The stored key's late answer changes nothing.
    await page.waitForTimeout(200);
    assert.equal(await page.evaluate("localStorage.getItem('devutil.apiKey')"), other.secret);
    await page.getByText(other.id, { exact: false }).first().waitFor();
    assertNoProblems();
    await close();
  });

  it('a key that could not be checked (429) is kept and can be tried again; a link key too', async () => {
    const limited = {
      status: 429,
      contentType: 'application/json',
      body: JSON.stringify({ detail: 'Rate limit of 60 requests per minute reached.', code: 'rate_limited' }),
    };
    const stored = await web.openSignedIn('/mocks');
    await stored.page.route('**/v1/account', (route) => route.fulfill(limited), { times: 1 });
    await stored.page.reload();
    await stored.page.getByRole('alert').waitFor();
    assert.equal(await stored.page.getByRole('alert').textContent(), 'Rate limit of 60 requests per minute reached.');
    assert.equal(await stored.page.evaluate("localStorage.getItem('devutil.apiKey')"), web.apiKey);
    await stored.page.getByRole('button', { name: 'Try again with the same key' }).click();
    await stored.page.getByRole('button', { name: 'Sign out' }).waitFor();
    assert.equal(await stored.page.getByRole('heading', { level: 1 }).textContent(), 'Mocks');
    stored.assertNoProblems();
    await stored.close();

    const linked = await web.openPage('/');
    await linked.page.route('**/v1/account', (route) => route.fulfill(limited), { times: 1 });
    await linked.page.evaluate(`location.hash = 'key=${web.apiKey}'`);
    await linked.page.getByRole('alert').waitFor();
    assert.equal(await linked.page.evaluate('location.hash'), '');
    await linked.page.getByRole('button', { name: 'Try again with the same key' }).click();
    await linked.page.getByRole('button', { name: 'Sign out' }).waitFor();
    assert.equal(await linked.page.evaluate("localStorage.getItem('devutil.apiKey')"), web.apiKey);
    linked.assertNoProblems();
    await linked.close();
  });

  it('a wrong key offers no retry', async () => {
    const { page, close } = await web.openPage('/');
    await page.getByLabel('API key').fill(WRONG_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Try again with the same key' }).count(), 0);
    await close();
  });

  it('Sign out forgets the key and returns to the form, also after a reload', async () => {
    const { page, assertNoProblems, close } = await web.openSignedIn('/mocks');
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Mocks');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Sign in' }).count(), 1);
    assert.equal(await page.evaluate("localStorage.getItem('devutil.apiKey')"), null);
    await page.reload();
    await page.getByLabel('API key').waitFor();
    assert.equal(await page.getByRole('navigation').count(), 0);
    assertNoProblems();
    await close();
  });

  it('a deep link to /account reloads to the same view, and links and Back move between views', async () => {
    const { page, assertNoProblems, close } = await web.openSignedIn('/account');
    const heading = page.getByRole('heading', { level: 1 });
    assert.equal(await heading.textContent(), 'Account');
    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    assert.equal(page.url(), `${web.url}/account`);
    assert.equal(await heading.textContent(), 'Account');
    assert.equal(await page.getByRole('link', { name: 'Account' }).getAttribute('aria-current'), 'page');

    await page.getByRole('link', { name: 'Tools' }).click();
    await page.getByRole('heading', { level: 1, name: 'Tools' }).waitFor();
    assert.equal(page.url(), `${web.url}/tools`);
    assert.equal(await page.title(), 'Tools · devutil');
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
    assert.equal(page.url(), `${web.url}/account`);
    assertNoProblems();
    await close();
  });

  it('a path of the app that names no view says so inside the shell', async () => {
    const { page, assertNoProblems, close } = await web.openSignedIn('/bins/bin_x/nope');
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Page not found');
    await page.getByRole('link', { name: 'bins', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Bins' }).waitFor();
    assertNoProblems();
    await close();
  });

  it('a stored key revoked since is dropped, and the form shows why', async () => {
    const { id, secret } = await newKey();
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn('/tools', { key: secret });
    const revoked = await fetch(`${web.url}/v1/admin/keys/${id}`, { method: 'DELETE', headers: { 'x-admin-token': ADMIN_TOKEN } });
    assert.equal(revoked.status, 200);
    await page.reload();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.equal(await alert.textContent(), await accountDetail(secret));
    assert.equal(await page.evaluate("localStorage.getItem('devutil.apiKey')"), null);
    assert.deepEqual(apiErrors, ['GET /v1/account 401']);
    assertNoProblems();
    await close();
  });

  it('the shell fits a 360px-wide screen and follows a dark system theme', async () => {
    const { page, assertNoProblems, close } = await web.openSignedIn('/bins', {
      context: { viewport: { width: 360, height: 640 }, colorScheme: 'dark' },
    });
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 360);
    for (const name of NAV_LINKS) assert.ok(await page.getByRole('link', { name }).isVisible(), name);
    assert.ok(await page.getByRole('button', { name: 'Sign out' }).isVisible());
    assert.equal(await page.evaluate('getComputedStyle(document.body).backgroundColor'), 'rgb(17, 20, 24)');
    await page.emulateMedia({ colorScheme: 'light' });
    assert.equal(await page.evaluate('getComputedStyle(document.body).backgroundColor'), 'rgb(247, 248, 250)');
    assertNoProblems();
    await close();
  });
});
