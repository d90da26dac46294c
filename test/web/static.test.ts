import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { defaultWebRoot } from '../../src/http/web-app.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; " +
  "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

const WEB_ROOT = defaultWebRoot();
if (!existsSync(join(WEB_ROOT, 'index.html'))) throw new Error(`${WEB_ROOT} has no index.html: run npm run build first`);
const INDEX = readFileSync(join(WEB_ROOT, 'index.html'));
/** The entry script the built HTML loads, e.g. `/assets/index-B1x2c3.js`. */
const SCRIPT = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)">/.exec(INDEX.toString())![1];
const SCRIPT_BYTES = readFileSync(join(WEB_ROOT, SCRIPT));

const DEEP_LINKS = [
  '/bins',
  '/bins/bin_4fQ9xT2mZk8Lr0aBcDeFgH',
  '/bins/bin_x/requests/req_y',
  '/mocks',
  '/mocks/mock_x',
  '/tools',
  '/tools/jwt',
  '/account',
];

function assertAppHeaders(headers: Record<string, unknown>): void {
  assert.equal(headers['content-security-policy'], CSP);
  assert.equal(headers['x-content-type-options'], 'nosniff');
  assert.equal(headers['referrer-policy'], 'no-referrer');
}

describe('web app files', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('/ answers the built HTML, revalidated on every load, with the CSP of CONTRACT §8', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'no-cache');
    assertAppHeaders(res.headers);
    assert.equal(res.headers['content-encoding'], undefined);
    assert.deepEqual(res.rawPayload, INDEX);
  });

  it('every client route answers the same HTML, so a deep link survives a reload', async () => {
    for (const url of DEEP_LINKS) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8', url);
      assert.equal(res.headers['cache-control'], 'no-cache', url);
      assertAppHeaders(res.headers);
      assert.deepEqual(res.rawPayload, INDEX, url);
    }
  });

  it('HEAD / answers the HTML headers without a body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/bins' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['cache-control'], 'no-cache');
    assertAppHeaders(res.headers);
    assert.equal(res.body, '');
  });

  it('the HTML answers 304 to a revalidation with its ETag', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/' });
    const again = await t.app.inject({ method: 'GET', url: '/', headers: { 'if-none-match': String(first.headers.etag) } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
  });

  it('an asset is cached for a year as immutable and served precompressed as br or gzip', async () => {
    const plain = await t.app.inject({ method: 'GET', url: SCRIPT });
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['content-type'], 'application/javascript; charset=utf-8');
    assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'accept-encoding');
    assertAppHeaders(plain.headers);
    assert.deepEqual(plain.rawPayload, SCRIPT_BYTES);

    const br = await t.app.inject({ method: 'GET', url: SCRIPT, headers: { 'accept-encoding': 'br' } });
    assert.equal(br.statusCode, 200);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.headers['content-type'], 'application/javascript; charset=utf-8');
    assert.equal(br.headers['cache-control'], 'public, max-age=31536000, immutable');
    assertAppHeaders(br.headers);
    assert.deepEqual(brotliDecompressSync(br.rawPayload), SCRIPT_BYTES);
    assert.ok(br.rawPayload.length < SCRIPT_BYTES.length);

    const gzip = await t.app.inject({ method: 'GET', url: SCRIPT, headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gzip.statusCode, 200);
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(gzip.headers['cache-control'], 'public, max-age=31536000, immutable');
    assertAppHeaders(gzip.headers);
    assert.deepEqual(gunzipSync(gzip.rawPayload), SCRIPT_BYTES);

    // A browser that takes both gets the smaller one.
    const both = await t.app.inject({ method: 'GET', url: SCRIPT, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    assert.equal(both.headers['content-encoding'], 'br');
  });

  it('the HTML is served precompressed too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/tools/jwt', headers: { 'accept-encoding': 'br' } });
    assert.equal(res.headers['content-encoding'], 'br');
    assert.equal(res.headers['cache-control'], 'no-cache');
    assertAppHeaders(res.headers);
    assert.deepEqual(brotliDecompressSync(res.rawPayload), INDEX);
  });

  it('an unknown asset, a compressed sibling asked by name and other paths stay the JSON 404', async () => {
    for (const url of [
      '/assets/nope.js',
      `${SCRIPT}.br`,
      '/assets/',
      '/assets/a/b.js',
      '/index.html',
      '/nope',
      '/account/x',
      '/favicon.ico',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8', url);
      assert.deepEqual(res.json(), { detail: `No route GET ${url}.`, code: 'not_found' }, url);
      assert.equal(res.headers['content-security-policy'], undefined, url);
    }
  });

  it('paths under /v1/, /docs, /openapi.json, /healthz and /readyz keep their meaning', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/v1/bins/bin_x/nope' });
    assert.equal(unknown.statusCode, 404);
    assert.deepEqual(unknown.json(), { detail: 'No route GET /v1/bins/bin_x/nope.', code: 'not_found' });
    const noKey = await t.app.inject({ method: 'GET', url: '/v1/account' });
    assert.equal(noKey.statusCode, 401);
    assert.equal(noKey.json().code, 'missing_api_key');
    assert.deepEqual((await t.app.inject({ method: 'GET', url: '/healthz' })).json(), { status: 'ok' });
    assert.deepEqual((await t.app.inject({ method: 'GET', url: '/readyz' })).json(), { status: 'ready' });
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(docs.statusCode, 200);
    assert.match(docs.body, /swagger-ui/);
    // The app's routes are hidden from the document that describes the API.
    const paths = Object.keys((await t.app.inject({ method: 'GET', url: '/openapi.json' })).json().paths);
    assert.ok(paths.length > 10);
    assert.deepEqual(
      paths.filter((p) => !p.startsWith('/v1/') && !['/healthz', '/readyz', '/metrics'].includes(p)),
      [],
    );
  });
});

