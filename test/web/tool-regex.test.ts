import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';
import { eventually } from '../helpers/tool-pages.js';

interface Match {
  match: string;
  start: number;
  end: number;
  groups: (string | null)[];
  named_groups: Record<string, string | null>;
}

interface Answer {
  match_count: number;
  matches: Match[];
  truncated: boolean;
}

/**
 * The highlighted text as the page built it: its whole text, whether it is only text nodes and <mark>
 * elements holding text, and each mark with its code-point offsets in that text.
 */
const highlighted = (page: Page) =>
  page.evaluate(`(() => {
    const pre = document.querySelector('.regex-highlight');
    if (pre === null) return null;
    const marks = [];
    let at = 0;
    let onlyTextAndMarks = true;
    for (const node of pre.childNodes) {
      if (node.nodeName !== '#text' && !(node.nodeName === 'MARK' && node.children.length === 0)) onlyTextAndMarks = false;
      const length = Array.from(node.textContent).length;
      if (node.nodeName === 'MARK') marks.push({ match: node.textContent, start: at, end: at + length });
      at += length;
    }
    return { text: pre.textContent, onlyTextAndMarks, marks };
  })()`);

/** What the highlight should be for `text` and the API's answer. */
const expectedHighlight = (text: string, answer: Answer) => ({
  text,
  onlyTextAndMarks: true,
  marks: answer.matches.map((m) => ({ match: m.match, start: m.start, end: m.end })),
});

/** The table's header and rows as text. */
async function table(page: Page): Promise<string[][]> {
  const region = page.getByRole('group', { name: 'Matches' });
  if ((await region.count()) === 0) return [];
  const rows = [];
  for (const row of await region.getByRole('row').all())
    rows.push(await row.getByRole('columnheader').or(row.getByRole('cell')).allInnerTexts());
  return rows;
}

const expectedTable = (answer: Answer) => {
  const groups = Math.max(0, ...answer.matches.map((m) => m.groups.length));
  const names = [...new Set(answer.matches.flatMap((m) => Object.keys(m.named_groups)))];
  const shown = (v: string | null | undefined) => (v === null || v === undefined ? 'null' : v === '' ? '(empty)' : v);
  return [
    ['#', 'Match', 'Start', 'End', ...Array.from({ length: groups }, (_, i) => `Group ${i + 1}`), ...names.map((n) => `<${n}>`)],
    ...answer.matches.map((m, i) => [
      String(i + 1),
      shown(m.match),
      String(m.start),
      String(m.end),
      ...Array.from({ length: groups }, (_, g) => shown(m.groups[g])),
      ...names.map((n) => shown(m.named_groups[n])),
    ]),
  ];
};

