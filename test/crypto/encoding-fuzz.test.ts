import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/** Arbitrary text, including lone surrogates, control characters and the codecs' own symbols. */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.string({ unit: fc.constantFrom(...'<~>z!uAz09+/=-_% &#;x\n\u200b'.split('')), maxLength: 64 }),
);

describe('encodings and digests never answer 5xx on arbitrary input', () => {
  let t: TestApp;
  const post = (url: string, body: object) => t.app.inject({ method: 'POST', url, headers: t.auth, payload: body });
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const endpoints: Array<[string, (data: string) => [string, object]]> = [
    ['base64-decode', (data) => ['/v1/auth/base64-decode', { data }]],
    ['encode ascii85 decode', (data) => ['/v1/auth/encode', { data, format: 'ascii85', action: 'decode' }]],
    ['encode url decode', (data) => ['/v1/auth/encode', { data, format: 'url', action: 'decode' }]],
    ['encode html decode', (data) => ['/v1/auth/encode', { data, format: 'html', action: 'decode' }]],
    ['encode hex decode', (data) => ['/v1/auth/encode', { data, format: 'hex', action: 'decode' }]],
    ['encode url encode', (data) => ['/v1/auth/encode', { data, format: 'url', action: 'encode' }]],
    [
      'encode url decode of base64url data',
      (data) => ['/v1/auth/encode', { data, data_encoding: 'base64url', format: 'url', action: 'decode' }],
    ],
    ['encode html encode of base64url data', (data) => ['/v1/auth/encode', { data, data_encoding: 'base64url', format: 'html' }]],
    ['totp-verify secret', (data) => ['/v1/auth/totp-verify', { secret: data || 'A', code: '123456' }]],
    ['hmac-verify base64 signature', (data) => ['/v1/auth/hmac-verify', { data: 'x', key: 'k', signature: data, encoding: 'base64' }]],
    ['decrypt base64 fields', (data) => ['/v1/auth/decrypt', { ciphertext: data, iv: data, tag: data, key: data }]],
    ['hash base64url data', (data) => ['/v1/auth/hash', { data, data_encoding: 'base64url' }]],
  ];
  for (const [name, build] of endpoints) {
    it(name, async () => {
      await fc.assert(
        fc.asyncProperty(text, async (data) => {
          const [url, body] = build(data);
          const res = await post(url, body);
          assert.ok([200, 422].includes(res.statusCode), `${res.statusCode} ${res.body}`);
        }),
        { numRuns: 150 },
      );
    });
  }

  it('url encode matches encodeURIComponent and decode inverts it, for arbitrary text and bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.uint8Array({ maxLength: 40 }), async (data, raw) => {
        const enc = (await post('/v1/auth/encode', { data, format: 'url' })).json().result;
        assert.equal(enc, encodeURIComponent(data));
        assert.equal((await post('/v1/auth/encode', { data: enc, format: 'url', action: 'decode' })).json().result, data);
        const bytes = Buffer.from(raw);
        const binary = (await post('/v1/auth/encode', { data: bytes.toString('hex'), data_encoding: 'hex', format: 'url' })).json().result;
        const back = (await post('/v1/auth/encode', { data: binary, format: 'url', action: 'decode' })).json();
        assert.deepEqual(back.result_encoding === 'hex' ? Buffer.from(back.result, 'hex') : Buffer.from(back.result, 'utf8'), bytes);
      }),
      { numRuns: 100 },
    );
  });

  it('ascii85 and base64 round-trip arbitrary UTF-8 text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), async (data) => {
        const a = (await post('/v1/auth/encode', { data, format: 'ascii85' })).json().result;
        assert.equal((await post('/v1/auth/encode', { data: a, format: 'ascii85', action: 'decode' })).json().result, data);
        const b = (await post('/v1/auth/base64-encode', { data, url_safe: true, padding: false })).json().result;
        assert.equal((await post('/v1/auth/base64-decode', { data: b })).json().result, data);
      }),
      { numRuns: 100 },
    );
  });
});
