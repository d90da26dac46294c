import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import known from './fixtures/hash-known-answers.json' with { type: 'json' };

describe('POST /v1/auth/hash', () => {
  let t: TestApp;
  const hash = (body: object) => t.app.inject({ method: 'POST', url: '/v1/auth/hash', headers: t.auth, payload: body });
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  describe('known answers (FIPS 180-4, FIPS 202, RFC 1321, BLAKE2)', () => {
    for (const v of known.vectors) {
      it(`${v.algorithm}(${JSON.stringify(v.input)})`, async () => {
        const res = await hash({ data: v.input, algorithm: v.algorithm });
        assert.equal(res.statusCode, 200);
        assert.deepEqual(res.json(), { hash: v.hex, algorithm: v.algorithm, encoding: 'hex' });
      });
    }
  });

  it('defaults to sha256 and hex', async () => {
    const res = await hash({ data: 'abc' });
    assert.deepEqual(res.json(), {
      hash: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      algorithm: 'sha256',
      encoding: 'hex',
    });
  });

  it('base64 output', async () => {
    const res = await hash({ data: 'abc', algorithm: 'sha256', encoding: 'base64' });
    assert.equal(
      res.json().hash,
      Buffer.from('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', 'hex').toString('base64'),
    );
  });

  it('binary input through data_encoding: hex "616263" hashes like "abc"', async () => {
    for (const [data, data_encoding] of [
      ['616263', 'hex'],
      ['YWJj', 'base64'],
      ['YWJj', 'base64url'],
    ]) {
      const res = await hash({ data, data_encoding, algorithm: 'sha3-256' });
      assert.equal(res.json().hash, '3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532');
    }
  });

  it('UTF-8 text is hashed as its UTF-8 bytes', async () => {
    const res = await hash({ data: 'é', algorithm: 'md5' });
    const bytes = await hash({ data: 'c3a9', data_encoding: 'hex', algorithm: 'md5' });
    assert.equal(res.json().hash, bytes.json().hash);
  });

  it('hex and base64 data may carry spaces and line breaks (MIME base64, hex dumps): they are skipped', async () => {
    const want = (await hash({ data: 'foobar' })).json().hash;
    for (const [data, data_encoding] of [
      ['Zm9v\nYmFy', 'base64'],
      ['Zm9vYmFy\r\n', 'base64'],
      ['66 6f 6f\t62 61 72', 'hex'],
      ['Zm9v YmFy', 'base64url'],
    ]) {
      const res = await hash({ data, data_encoding });
      assert.equal(res.statusCode, 200, `${JSON.stringify(data)}: ${res.body}`);
      assert.equal(res.json().hash, want, JSON.stringify(data));
    }
    // Skipping spaces does not make bad text good: "666" is still an odd number of hex digits.
    assert.equal((await hash({ data: '66 6', data_encoding: 'hex' })).statusCode, 422);
  });

  describe('bad input', () => {
    for (const [name, body, path] of [
      ['unknown algorithm "sha3"', { data: 'x', algorithm: 'sha3' }, 'algorithm'],
      ['Keccak is not offered', { data: 'x', algorithm: 'keccak256' }, 'algorithm'],
      ['upper-case name', { data: 'x', algorithm: 'SHA256' }, 'algorithm'],
      ['unknown output encoding', { data: 'x', encoding: 'base32' }, 'encoding'],
      ['odd-length hex data', { data: 'abc', data_encoding: 'hex' }, 'data'],
      ['data missing', { algorithm: 'md5' }, 'data'],
      ['data not a string', { data: 42 }, 'data'],
    ] as const) {
      it(`${name} → 422 on ${path}`, async () => {
        const res = await hash(body);
        assert.equal(res.statusCode, 422);
        assert.equal(res.json().code, 'validation_error');
        assert.equal(res.json().errors[0].path, path);
      });
    }
  });
});
