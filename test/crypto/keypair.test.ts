import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/** Expected node:crypto view of each generated pair. */
const CASES = [
  { body: {}, type: 'rsa', details: { modulusLength: 2048 }, wire: { modulus_length: 2048 }, hash: 'sha256' },
  {
    body: { type: 'rsa', modulus_length: 3072 },
    type: 'rsa',
    details: { modulusLength: 3072 },
    wire: { modulus_length: 3072 },
    hash: 'sha256',
  },
  {
    body: { type: 'rsa', modulus_length: 4096 },
    type: 'rsa',
    details: { modulusLength: 4096 },
    wire: { modulus_length: 4096 },
    hash: 'sha512',
  },
  { body: { type: 'ec' }, type: 'ec', details: { namedCurve: 'prime256v1' }, wire: { curve: 'P-256' }, hash: 'sha256' },
  { body: { type: 'ec', curve: 'P-384' }, type: 'ec', details: { namedCurve: 'secp384r1' }, wire: { curve: 'P-384' }, hash: 'sha384' },
  { body: { type: 'ec', curve: 'P-521' }, type: 'ec', details: { namedCurve: 'secp521r1' }, wire: { curve: 'P-521' }, hash: 'sha512' },
  { body: { type: 'ed25519' }, type: 'ed25519', details: {}, wire: { curve: 'Ed25519' }, hash: null },
] as const;

describe('generate-keypair', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const post = (payload: object) => t.app.inject({ method: 'POST', url: '/v1/auth/generate-keypair', headers: t.auth, payload });

  for (const c of CASES) {
    it(`generates ${JSON.stringify(c.body)} as SPKI/PKCS#8 PEM that node:crypto reads and that sign/verify together`, async () => {
      const res = await post(c.body);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), ['private_key', 'public_key', 'type', ...Object.keys(c.wire)].sort());
      assert.equal(body.type, c.type);
      for (const [k, v] of Object.entries(c.wire)) assert.equal(body[k], v);
      assert.match(body.public_key, /^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
      assert.match(body.private_key, /^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----\n$/);
      const publicKey = createPublicKey(body.public_key);
      const privateKey = createPrivateKey(body.private_key);
      assert.equal(publicKey.asymmetricKeyType, c.type);
      for (const [k, v] of Object.entries(c.details)) assert.equal((publicKey.asymmetricKeyDetails as Record<string, unknown>)[k], v);
      if (c.type === 'rsa') assert.equal(publicKey.asymmetricKeyDetails?.publicExponent, 65537n);
      const message = Buffer.from('devutil');
      assert.ok(verify(c.hash, message, publicKey, sign(c.hash, message, privateKey)));
    });
  }

  it('answers JWK objects with format jwk, usable to sign a JWT through the service', async () => {
    const body = (await post({ type: 'ec', curve: 'P-256', format: 'jwk' })).json();
    assert.deepEqual(Object.keys(body.public_key).sort(), ['crv', 'kty', 'x', 'y']);
    assert.deepEqual(Object.keys(body.private_key).sort(), ['crv', 'd', 'kty', 'x', 'y']);
    assert.equal(body.public_key.crv, 'P-256');
    const jwt = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/jwt-generate',
      headers: t.auth,
      payload: { algorithm: 'ES256', private_key: body.private_key, payload: { sub: 'k' } },
    });
    const check = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/jwt-verify',
      headers: t.auth,
      payload: { token: jwt.json().token, public_key: body.public_key },
    });
    assert.equal(check.json().valid, true);
    const ed = (await post({ type: 'ed25519', format: 'jwk' })).json();
    assert.deepEqual(ed.public_key.kty, 'OKP');
    assert.deepEqual(ed.public_key.crv, 'Ed25519');
    const rsa = (await post({ type: 'rsa', format: 'jwk' })).json();
    assert.deepEqual(Object.keys(rsa.private_key).sort(), ['d', 'dp', 'dq', 'e', 'kty', 'n', 'p', 'q', 'qi']);
  });

  for (const [body, path] of [
    [{ type: 'dsa' }, 'type'],
    [{ type: 'rsa', modulus_length: 1024 }, 'modulus_length'],
    [{ type: 'rsa', modulus_length: 8192 }, 'modulus_length'],
    [{ type: 'ec', curve: 'P-192' }, 'curve'],
    [{ type: 'ec', curve: 'secp256k1' }, 'curve'],
    [{ type: 'rsa', curve: 'P-256' }, 'curve'],
    [{ type: 'ec', modulus_length: 2048 }, 'modulus_length'],
    [{ type: 'ed25519', curve: 'P-256' }, 'curve'],
    [{ format: 'der' }, 'format'],
    [{ bits: 2048 }, 'bits'],
  ] as const) {
    it(`refuses ${JSON.stringify(body)} with 422 on ${path}`, async () => {
      const res = await post(body);
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().errors[0].path, path);
    });
  }
});
