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

  describe('url decode of bytes that are not UTF-8 comes back as hex (as hex and ascii85 decoding do)', () => {
    for (const [data, hex] of [
      ['%FF%FE', 'fffe'],
      ['caf%E9', '636166e9'],
      ['%ff%00a', 'ff0061'],
      ['%C3%A9%C3', 'c3a9c3'],
    ] as const) {
      it(JSON.stringify(data), async () => {
        const res = await encode({ data, format: 'url', action: 'decode' });
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), { result: hex, format: 'url', action: 'decode', result_encoding: 'hex' });
      });
    }

    it('lowercase %xx and literal non-ASCII text decode to UTF-8 text', async () => {
      const res = await encode({ data: 'caf%c3%a9 et thé', format: 'url', action: 'decode' });
      assert.deepEqual(res.json(), { result: 'café et thé', format: 'url', action: 'decode', result_encoding: 'utf8' });
    });

    it('a UTF-8 byte-order mark is kept, not dropped', async () => {
      const res = await encode({ data: '%EF%BB%BFa', format: 'url', action: 'decode' });
      assert.deepEqual(res.json(), { result: '\ufeffa', format: 'url', action: 'decode', result_encoding: 'utf8' });
    });
  });

  describe('data_encoding: the bytes to encode, or the encoded text as sent', () => {
    for (const [name, body, result, resultEncoding] of [
      ['url-encode binary bytes sent as hex', { data: 'ff0061', data_encoding: 'hex', format: 'url' }, '%FF%00a', 'utf8'],
      ['hex-encode bytes sent as base64', { data: '/wBoaQ==', data_encoding: 'base64', format: 'hex' }, 'ff006869', 'utf8'],
      ['ascii85-encode bytes sent as base64url', { data: 'aGVsbG8', data_encoding: 'base64url', format: 'ascii85' }, 'BOu!rDZ', 'utf8'],
      [
        'html-encode UTF-8 text sent as hex',
        { data: Buffer.from('<é>').toString('hex'), data_encoding: 'hex', format: 'html' },
        '&lt;é&gt;',
        'utf8',
      ],
      ['utf8 is the default, also when named', { data: 'a b', data_encoding: 'utf8', format: 'url' }, 'a%20b', 'utf8'],
      [
        'url-decode text sent as hex',
        { data: Buffer.from('caf%E9').toString('hex'), data_encoding: 'hex', format: 'url', action: 'decode' },
        '636166e9',
        'hex',
      ],
      [
        'hex-decode text sent as base64',
        { data: Buffer.from('6869').toString('base64'), data_encoding: 'base64', format: 'hex', action: 'decode' },
        'hi',
        'utf8',
      ],
      [
        'ascii85-decode text sent as base64',
        { data: Buffer.from('<~BOu!rDZ~>').toString('base64'), data_encoding: 'base64', format: 'ascii85', action: 'decode' },
        'hello',
        'utf8',
      ],
    ] as const) {
      it(name, async () => {
        const res = await encode(body);
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), {
          result,
          format: body.format,
          action: 'action' in body ? body.action : 'encode',
          result_encoding: resultEncoding,
        });
      });
    }

    it('binary bytes round-trip through url encode and decode', async () => {
      const bytes = Buffer.from([0, 0x20, 0x25, 0x7f, 0x80, 0xc3, 0xff]);
      const enc = (await encode({ data: bytes.toString('base64'), data_encoding: 'base64', format: 'url' })).json();
      assert.equal(enc.result, '%00%20%25%7F%80%C3%FF');
      const dec = (await encode({ data: enc.result, format: 'url', action: 'decode' })).json();
      assert.deepEqual([dec.result, dec.result_encoding], [bytes.toString('hex'), 'hex']);
    });
  });

  it('html: escapes the five special characters and decodes numeric and named entities', async () => {
    const enc = await encode({ data: `<a href="x">Tom & Jerry's</a>`, format: 'html' });
    assert.equal(enc.json().result, '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;');
    const dec = await encode({
      data: '&lt;b&gt; &#x263A; &#9731; &copy; &amp;amp; &unknown; &#0; &#xD800;',
      format: 'html',
      action: 'decode',
    });
    assert.equal(dec.json().result, '<b> ☺ ☃ © &amp; &unknown; \ufffd \ufffd');
    // As browsers: upper-case and legacy forms without ";", windows-1252 for &#128;-&#159;, the full HTML5 table.
    const html5 = await encode({
      data: '&AMP;&lt&gt &copy 2026 &#128; &#x9F; &NotNestedGreaterGreater; &Afr;',
      format: 'html',
      action: 'decode',
    });
    assert.equal(html5.json().result, '&<> © 2026 € Ÿ \u2AA2\u0338 \u{1D504}');
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
      ['% before a non-hex digit', { data: '%G1', format: 'url', action: 'decode' }, 'data'],
      ['% with one hex digit', { data: '%4', format: 'url', action: 'decode' }, 'data'],
      ['% at the end', { data: '100%', format: 'url', action: 'decode' }, 'data'],
      ['unknown data_encoding', { data: 'x', data_encoding: 'base32', format: 'hex' }, 'data_encoding'],
      ['data that is not the declared hex', { data: 'xyz', data_encoding: 'hex', format: 'url' }, 'data'],
      ['html-encode bytes that are not UTF-8', { data: 'ff', data_encoding: 'hex', format: 'html' }, 'data'],
      ['decode text that is not UTF-8 once read from hex', { data: 'ff', data_encoding: 'hex', format: 'url', action: 'decode' }, 'data'],
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
