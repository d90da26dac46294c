import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';

// The browser tests assert that nothing went wrong; this shows the harness sees it when something does.
describe('browser harness', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  it('reports console errors, CSP violations and requests to another origin', async () => {
    const { page, problems, close } = await web.openSignedIn('/bins');
    await page.evaluate("console.error('broken on purpose')");
    await page.evaluate("document.head.append(Object.assign(document.createElement('style'), { textContent: 'p {}' }))");
    await page.evaluate(
      "new Promise((done) => document.body.append(Object.assign(document.createElement('img'), { src: '/assets/missing.png', onerror: done })))",
    );
    // A loopback address of another origin: aborted by the harness before it leaves the browser.
    await page.evaluate("location.href = 'http://127.0.0.2:9/elsewhere'").catch(() => undefined);
    await page.waitForTimeout(200);

    const [logged, refused, missing, ...rest] = problems.consoleErrors;
    assert.equal(logged, 'broken on purpose');
    assert.match(refused, /inline style violates the following Content Security Policy directive 'style-src 'self''/);
    assert.equal(missing, `Failed to load resource: the server responded with a status of 404 (Not Found) (${web.url}/assets/missing.png)`);
    assert.deepEqual(rest, []);
    assert.deepEqual(problems.cspViolations, ['style-src-elem blocked inline']);
    assert.deepEqual(problems.foreignRequests, ['http://127.0.0.2:9/elsewhere']);
    await close();
  });

  it('axe-core finds an image without a text alternative', async () => {
    const { page, axeViolations, close } = await web.openSignedIn('/bins');
    await page.evaluate("document.querySelector('main').append(document.createElement('img'))");
    const found = await axeViolations();
    assert.deepEqual(
      found.map((v) => [v.id, v.targets]),
      [['image-alt', ['img']]],
    );
    await close();
  });
});
