// A request line with raw non-ASCII bytes is not HTTP: Node's parser refuses it before any route.
// The answer says what to do instead (percent-encode), in the CONTRACT §0 shape, on a real socket.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, listenOnLoopback, type TestApp } from '../helpers/app.js';
import { curlMissing, runClientAsync } from '../helpers/clients.js';
import { bytes, CRLF, exchange } from '../helpers/raw-http.js';

const QUERY_DETAIL =
  "The query string must be percent-encoded: use curl -G --data-urlencode 'city=Zürich' URL (it held a raw non-ASCII byte, which HTTP does not allow in a request line).";
const PATH_DETAIL =
  'The path must be percent-encoded (e.g. /Z%C3%BCrich for /Zürich): it held a raw non-ASCII byte, which HTTP does not allow in a request line.';

/** Status line, headers and JSON body of a raw answer. */
function parse(raw: Buffer): { status: string; headers: Record<string, string>; body: unknown } {
  const text = raw.toString('utf8');
  const [head, body] = text.split('\r\n\r\n');
  const [status, ...lines] = head!.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: status!, headers, body: JSON.parse(body!) };
}

describe('a raw (not percent-encoded) UTF-8 request target', () => {
  let t: TestApp;
  let base: string;
  let port: number;
  let binId: string;
  before(async () => {
    t = await buildTestApp();
    base = await listenOnLoopback(t.app);
    port = Number(new URL(base).port);
    binId = (await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} })).json().bin.bin_id;
  });
  after(() => t.close());

  const line = (target: (string | number[])[]) => bytes('GET ', ...target, ` HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}${CRLF}`);

  it('in the query → 400 bad_request saying to percent-encode it with curl -G --data-urlencode', async () => {
    const answer = parse(await exchange(port, line([`/v1/catch/${binId}?city=Z`, [0xc3, 0xbc], 'rich'])));
    assert.equal(answer.status, 'HTTP/1.1 400 Bad Request');
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
    assert.match(answer.headers['x-request-id']!, /^\S+$/);
    assert.deepEqual(answer.body, { detail: QUERY_DETAIL, code: 'bad_request' });
  });

  it('in the path → 400 bad_request saying to percent-encode the path', async () => {
    const answer = parse(await exchange(port, line([`/v1/catch/${binId}/Z`, [0xc3, 0xbc], 'rich?x=1'])));
    assert.deepEqual(answer.body, { detail: PATH_DETAIL, code: 'bad_request' });
  });

  it('other malformed request lines keep the generic answer', async () => {
    const answer = parse(await exchange(port, bytes(`GET /v1/catch/${binId}?a b HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}${CRLF}`)));
    assert.deepEqual(answer.body, {
      detail: 'The request is not valid HTTP/1.1 (request line or headers malformed).',
      code: 'bad_request',
    });
  });

  it(
    'curl: the raw URL gets that 400; curl -G --data-urlencode is captured, its query stored as sent',
    { skip: curlMissing() },
    async () => {
      const raw = await runClientAsync('curl', ['-s', '-w', '\n%{http_code}', `${base}/v1/catch/${binId}?city=Zürich`]);
      assert.equal(raw.status, 0, raw.stderr);
      const [body, status] = raw.stdout.split('\n');
      assert.equal(status, '400');
      assert.deepEqual(JSON.parse(body!), { detail: QUERY_DETAIL, code: 'bad_request' });

      const encoded = await runClientAsync('curl', ['-s', '-G', '--data-urlencode', 'city=Zürich', `${base}/v1/catch/${binId}`]);
      assert.equal(encoded.status, 0, encoded.stderr);
      const requestId = JSON.parse(encoded.stdout).request_id;
      const detail = await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests/${requestId}`, headers: t.auth });
      assert.equal(detail.json().request.query_string, 'city=Z%c3%bcrich');
    },
  );

  it('the catch description documents it', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    assert.match(
      doc.paths['/v1/catch/{bin_id}'].post.description,
      /raw \(not percent-encoded\) non-ASCII bytes[\s\S]*400 `bad_request` saying to percent-encode it[\s\S]*curl -G --data-urlencode 'city=Zürich'/,
    );
  });
});
