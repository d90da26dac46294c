import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';
import { describedBy, eventually } from '../helpers/tool-pages.js';

interface Score {
  score: number;
  is_spam: boolean;
  threshold: number;
  reasons: { rule: string; weight: number; detail: string }[];
}

/** Rows of a table section as the texts of their cells. */
const rowsOf = (rows: Locator) => rows.evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent ?? '')));

/** The rule table's rows the page should show for an answer: readable rule name, detail, points. */
const expectedRows = (answer: Score) =>
  answer.reasons.map((r) => [r.rule.charAt(0).toUpperCase() + r.rule.slice(1).replace(/_/g, ' '), r.detail, `+${r.weight}`]);

describe('form spam score page in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  const score = (body: Record<string, unknown>) => web.api<Score>('POST', '/v1/email/form-spam-score', body);

  /** The gauge's state: the meter's value, the arc's dash, the verdict's words. */
  const gaugeOf = async (page: Page) => ({
    // Preact sets the property, which the attribute reflects only once it differs from the default 0.
    meter: await page.getByRole('meter', { name: 'Spam score' }).evaluate((m) => String((m as unknown as { value: number }).value)),
    dash: await page.locator('.spam-gauge-value').getAttribute('stroke-dasharray'),
    verdict: await page.locator('.spam-verdict-text').innerText(),
  });

  it('opens on the example submission and scores it as the API does; a spammy one fills the rule table with the API reasons', async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/spam-score');
    await page.getByRole('heading', { level: 1, name: 'Form spam score' }).waitFor();
    const example = score({
      name: 'Ana Lima',
      email: 'ana@example.com',
      subject: 'Team pricing',
      message: 'Hi, could you send pricing for a team of 10? Thanks!',
      time_to_submit_ms: 42000,
    });
    const clean = await example;
    assert.deepEqual(clean, { score: 0, is_spam: false, threshold: 50, reasons: [] });
    await eventually(() => gaugeOf(page), { meter: '0', dash: '0 100', verdict: 'Not spam\nScore 0 of 100; spam from 50 up.' }, 'example');
    assert.equal(await page.getByText('No rule fired: nothing in this submission looks like spam.').count(), 1);

    await page.getByRole('button', { name: 'Try a spam example' }).click();
    const spammy = await score({
      name: 'SEO Expert',
      email: 'win@mailinator.com',
      subject: 'Rank your website',
      message: 'CHEAP backlinks!!!! Get on the first page of Google: http://x.example http://y.example http://z.example',
      honeypot: 'x',
      time_to_submit_ms: 800,
      user_agent: 'python-requests/2.32',
    });
    assert.equal(spammy.score, 100);
    assert.equal(spammy.reasons.length, 7);
    const table = page.getByRole('table', { name: 'Rule contributions' });
    await eventually(() => rowsOf(table.locator('tbody tr')), expectedRows(spammy), 'spam reasons');
    const sum = spammy.reasons.reduce((total, r) => total + r.weight, 0);
    assert.equal(sum, 200);
    assert.deepEqual(await rowsOf(table.locator('tfoot tr')), [['Total, capped at 100', '200']]);
    assert.deepEqual(await gaugeOf(page), { meter: '100', dash: '100 100', verdict: 'Spam\nScore 100 of 100; spam from 50 up.' });
    assert.deepEqual(await page.locator('.spam-gauge-threshold').evaluate((l) => ['x1', 'y1', 'x2', 'y2'].map((a) => l.getAttribute(a))), [
      '60',
      '20',
      '60',
      '0',
    ]);
    const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, []);
    assertNoProblems();
    await close();
  });

  it('the score follows the fields and the threshold as you type, the table adding up to it', async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/spam-score', {
      context: { viewport: { width: 360, height: 740 }, colorScheme: 'dark' },
    });
    await page.locator('.spam-verdict').waitFor();
    await page.getByLabel('Message').fill('Hi, could you send pricing for a team of 10? Thanks! Best price please, it is guaranteed?');
    await page.getByLabel('Time to submit (ms)').fill('1500');
    await page.getByLabel('Spam threshold').fill('30');
    const answer = await score({
      name: 'Ana Lima',
      email: 'ana@example.com',
      subject: 'Team pricing',
      message: 'Hi, could you send pricing for a team of 10? Thanks! Best price please, it is guaranteed?',
      time_to_submit_ms: 1500,
      threshold: 30,
    });
    assert.deepEqual([answer.score, answer.is_spam], [50, true]);
    const table = page.getByRole('table', { name: 'Rule contributions' });
    await eventually(() => rowsOf(table.locator('tbody tr')), expectedRows(answer), 'reasons');
    assert.deepEqual(await rowsOf(table.locator('tfoot tr')), [['Total', '50']]);
    assert.deepEqual(await gaugeOf(page), { meter: '50', dash: '50 100', verdict: 'Spam\nScore 50 of 100; spam from 30 up.' });
    const angle = Math.PI * 0.7;
    const at = (r: number, f: (a: number) => number, sign: number) => String(Math.round((60 + sign * r * f(angle)) * 100) / 100);
    assert.deepEqual(await page.locator('.spam-gauge-threshold').evaluate((l) => ['x1', 'y1', 'x2', 'y2'].map((a) => l.getAttribute(a))), [
      at(40, Math.cos, 1),
      at(40, Math.sin, -1),
      at(60, Math.cos, 1),
      at(60, Math.sin, -1),
    ]);
    assert.equal(await page.getByRole('meter', { name: 'Spam score' }).getAttribute('high'), '30');
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 360);
    const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, []);
    assertNoProblems();
    await close();
  });

  it("a bad field shows the API's detail next to it", async () => {
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn('/tools/spam-score');
    await page.locator('.spam-verdict').waitFor();
    const ip = page.getByLabel('IP address');
    await ip.fill('not-an-ip');
    const refusal = await fetch(`${web.url}/v1/email/form-spam-score`, {
      method: 'POST',
      headers: { 'x-api-key': web.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Hi, could you send pricing for a team of 10? Thanks!', ip: 'not-an-ip' }),
    });
    assert.equal(refusal.status, 422);
    const { detail } = (await refusal.json()) as { detail: string };
    await eventually(() => ip.getAttribute('aria-invalid'), 'true', 'ip invalid');
    const [error, hint] = await describedBy(page, ip);
    assert.equal(error, detail);
    assert.match(hint!, /^Accepted for your records; no rule uses it/);
    assert.equal(await page.getByLabel('Message').getAttribute('aria-invalid'), null);
    assert.equal(await page.getByRole('alert').count(), 0);
    assert.equal(await page.getByText('No score: see the error next to the field.').count(), 1);
    await ip.fill('');
    await eventually(() => ip.getAttribute('aria-invalid'), null, 'ip fixed');
    assert.deepEqual(apiErrors, ['POST /v1/email/form-spam-score 422']);
    assertNoProblems();
    await close();
  });
});
