import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';
import { eventually } from '../helpers/tool-pages.js';
import { assertNothingRan, IMG, LINK, SCRIPT, SVG, watchDialogs } from '../helpers/xss-corpus.js';

// A shared link fills a tool page with inputs someone else chose: every field of every operation is
// filled with markup through the link's fragment, and the page must show it (and the API's answers
// and refusals that echo it) as text only.

const MARKUP = `${SCRIPT}${IMG}${SVG}`;
/** For a password, whose strength estimate takes seconds on long text full of symbols. */
const SHORT_MARKUP = '<img src=x onerror=alert(1)>';
/** A JWT whose header and claims are markup (its signature does not matter to decoding). */
const TOKEN = [
  { alg: 'HS256', typ: SCRIPT },
  { sub: MARKUP, [IMG]: LINK, exp: 1 },
]
  .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
  .concat('c2ln')
  .join('.');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** `value` with every string in it made markup, but for the names of types (so a schema stays one). */
function markupJson(value: Json, key = ''): Json {
  if (typeof value === 'string') return key === 'type' || key === '$schema' ? value : MARKUP;
  if (Array.isArray(value)) return value.map((v) => markupJson(v));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries([...Object.entries(value).map(([k, v]) => [k, markupJson(v, k)]), [SCRIPT, LINK]]);
  return value;
}

/**
 * An input's value as a hostile link would set it: JSON keeps its shape with markup in it, numbers and
 * short names (enums, locales, zones) stay so that the call is made, any other text becomes markup.
 */
function hostileValue(name: string, value: string | boolean): string | boolean {
  if (typeof value === 'boolean') return value;
  if (name === 'token') return TOKEN;
  if (name === 'password') return SHORT_MARKUP;
  // A pattern that matches the markup, and a query that picks it out of the data, so that it reaches the results.
  if (name === 'pattern') return '<[^>]+>';
  if (name === 'expression') return value;
  if (/^\s*[[{]/.test(value)) {
    try {
      return JSON.stringify(markupJson(JSON.parse(value) as Json), null, 2);
    } catch {
      return MARKUP;
    }
  }
  return /^[\w.+:/-]{0,32}$/.test(value) ? value : MARKUP;
}

interface Shared {
  o: string;
  i: Record<string, string | boolean>;
}

/** A link's state with JSON inputs parsed, so that a page that lays JSON out again still compares equal. */
function comparable(state: Shared): Shared {
  const parse = (v: string | boolean) => {
    if (typeof v !== 'string' || !/^\s*[[{]/.test(v)) return v;
    try {
      return JSON.stringify(JSON.parse(v));
    } catch {
      return v;
    }
  };
  return { o: state.o, i: Object.fromEntries(Object.entries(state.i).map(([k, v]) => [k, parse(v)])) };
}

/** Wait until the tool page's own renderer has replaced its "Loading…" placeholder. */
const rendererLoaded = (page: Page) => page.locator('.tool-panel').getByText('Loading…', { exact: true }).waitFor({ state: 'detached' });

const decodeFragment = (url: string) => JSON.parse(Buffer.from(new URL(url).hash.slice(3), 'base64url').toString('utf8')) as Shared;
const encodeFragment = (state: Shared) => `#s=${Buffer.from(JSON.stringify(state)).toString('base64url')}`;

/** The page's own link for what it shows now (with its secrets), made with "Share". */
async function shareLink(page: Page): Promise<Shared> {
  const before = page.url();
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const withSecrets = page.getByRole('button', { name: 'Share with secrets' });
  await eventually(async () => page.url() !== before || (await withSecrets.count()) > 0, true, 'shared or warned');
  if ((await withSecrets.count()) > 0) await withSecrets.click();
  await eventually(async () => page.url() !== before && new URL(page.url()).hash.startsWith('#s='), true, 'fragment');
  return decodeFragment(page.url());
}

describe('shared links of markup never run in the tool pages (XSS corpus)', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  it('every operation of every tool page, opened from a link whose inputs are markup, shows them as text and restores them', async () => {
    const opened = await web.openSignedIn('/tools');
    const { page } = opened;
    const dialogs = watchDialogs(page);
    const main = page.getByRole('main');
    await main.getByRole('link').first().waitFor();
    const names = await main.getByRole('listitem').getByRole('link').allInnerTexts();

    // The page's own links, one per operation, made by moving from page to page inside the app.
    const links: { name: string; path: string; state: Shared }[] = [];
    for (const name of names) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tools' }).click();
      await main.getByRole('link', { name, exact: true }).click();
      await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
      await rendererLoaded(page);
      const tabs = page.getByRole('tablist', { name: 'Operations' }).getByRole('tab');
      const operations = Math.max(1, await tabs.count());
      for (let n = 0; n < operations; n++) {
        if (operations > 1) await tabs.nth(n).click();
        const state = await shareLink(page);
        const inputs = Object.fromEntries(Object.entries(state.i).map(([k, v]) => [k, hostileValue(k, v)]));
        links.push({ name, path: new URL(page.url()).pathname, state: { o: state.o, i: inputs } });
      }
    }
    assert.ok(links.length >= 30, `${links.length} operations`);

    const shown: string[] = [];
    for (const { name, path, state } of links) {
      const what = `${path} ${state.o}`;
      // A fresh load, as when the link is opened (not a change of fragment in the page).
      await page.goto('about:blank');
      await page.goto(web.url + path + encodeFragment(state));
      await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
      await rendererLoaded(page);
      const run = page.getByRole('button', { name: 'Run', exact: true });
      if ((await run.count()) > 0 && (await run.isEnabled())) await run.click();
      await eventually(() => page.locator('[aria-busy="true"]').count(), 0, `${what}: settled`);
      for (const summary of ['Raw JSON', 'curl']) await page.locator('summary').getByText(summary, { exact: true }).click();
      if ((await main.innerText()).includes('onerror=')) shown.push(what);
      await assertNothingRan(opened, dialogs, web.url);
      // The link restored the page: shared again, it holds the same inputs.
      await page.evaluate('history.replaceState(history.state, "", location.pathname)');
      assert.deepEqual(comparable(await shareLink(page)), comparable(state), `${what}: restored`);
    }
    // The links reached the results and the API's refusals, not only the input fields.
    assert.ok(shown.length >= 12, `markup shown as text on ${shown.length} pages: ${shown.join(', ')}`);
    await opened.close();
  });
});
