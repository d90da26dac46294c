import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import rfc4648 from './fixtures/rfc4648.json' with { type: 'json' };

describe('Base64 encode/decode', () => {
  let t: TestApp;
  const post = (url: string, body: object) => t.app.inject({ method: 'POST', url, headers: t.auth, payload: body });
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  describe('RFC 4648 §10 vectors', () => {
    for (const v of rfc4648.base64) {
      it(`"${v.input}" ↔ "${v.output}"`, async () => {
        const enc = await post('/v1/auth/base64-encode', { data: v.input });
        assert.deepEqual(enc.json(), { result: v.output, url_safe: false, padding: true });
        const dec = await post('/v1/auth/base64-decode', { data: v.output });
        assert.deepEqual(dec.json(), { result: v.input, result_encoding: 'utf8' });
        const unpadded = await post('/v1/auth/base64-decode', { data: v.output.replace(/=+$/, '') });
        assert.deepEqual(unpadded.json(), { result: v.input, result_encoding: 'utf8' });
        const bare = await post('/v1/auth/base64-encode', { data: v.input, padding: false });
        assert.equal(bare.json().result, v.output.replace(/=+$/, ''));
      });
    }
  });

  it('URL-safe alphabet with and without padding', async () => {
    const bytes = 'fbff3e'; // standard base64: +/8+
    const std = await post('/v1/auth/base64-encode', { data: bytes, data_encoding: 'hex' });
    assert.equal(std.json().result, '+/8+');
    const url = await post('/v1/auth/base64-encode', { data: 'fbff', data_encoding: 'hex', url_safe: true });
    assert.deepEqual(url.json(), { result: '-_8=', url_safe: true, padding: true });
    const urlBare = await post('/v1/auth/base64-encode', { data: 'fbff', data_encoding: 'hex', url_safe: true, padding: false });
    assert.equal(urlBare.json().result, '-_8');
  });

  it('decodes both alphabets; bytes that are not UTF-8 come back as hex', async () => {
    for (const data of ['+/8=', '-_8=', '-_8', '+/8']) {
      const res = await post('/v1/auth/base64-decode', { data });
      assert.deepEqual(res.json(), { result: 'fbff', result_encoding: 'hex' }, data);
    }
  });

  it('ignores line breaks and spaces (MIME)', async () => {
    const res = await post('/v1/auth/base64-decode', { data: 'Zm9v\r\nYmFy' });
    assert.deepEqual(res.json(), { result: 'foobar', result_encoding: 'utf8' });
  });

  it('UTF-8 text round-trips', async () => {
    const enc = await post('/v1/auth/base64-encode', { data: 'héllo ☃' });
    const dec = await post('/v1/auth/base64-decode', { data: enc.json().result });
    assert.equal(dec.json().result, 'héllo ☃');
  });

  describe('invalid Base64 → 422', () => {
    for (const [name, data] of [
      ['a character outside both alphabets', 'Zm9v*mFy'],
      ['impossible length (4n+1)', 'Zm9vY'],
      ['padding in the middle', 'Zg==Zg=='],
      ['too much padding', 'Zg==='],
      ['padding that does not complete the block', 'Zm9=v'],
      ['mixed alphabets', '+_8='],
      ['three = signs', 'Z==='],
    ]) {
      it(name, async () => {
        const res = await post('/v1/auth/base64-decode', { data });
        assert.equal(res.statusCode, 422);
        assert.equal(res.json().code, 'validation_error');
        assert.equal(res.json().errors[0].path, 'data');
      });
    }
    it('url_safe that is not a boolean', async () => {
      const res = await post('/v1/auth/base64-encode', { data: 'x', url_safe: 'yes' });
      assert.equal(res.statusCode, 422);
      assert.equal(res.json().errors[0].path, 'url_safe');
    });
  });
});
