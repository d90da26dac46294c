import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, listenOnLoopback, type TestApp } from '../helpers/app.js';
import { bytes, CRLF, exchange, headLines, sentLines, startRawTarget } from '../helpers/raw-http.js';

const EXPIRES = 's=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/';

describe('repeated headers: Cookie joined with "; ", Set-Cookie kept line by line, others with ", "', () => {
  let t: TestApp;
  let port: number;
  let binId: string;
  let requestId: string;
  let target: Awaited<ReturnType<typeof startRawTarget>>;

  before(async () => {
    t = await buildTestApp({ env: { REPLAY_ALLOW_PRIVATE: 'true' } });
    port = Number(new URL(await listenOnLoopback(t.app)).port);
    binId = (await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} })).json().bin.bin_id;
    const head = [
      `GET /v1/catch/${binId} HTTP/1.1`,
      'Host: 127.0.0.1',
      'Cookie: a=1',
      'cookie: b=2; c=3',
      `Set-Cookie: ${EXPIRES}`,
      'set-cookie: t=2',
      'X-Dup: one',
      'x-dup: two',
      'Connection: close',
    ];
    const answer = await exchange(port, bytes(`${head.join(CRLF)}${CRLF}${CRLF}`));
    assert.match(answer.toString('latin1'), /^HTTP\/1\.1 200 /);
    requestId = JSON.parse(answer.subarray(answer.indexOf('\r\n\r\n') + 4).toString('utf8')).request_id;
    target = await startRawTarget(
      bytes(['HTTP/1.1 204 No Content', `Set-Cookie: ${EXPIRES}`, 'Set-Cookie: u=3', 'Connection: close', '', ''].join(CRLF)),
    );
  });
  after(async () => {
    await target.close();
    await t.close();
  });

  it('are stored so: cookie "a=1; b=2; c=3", set-cookie one line each, x-dup "one, two"', async () => {
    const headers = (await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests/${requestId}`, headers: t.auth })).json().request
      .headers;
    assert.equal(headers.cookie, 'a=1; b=2; c=3');
    assert.equal(headers['set-cookie'], `${EXPIRES}\nt=2`);
    assert.equal(headers['x-dup'], 'one, two');
  });

  it("a replay sends one Cookie line, each Set-Cookie line apart (an override too), and reads the answer's Set-Cookie lines the same way", async () => {
    const replay = (headers?: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/bins/${binId}/requests/${requestId}/replay`,
        headers: t.auth,
        payload: { target_url: `http://127.0.0.1:${target.port}/`, headers },
      });
    const res = await replay();
    assert.equal(res.statusCode, 200, res.body);
    const lines = headLines(target.received.at(-1)!);
    assert.deepEqual(sentLines(lines, 'cookie'), ['a=1; b=2; c=3']);
    assert.deepEqual(sentLines(lines, 'set-cookie'), [EXPIRES, 't=2']);
    assert.deepEqual(sentLines(lines, 'x-dup'), ['one, two']);
    assert.equal(res.json().response_headers['set-cookie'], `${EXPIRES}\nu=3`);

    const overridden = await replay({ 'Set-Cookie': 'x=1\ny=2' });
    assert.equal(overridden.statusCode, 200, overridden.body);
    assert.deepEqual(sentLines(headLines(target.received.at(-1)!), 'set-cookie'), ['x=1', 'y=2']);
    const refused = await replay({ 'X-Other': 'x=1\ny=2' });
    assert.equal(refused.statusCode, 422);
    assert.deepEqual(refused.json().errors, [
      { path: 'headers.X-Other', message: 'must not hold CR, LF, NUL or other control characters' },
    ]);
  });

  it('the captured request schema and the catch description say so', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const detail = JSON.stringify(doc.paths['/v1/bins/{bin_id}/requests/{request_id}'].get.responses['200']);
    assert.ok(detail.includes('except Cookie (joined with \\"; \\"'), 'detail schema');
    assert.match(
      doc.paths['/v1/catch/{bin_id}'].post.description,
      /repeated ones joined with ", ", Cookie with "; ", Set-Cookie with a line feed/,
    );
  });
});
