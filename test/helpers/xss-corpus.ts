import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { AppPage } from './browser.js';

// Each payload would set the canary global or open a dialog if it ever ran, and would load a
// resource from another origin if it were ever parsed as markup or CSS (the harness aborts and
// records any such request).
export const CANARY = '__devutilXss';
export const SCRIPT = `<script>window.${CANARY}=1;alert(1)</script>`;
export const IMG = `<img src=x onerror="window.${CANARY}=2;alert(2)">`;
export const SVG = `<svg onload="window.${CANARY}=3"><use href="http://evil.example/x.svg#a"/></svg>`;
export const LINK = `javascript:window.${CANARY}=4;alert(4)`;
export const CSS = `<div style="background:url(http://evil.example/css.png)">x</div><style>@import url(http://evil.example/s.css);</style>`;
export const IFRAME = `<iframe src="http://evil.example/frame" srcdoc="<script>parent.${CANARY}=5</script>"></iframe>`;
export const CORPUS = [SCRIPT, IMG, SVG, LINK, CSS, IFRAME];

export const HTML_BODY = `<!doctype html><html><head><meta http-equiv="refresh" content="0;url=http://evil.example/"><base href="http://evil.example/"></head><body>${CORPUS.join('\n')}<a href="${LINK}">click</a><form action="http://evil.example/"><button>go</button></form></body></html>`;

/** Record the dialogs `page` opens (each dismissed). */
export function watchDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return dialogs;
}

/** Nothing ran, loaded or left `origin` in the page so far, and no markup from the data became an element. */
export async function assertNothingRan(opened: AppPage, dialogs: string[], origin: string): Promise<void> {
  const { page } = opened;
  assert.equal(await page.evaluate(`typeof window.${CANARY}`), 'undefined', 'a payload ran');
  assert.deepEqual(dialogs, []);
  assert.equal(new URL(page.url()).origin, origin, 'the page navigated away');
  assert.equal(await page.locator('main script, main iframe, main img[src="x"], main svg[onload], main [onerror]').count(), 0);
  opened.assertNoProblems();
}
