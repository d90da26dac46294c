// What the browser tests of the tool pages check again and again: a value that settles after a
// debounced call, the texts an input's aria-describedby names, the API's own answer or refusal for
// the same request, and the serious accessibility violations.
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import type { AppPage, WebApp } from './browser.js';

/**
 * Poll `read` until it returns `expected` (deep-equal) or `timeoutMs` pass, then assert.
 *
 * @example
 *   await eventually(() => field.inputValue(), 'aGk=', 'base64 side');
 */
export async function eventually<T>(read: () => Promise<T>, expected: T, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (Date.now() < deadline) {
    try {
      assert.deepEqual(last, expected);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
      last = await read();
    }
  }
  assert.deepEqual(last, expected, what);
}

/** The texts of the elements an input's aria-describedby names (its error first, then its hint). */
export async function describedBy(page: Page, field: Locator): Promise<string[]> {
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter(Boolean);
  return Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).innerText()));
}

/** What the API answers to a request, refusals included: the status and the JSON body. */
export async function apiAnswer<T = Record<string, unknown>>(web: WebApp, method: string, path: string, body?: unknown) {
  const res = await fetch(web.url + path, {
    method,
    headers: { 'x-api-key': web.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** The API's `detail` for a request it refuses with `status`. */
export async function refusalDetail(web: WebApp, path: string, body: unknown, status = 422): Promise<string> {
  const answer = await apiAnswer<{ detail: string }>(web, 'POST', path, body);
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  return answer.body.detail;
}

/** Fail on any serious or critical axe-core violation in the page as it is now. */
export async function assertAccessible(opened: AppPage, what: string): Promise<void> {
  const serious = (await opened.axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious, [], what);
}

/** The most requests to `path` in flight at once from now on, and how many were sent. */
export function countInFlight(page: Page, path: string): { max(): number; sent(): number; now(): number } {
  let inFlight = 0;
  let max = 0;
  let sent = 0;
  const isCall = (url: string) => new URL(url).pathname === path;
  page.on('request', (request) => {
    if (!isCall(request.url())) return;
    sent += 1;
    inFlight += 1;
    max = Math.max(max, inFlight);
  });
  const settled = (request: { url(): string }) => {
    if (isCall(request.url())) inFlight -= 1;
  };
  page.on('requestfinished', settled);
  page.on('requestfailed', settled);
  return { max: () => max, sent: () => sent, now: () => inFlight };
}
