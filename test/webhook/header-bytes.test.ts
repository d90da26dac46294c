import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createRedisStore } from '../../src/storage/redis/redis-store.js';
import type { Store } from '../../src/storage/types.js';
import { buildTestApp, listenOnLoopback, type TestApp } from '../helpers/app.js';
import { bytes, CRLF, exchange, headLines, sentLines, startRawTarget } from '../helpers/raw-http.js';
import { isolatedPrefix, redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';

const redisSkip = await redisSkipReason();
const redisPrefix = isolatedPrefix('header-bytes');
after(async () => {
  if (!redisSkip) await redisPrefix.cleanup();
});

const BACKENDS: { name: string; skip?: string; open?: () => Promise<Store> }[] = [
  { name: 'sqlite' },
  { name: 'redis', skip: redisSkip, open: () => createRedisStore({ url: TEST_REDIS_URL, prefix: redisPrefix.prefix }) },
];

for (const backend of BACKENDS) {
  describe(`header values are stored as the bytes sent and replayed as those bytes (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestApp;
    let port: number;
    let binId: string;
    let requestId: string;
    let target: Awaited<ReturnType<typeof startRawTarget>>;

    before(async () => {
      t = await buildTestApp({ env: { REPLAY_ALLOW_PRIVATE: 'true' }, store: backend.open ? await backend.open() : undefined });
      port = Number(new URL(await listenOnLoopback(t.app)).port);
      const created = await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} });
      binId = created.json().bin.bin_id;
      const answer = await exchange(
        port,
        bytes(
          `POST /v1/catch/${binId} HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}`,
          'X-Name: caf',
          [0xc3, 0xa9],
          CRLF,
          'X-Latin: caf',
          [0xe9],
          CRLF,
          'X-Literal: base64:abc',
          CRLF,
          'X-Dup: ',
          [0xe2, 0x82, 0xac],
          '1',
          CRLF,
          'x-dup: 2',
          CRLF,
          'X-Mixed: ',
          [0xc3, 0xa9],
          CRLF,
          'x-mixed: ',
          [0xff],
          CRLF,
          `Content-Type: text/plain${CRLF}Content-Length: 2${CRLF}Connection: close${CRLF}${CRLF}hi`,
        ),
      );
      assert.match(answer.toString('latin1'), /^HTTP\/1\.1 200 /);
      requestId = JSON.parse(answer.subarray(answer.indexOf('\r\n\r\n') + 4).toString('utf8')).request_id;
      target = await startRawTarget(
        bytes(
          'HTTP/1.1 200 OK',
          CRLF,
          'X-Answer: gr',
          [0xc3, 0xbc],
          [0xc3, 0x9f],
          'e',
          CRLF,
          'X-Bad: ',
          [0xff],
          CRLF,
          `Content-Length: 2${CRLF}Connection: close${CRLF}${CRLF}ok`,
        ),
      );
    });
    after(async () => {
      await target.close();
      await t.close();
    });

    it('valid UTF-8 is stored as its text (café, not cafÃ©); other bytes as base64: and their base64; the store holds that form', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests/${requestId}`, headers: t.auth });
      const headers = res.json().request.headers;
      assert.equal(headers['x-name'], 'café');
      assert.equal(headers['x-latin'], 'base64:Y2Fm6Q==');
      assert.equal(headers['x-literal'], `base64:${Buffer.from('base64:abc').toString('base64')}`);
      assert.equal(headers['x-dup'], '€1, 2');
      // One line is not UTF-8: the joined value is given as bytes.
      assert.equal(headers['x-mixed'], `base64:${Buffer.from([0xc3, 0xa9, 0x2c, 0x20, 0xff]).toString('base64')}`);
      const stored = await t.store.bins.getRequest(binId, requestId);
      assert.deepEqual({ ...stored!.headers }, headers);
    });

    it("a replay sends the original bytes; the answer's header values are read the same way", async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/v1/bins/${binId}/requests/${requestId}/replay`,
        headers: t.auth,
        payload: { target_url: `http://127.0.0.1:${target.port}/hook`, headers: { 'X-Over': 'Zürich 😀', 'X-Raw': 'base64:/w==' } },
      });
      assert.equal(res.statusCode, 200, res.body);
      const lines = headLines(target.received.at(-1)!);
      const sent = (name: string) => sentLines(lines, name).map((value) => Buffer.from(value, 'latin1'));
      assert.deepEqual(sent('x-name'), [bytes('caf', [0xc3, 0xa9])]);
      assert.deepEqual(sent('x-latin'), [bytes('caf', [0xe9])]);
      assert.deepEqual(sent('x-literal'), [bytes('base64:abc')]);
      assert.deepEqual(sent('x-dup'), [bytes([0xe2, 0x82, 0xac], '1, 2')]);
      assert.deepEqual(sent('x-mixed'), [bytes([0xc3, 0xa9], ', ', [0xff])]);
      assert.deepEqual(sent('x-over'), [Buffer.from('Zürich 😀', 'utf8')]);
      assert.deepEqual(sent('x-raw'), [bytes([0xff])]);
      const answer = res.json();
      assert.equal(answer.response_headers['x-answer'], 'grüße');
      assert.equal(answer.response_headers['x-bad'], 'base64:/w==');
    });

    it('override values that are not headers are a 422 naming the header', async () => {
      for (const [value, message] of [
        ['base64:not base64!', 'must be base64 after "base64:"'],
        ['a\nb', 'must not hold CR, LF, NUL or other control characters'],
        ['base64:AA==', 'must not hold CR, LF, NUL or other control characters'],
      ]) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/v1/bins/${binId}/requests/${requestId}/replay`,
          headers: t.auth,
          payload: { target_url: `http://127.0.0.1:${target.port}/hook`, headers: { 'X-Over': value } },
        });
        assert.equal(res.statusCode, 422, value);
        assert.equal(res.json().code, 'validation_error');
        assert.deepEqual(res.json().errors, [{ path: 'headers.X-Over', message }]);
      }
    });
  });
}

describe('the header form is documented', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('in the captured request schema, the catch description and the replay description', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const detail = JSON.stringify(doc.paths['/v1/bins/{bin_id}/requests/{request_id}'].get.responses['200']);
    assert.match(detail, /when they are not valid UTF-8 it is `base64:` followed by the bytes in base64/);
    assert.match(doc.paths['/v1/catch/{bin_id}'].post.description, /or `base64:` and the\s+bytes in base64 when they are not valid UTF-8/);
    assert.match(
      doc.paths['/v1/bins/{bin_id}/requests/{request_id}/replay'].post.description,
      /Header values go out as the bytes captured/,
    );
  });
});
