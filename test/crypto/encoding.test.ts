import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import ascii85 from './fixtures/ascii85.json' with { type: 'json' };

describe('POST /v1/auth/encode', () => {
  let t: TestApp;
  const encode = (body: object) => t.app.inject({ method: 'POST', url: '/v1/auth/encode', headers: t.auth, payload: body });
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  describe('ascii85 known answers (Adobe variant)', () => {
    for (const v of ascii85.vectors) {
      it(v.name, async () => {
        const text = Buffer.from(v.hex, 'hex');
        const isUtf8 = Buffer.from(text.toString('utf8'), 'utf8').equals(text) && !text.includes(0xff);
        if (isUtf8) {
          const enc = await encode({ data: text.toString('utf8'), format: 'ascii85' });
          assert.deepEqual(enc.json(), { result: v.ascii85, format: 'ascii85', action: 'encode', result_encoding: 'utf8' });
        }
        for (const data of [v.ascii85, `<~${v.ascii85}~>`]) {
          const dec = await encode({ data, format: 'ascii85', action: 'decode' });
          assert.equal(dec.statusCode, 200);
          const body = dec.json();
          assert.equal(body.result_encoding === 'hex' ? body.result : Buffer.from(body.result, 'utf8').toString('hex'), v.hex);
        }
      });
    }
  });

  it('ascii85 decode ignores whitespace and line breaks', async () => {
    const res = await encode({ data: '<~87cUR\nD]i,"Eb o80~>', format: 'ascii85', action: 'decode' });
    assert.equal(res.json().result, 'Hello World!');
  });

  it('url: encodeURIComponent / decodeURIComponent', async () => {
    const enc = await encode({ data: 'a b&c=d/é?', format: 'url' });
    assert.deepEqual(enc.json(), { result: 'a%20b%26c%3Dd%2F%C3%A9%3F', format: 'url', action: 'encode', result_encoding: 'utf8' });
    const dec = await encode({ data: 'a%20b%26c%3Dd%2F%C3%A9%3F+', format: 'url', action: 'decode' });
    assert.equal(dec.json().result, 'a b&c=d/é?+');
  });

  it('html: escapes the five special characters and decodes numeric and named entities', async () => {
    const enc = await encode({ data: `<a href="x">Tom & Jerry's</a>`, format: 'html' });
    assert.equal(enc.json().result, '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;');
    const dec = await encode({ data: '&lt;b&gt; &#x263A; &#9731; &copy; &amp;amp; &unknown; &#0; &#xD800;', format: 'html', action: 'decode' });
    assert.equal(dec.json().result, '<b> ☺ ☃ © &amp; &unknown; \ufffd \ufffd');
  });

  it('hex: lowercase encode, case-insensitive decode; non-UTF-8 bytes come back as hex', async () => {
    const enc = await encode({ data: 'Hi☃', format: 'hex' });
    assert.equal(enc.json().result, '4869e29883');
    const dec = await encode({ data: '4869E29883', format: 'hex', action: 'decode' });
    assert.deepEqual(dec.json(), { result: 'Hi☃', format: 'hex', action: 'decode', result_encoding: 'utf8' });
    const bin = await encode({ data: 'FF00', format: 'hex', action: 'decode' });
    assert.deepEqual(bin.json(), { result: 'ff00', format: 'hex', action: 'decode', result_encoding: 'hex' });
  });

  describe('bad input → 422', () => {
    for (const [name, body, path] of [
      ['odd-length hex', { data: 'abc', format: 'hex', action: 'decode' }, 'data'],
      ['non-hex digits', { data: 'zz', format: 'hex', action: 'decode' }, 'data'],
      ['ascii85 character out of range', { data: 'BOu!rDZv', format: 'ascii85', action: 'decode' }, 'data'],
      ['ascii85 final group of one character', { data: 'BOu!rD', format: 'ascii85', action: 'decode' }, 'data'],
      ['ascii85 group above 2^32-1', { data: 'uuuuu', format: 'ascii85', action: 'decode' }, 'data'],
      ['ascii85 z inside a group', { data: 'BOzu!', format: 'ascii85', action: 'decode' }, 'data'],
      ['broken percent-encoding', { data: '%E0%A4%A', format: 'url', action: 'decode' }, 'data'],
      ['unknown format', { data: 'x', format: 'base58' }, 'format'],
      ['unknown action', { data: 'x', format: 'hex', action: 'encrypt' }, 'action'],
    ] as const) {
      it(name, async () => {
        const res = await encode(body);
        assert.equal(res.statusCode, 422);
        assert.equal(res.json().code, 'validation_error');
        assert.equal(res.json().errors[0].path, path);
      });
    }
  });
});
