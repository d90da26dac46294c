import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import rfc4231 from './fixtures/rfc4231-hmac.json' with { type: 'json' };

const ALGORITHMS = ['sha256', 'sha384', 'sha512'] as const;

describe('HMAC', () => {
  let t: TestApp;
  const post = (url: string, body: object) => t.app.inject({ method: 'POST', url, headers: t.auth, payload: body });
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  describe('RFC 4231 test cases 1-7 through /v1/auth/hmac and /v1/auth/hmac-verify', () => {
    for (const c of rfc4231.cases) {
      for (const algorithm of ALGORITHMS) {
        it(`case ${c.case} HMAC-${algorithm.toUpperCase()}`, async () => {
          const res = await post('/v1/auth/hmac', { data: c.data, data_encoding: 'hex', key: c.key, key_encoding: 'hex', algorithm });
          assert.equal(res.statusCode, 200);
          const body = res.json();
          assert.equal(body.algorithm, algorithm);
          assert.equal(body.encoding, 'hex');
          // Case 5 is truncated to 128 bits in the RFC: compare the prefix.
          if ('truncated_to_bits' in c) assert.equal(body.signature.slice(0, 32), c[algorithm]);
          else assert.equal(body.signature, c[algorithm]);
          const check = await post('/v1/auth/hmac-verify', {
            data: c.data,
            data_encoding: 'hex',
            key: c.key,
            key_encoding: 'hex',
            algorithm,
            signature: body.signature,
          });
          assert.deepEqual(check.json(), { valid: true, algorithm });
        });
      }
    }
  });

  it('keys around the block size and long messages agree with node:crypto, call after call', async () => {
    // A key longer than the block (64 bytes for SHA-256, 128 for SHA-384/512) is hashed first (RFC 2104).
    const { randomBytes } = await import('node:crypto');
    for (const algorithm of ALGORITHMS) {
      for (const keyLength of [1, 64, 65, 128, 129, 300, 3]) {
        for (const dataLength of [0, 1, 16_383, 16_384, 16_385, 40_000]) {
          const key = randomBytes(keyLength);
          const data = randomBytes(dataLength);
          const expected = createHmac(algorithm, key).update(data).digest('hex');
          const res = await post('/v1/auth/hmac', {
            data: data.toString('base64'),
            data_encoding: 'base64',
            key: key.toString('hex'),
            key_encoding: 'hex',
            algorithm,
          });
          assert.equal(res.json().signature, expected, `${algorithm}, ${keyLength}-byte key, ${dataLength}-byte message`);
          const check = await post('/v1/auth/hmac-verify', {
            data: data.toString('base64'),
            data_encoding: 'base64',
            key: key.toString('hex'),
            key_encoding: 'hex',
            algorithm,
            signature: expected,
          });
          assert.equal(check.json().valid, true);
        }
      }
    }
  });

  it('a message with characters beyond ASCII is MACed as its UTF-8 bytes', async () => {
    const data = 'prix: 12 € — 🎉 naïve';
    const res = await post('/v1/auth/hmac', { data, key: 'clé' });
    assert.equal(res.json().signature, createHmac('sha256', Buffer.from('clé')).update(Buffer.from(data, 'utf8')).digest('hex'));
  });

  it('defaults: sha256, hex, UTF-8 key and data', async () => {
    const res = await post('/v1/auth/hmac', { data: 'what do ya want for nothing?', key: 'Jefe' });
    assert.deepEqual(res.json(), {
      signature: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
      algorithm: 'sha256',
      encoding: 'hex',
    });
  });

  it('base64 signatures are written by hmac and read by hmac-verify', async () => {
    const expected = createHmac('sha512', 'k').update('payload').digest('base64');
    const res = await post('/v1/auth/hmac', { data: 'payload', key: 'k', algorithm: 'sha512', encoding: 'base64' });
    assert.equal(res.json().signature, expected);
    const check = await post('/v1/auth/hmac-verify', {
      data: 'payload',
      key: 'k',
      algorithm: 'sha512',
      encoding: 'base64',
      signature: expected,
    });
    assert.equal(check.json().valid, true);
  });

  it('hmac-verify accepts upper-case hex and a GitHub-style "sha256=" prefix', async () => {
    const sig = createHmac('sha256', 'secret').update('{"a":1}').digest('hex');
    for (const signature of [sig.toUpperCase(), `sha256=${sig}`]) {
      const res = await post('/v1/auth/hmac-verify', { data: '{"a":1}', key: 'secret', signature });
      assert.equal(res.json().valid, true, signature);
    }
  });

  it('hmac-verify: a prefix naming another algorithm is a 422 that says so (not "not valid hex")', async () => {
    const sig = createHmac('sha512', 'k').update('x').digest('hex');
    const res = await post('/v1/auth/hmac-verify', { data: 'x', key: 'k', signature: `sha512=${sig}` });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().errors, [
      { path: 'signature', message: 'starts with "sha512=", which names another algorithm than "sha256" (set algorithm to match)' },
    ]);
    const matching = await post('/v1/auth/hmac-verify', { data: 'x', key: 'k', signature: `SHA512=${sig}`, algorithm: 'sha512' });
    assert.equal(matching.json().valid, true);
  });

  describe('hmac-verify rejects without erroring', () => {
    const sig = createHmac('sha256', 'secret').update('body').digest();
    const flipped = Buffer.from(sig);
    flipped[5] ^= 0x01;
    for (const [name, body] of [
      ['a flipped bit', { signature: flipped.toString('hex') }],
      ['a wrong key', { key: 'Secret', signature: sig.toString('hex') }],
      ['wrong length (truncated)', { signature: sig.subarray(0, 16).toString('hex') }],
      ['wrong length (too long)', { signature: sig.toString('hex') + '00' }],
      ['an empty signature', { signature: '' }],
      ['the right MAC under another algorithm', { algorithm: 'sha384', signature: sig.toString('hex') }],
    ] as const) {
      it(name, async () => {
        const res = await post('/v1/auth/hmac-verify', { data: 'body', key: 'secret', ...body });
        assert.equal(res.statusCode, 200);
        assert.equal(res.json().valid, false);
      });
    }
  });

  describe('bad input', () => {
    for (const [name, url, body, path] of [
      ['unknown algorithm md5', '/v1/auth/hmac', { data: 'x', key: 'k', algorithm: 'md5' }, 'algorithm'],
      [
        'unknown algorithm sha1 on verify',
        '/v1/auth/hmac-verify',
        { data: 'x', key: 'k', signature: '00', algorithm: 'sha1' },
        'algorithm',
      ],
      ['signature that is not hex', '/v1/auth/hmac-verify', { data: 'x', key: 'k', signature: 'zz' }, 'signature'],
      ['odd-length hex key', '/v1/auth/hmac', { data: 'x', key: 'abc', key_encoding: 'hex' }, 'key'],
      ['key missing', '/v1/auth/hmac', { data: 'x' }, 'key'],
      ['unknown key_encoding', '/v1/auth/hmac', { data: 'x', key: 'k', key_encoding: 'latin1' }, 'key_encoding'],
    ] as const) {
      it(`${name} → 422 on ${path}`, async () => {
        const res = await post(url, body);
        assert.equal(res.statusCode, 422);
        assert.equal(res.json().code, 'validation_error');
        assert.equal(res.json().errors[0].path, path);
      });
    }
  });
});