describe('web app switched off or not built', () => {
  it('UI=false: / and the client routes are the JSON 404', async () => {
    const t = await buildTestApp({ env: { UI: 'false' } });
    try {
      for (const url of ['/', '/bins', '/account', SCRIPT]) {
        const res = await t.app.inject({ method: 'GET', url });
        assert.equal(res.statusCode, 404, url);
        assert.deepEqual(res.json(), { detail: `No route GET ${url}.`, code: 'not_found' }, url);
        assert.equal(res.headers['content-security-policy'], undefined, url);
      }
    } finally {
      await t.close();
    }
  });

  it('a build written while the service runs is served whole: its new assets are found', async () => {
    const root = mkdtempSync(join(tmpdir(), 'devutil-rebuild-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<script src="/assets/app-1.js"></script>');
    writeFileSync(join(root, 'assets', 'app-1.js'), 'one');
    const t = await buildTestApp({ webRoot: root });
    try {
      assert.equal((await t.app.inject({ method: 'GET', url: '/assets/app-1.js' })).body, 'one');
      assert.equal((await t.app.inject({ method: 'GET', url: '/assets/app-2.js' })).statusCode, 404);
      // The rebuild: new HTML naming a new asset.
      writeFileSync(join(root, 'assets', 'app-2.js'), 'two');
      writeFileSync(join(root, 'index.html'), '<script src="/assets/app-2.js"></script>');
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const html = await t.app.inject({ method: 'GET', url: '/' });
      assert.equal(html.body, '<script src="/assets/app-2.js"></script>');
      const asset = await t.app.inject({ method: 'GET', url: '/assets/app-2.js' });
      assert.deepEqual([asset.statusCode, asset.body], [200, 'two']);
      assert.equal((await t.app.inject({ method: 'GET', url: '/assets/app-3.js' })).statusCode, 404);
    } finally {
      await t.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a service built without the web app starts, warns and serves no UI', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'devutil-noweb-'));
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const t = await buildTestApp({ webRoot: empty, logger: { level: 'warn', stream } });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/' });
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), { detail: 'No route GET /.', code: 'not_found' });
      assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
      const warnings = lines.map((line) => JSON.parse(line) as { level: number; msg: string; root: string });
      assert.deepEqual(
        warnings.map(({ level, msg, root }) => ({ level, msg, root })),
        [{ level: 40, msg: 'the web app is not built (npm run build writes it): serving no UI', root: empty }],
      );
    } finally {
      await t.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