describe('the regex page in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  async function call(body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${web.url}/v1/regex-extract`, {
      method: 'POST',
      headers: { 'x-api-key': web.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const answerFor = async (body: unknown) => {
    const { status, body: answer } = await call(body);
    assert.equal(status, 200);
    return answer as unknown as Answer;
  };
  const count = (page: Page) => page.getByRole('region', { name: 'Result' }).locator('.regex-count').allInnerTexts();

  it("marks the API's matches in the text at its offsets, and lists them with groups and named groups", async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/regex');
    await page.getByRole('heading', { level: 1, name: 'Regex tester' }).waitFor();
    const example = { pattern: '(?P<user>\\w+)@(?P<domain>[\\w.]+)', text: 'Mail ana@example.com or 😀 bo@test.org', flags: 'i' };
    assert.equal(await page.getByLabel('Pattern').inputValue(), example.pattern);
    const exampleAnswer = await answerFor(example);
    assert.equal(exampleAnswer.match_count, 2);
    await eventually(() => highlighted(page), expectedHighlight(example.text, exampleAnswer), 'example marks');
    assert.deepEqual(await count(page), ['2 matches']);
    assert.deepEqual(await table(page), expectedTable(exampleAnswer));
    assert.deepEqual((await table(page))[0], ['#', 'Match', 'Start', 'End', 'Group 1', 'Group 2', '<user>', '<domain>']);

    // Emoji before, between and inside matches: offsets count code points, and empty matches are marks too.
    const body = { pattern: '(\\p{Emoji_Presentation})(x)?|b*', text: 'a😀b😀😀xbb' };
    await page.getByLabel('Pattern').fill(body.pattern);
    await page.getByLabel('Text', { exact: true }).fill(body.text);
    const answer = await answerFor(body);
    assert.ok(answer.matches.some((m) => m.match === '') && answer.matches.some((m) => m.groups[1] === 'x'), JSON.stringify(answer));
    await eventually(() => highlighted(page), expectedHighlight(body.text, answer), 'emoji marks');
    assert.deepEqual(await table(page), expectedTable(answer));
    assert.deepEqual(await count(page), [`${answer.match_count} matches`]);

    const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, []);
    assertNoProblems();
    await close();
  });

  it('the flag toggles change the flags sent and the matches shown', async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/regex', {
      context: { viewport: { width: 360, height: 740 }, colorScheme: 'dark' },
    });
    const flags = page.getByRole('group', { name: 'Flags' });
    const toggle = (name: string) => flags.getByRole('button', { name, exact: true });
    await toggle('x verbose').waitFor();
    assert.deepEqual(await flags.getByRole('button').allTextContents(), [
      'i ignore case',
      'm multi-line',
      's dot matches newline',
      'u strict Unicode',
      'x verbose',
    ]);
    assert.equal(await toggle('i ignore case').getAttribute('aria-pressed'), 'true');
    await toggle('i ignore case').click();
    assert.equal(await toggle('i ignore case').getAttribute('aria-pressed'), 'false');

    const text = 'beta\nBETA\nalpha beta';
    await page.getByLabel('Pattern').fill('^beta$');
    await page.getByLabel('Text', { exact: true }).fill(text);
    const none = await answerFor({ pattern: '^beta$', text, flags: '' });
    assert.equal(none.match_count, 0);
    await eventually(() => count(page), ['No match'], 'no flags');
    await eventually(() => highlighted(page), expectedHighlight(text, none), 'no marks');

    await toggle('m multi-line').click();
    const multiline = await answerFor({ pattern: '^beta$', text, flags: 'm' });
    assert.equal(multiline.match_count, 1);
    await eventually(() => highlighted(page), expectedHighlight(text, multiline), 'm');

    await toggle('i ignore case').click();
    const both = await answerFor({ pattern: '^beta$', text, flags: 'im' });
    assert.equal(both.match_count, 2);
    await eventually(() => highlighted(page), expectedHighlight(text, both), 'im');
    assert.deepEqual(await count(page), ['2 matches']);
    // The request carries the toggled flags, in the toggles' order.
    await page.getByText('curl', { exact: true }).click();
    assert.match((await page.locator('.tool-curl pre').textContent())!, /"flags":"im"/);

    const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, []);
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 360);
    assertNoProblems();
    await close();
  });

  it("an invalid pattern and a pattern that runs too long show the API's detail next to the pattern", async () => {
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn('/tools/regex');
    const pattern = page.getByLabel('Pattern');
    await eventually(() => count(page), ['2 matches'], 'example');
    const describedBy = async () => {
      const ids = ((await pattern.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter(Boolean);
      return page.locator(`[id="${ids[0]}"]`).innerText();
    };

    const invalid = await call({ pattern: '(a', text: 'aaa', flags: 'i' });
    assert.equal(invalid.status, 422);
    assert.equal(invalid.body.code, 'validation_error');
    await page.getByLabel('Text', { exact: true }).fill('aaa');
    await pattern.fill('(a');
    await eventually(() => pattern.getAttribute('aria-invalid'), 'true', 'pattern invalid');
    assert.equal(await describedBy(), invalid.body.detail);
    assert.equal(await page.getByLabel('Text', { exact: true }).getAttribute('aria-invalid'), null);
    assert.equal(await page.getByRole('alert').count(), 0);

    const slowText = 'a'.repeat(40) + '!';
    const slow = await call({ pattern: '(a+)+$', text: slowText, flags: 'i' });
    assert.equal(slow.status, 422);
    assert.equal(slow.body.code, 'regex_timeout');
    await page.getByLabel('Text', { exact: true }).fill(slowText);
    await pattern.fill('(a+)+$');
    await eventually(describedBy, slow.body.detail as string, 'timeout');
    assert.equal(await pattern.getAttribute('aria-invalid'), 'true');

    await pattern.fill('a+');
    await eventually(() => pattern.getAttribute('aria-invalid'), null, 'fixed');
    await eventually(() => count(page), ['1 match'], 'fixed answer');
    assert.ok(
      apiErrors.every((e) => e === 'POST /v1/regex-extract 422'),
      apiErrors.join(),
    );
    assertNoProblems();
    await close();
  });
});
