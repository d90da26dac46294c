import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync, sign, webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { assertFieldError } from '../helpers/assertions.js';

const CERT = JSON.parse(readFileSync(new URL('./fixtures/p256-certificate.json', import.meta.url), 'utf8'));
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const RSA_PUBLIC_PEM = String(rsa.publicKey.export({ type: 'spki', format: 'pem' }));
const RSA_PRIVATE_PEM = String(rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }));
const SECRET = 'a-shared-secret-that-is-long-enough';
const b64url = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

describe('JWT bad input', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url: `/v1/auth/${url}`, headers: t.auth, payload });
  const verifyWithSecret = async (token: string, extra: object = {}) =>
    (await post('jwt-verify', { token, secret: SECRET, ...extra })).json();
  const hs256 = async (body: object = {}) =>
    (await post('jwt-generate', { payload: { sub: 'u1' }, secret: SECRET, ...body })).json().token as string;

  async function expectFieldError(url: string, payload: object, path: string, message?: RegExp) {
    assertFieldError(await post(url, payload), path, message);
  }

  const MALFORMED: [string, string, RegExp][] = [
    [
      'two parts',
      `${b64url({ alg: 'HS256' })}.${b64url({ sub: 'x' })}`,
      /^must be a JWT of 3 dot-separated parts \(header.payload.signature\); this one has 2$/,
    ],
    ['bad base64 in the header', `eyJhbGciOiJIUzI1NiJ9!.${b64url({ sub: 'x' })}.c2ln`, /header is not base64url/],
    ['base64 padding', `${b64url({ alg: 'HS256' })}=.${b64url({ sub: 'x' })}.c2ln`, /header is not base64url/],
    ['a header that is not JSON', `${b64url('not json')}.${b64url({ sub: 'x' })}.c2ln`, /header is not JSON/],
    ['a payload that is a JSON array', `${b64url({ alg: 'HS256' })}.${b64url([1, 2])}.c2ln`, /payload is JSON but not an object/],
    ['a payload that is a JSON string', `${b64url({ alg: 'HS256' })}.${b64url('"text"')}.c2ln`, /payload is JSON but not an object/],
    ['a header that is JSON null', `${b64url('null')}.${b64url({ sub: 'x' })}.c2ln`, /header is JSON but not an object/],
    ['four parts', `${b64url({ alg: 'HS256' })}.${b64url({ sub: 'x' })}.c2ln.c2ln`, /this one has 4$/],
    ['bad base64 in the signature', `${b64url({ alg: 'HS256' })}.${b64url({ sub: 'x' })}.c2l+`, /signature is not base64url/],
    ['a signature of length 1 mod 4', `${b64url({ alg: 'HS256' })}.${b64url({ sub: 'x' })}.c2lnc`, /signature is not base64url/],
    ['bad base64 in the claims segment', `${b64url({ alg: 'HS256' })}.e30/.c2ln`, /payload is not base64url/],
    ['a claims segment of length 1 mod 4', `${b64url({ alg: 'HS256' })}.e30ae.c2ln`, /payload is not base64url/],
    ['bad header and signature (the header is named)', `eyJhbGciOiJIUzI1NiJ9!.${b64url({ sub: 'x' })}.c2l+`, /header is not base64url/],
    ['an empty header', `.${b64url({ sub: 'x' })}.c2ln`, /header is not JSON/],
    [
      'a header nested 5000 levels deep',
      `${b64url(`{"alg":"HS256","x":${'['.repeat(5000)}${']'.repeat(5000)}}`)}.${b64url({ sub: 'x' })}.c2ln`,
      /header nests deeper than 1000 levels/,
    ],
    [
      'a payload nested 5000 levels deep',
      `${b64url({ alg: 'HS256' })}.${b64url(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`)}.c2ln`,
      /payload nests deeper than 1000 levels/,
    ],
  ];
  for (const [what, token, message] of MALFORMED) {
    it(`jwt-decode refuses ${what} with 422`, async () => {
      const res = await post('jwt-decode', { token });
      assert.equal(res.statusCode, 422);
      assert.equal(res.json().errors[0].path, 'token');
      assert.match(res.json().errors[0].message, message);
    });
    it(`jwt-verify reports ${what} as malformed`, async () => {
      const body = await verifyWithSecret(token);
      assert.equal(body.valid, false);
      if (/payload/.test(what)) {
        // The payload is read only once the signature is checked: this one is simply wrong.
        assert.equal(body.reason, 'invalid_signature');
      } else {
        assert.equal(body.reason, 'malformed');
        assert.match(body.error, message);
      }
    });
  }

  it('jwt-verify calls a correctly signed token whose payload is a JSON array malformed', async () => {
    const input = `${b64url({ alg: 'HS256' })}.${b64url([1, 2])}`;
    const token = `${input}.${createHmac('sha256', SECRET).update(input).digest('base64url')}`;
    const body = await verifyWithSecret(token);
    assert.deepEqual({ valid: body.valid, reason: body.reason }, { valid: false, reason: 'malformed' });
    assert.match(body.error, /signature is valid but the payload is JSON but not an object/);
  });

  it('jwt-verify calls a correctly signed token whose payload nests 5000 levels deep malformed (never a 5xx)', async () => {
    const input = `${b64url({ alg: 'HS256' })}.${b64url(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`)}`;
    const token = `${input}.${createHmac('sha256', SECRET).update(input).digest('base64url')}`;
    const body = await verifyWithSecret(token);
    assert.deepEqual({ valid: body.valid, reason: body.reason }, { valid: false, reason: 'malformed' });
    assert.match(body.error, /payload nests deeper than 1000 levels/);
  });

  it('a JWK given as JSON text nested 6000 levels deep is a 422 on public_key, not a 5xx', async () => {
    const public_key = `{"kty":"RSA","x":${'['.repeat(6000)}${']'.repeat(6000)}}`;
    const res = await post('jwt-verify', { token: `${b64url({ alg: 'RS256' })}.e30.AAAA`, public_key });
    assertFieldError(res, 'public_key');
  });

  it('an RSA-PSS key restricted to a hash or a salt length signs only the PS algorithm it allows; other uses are a 422 / algorithm_not_allowed', async () => {
    // @types/node types saltLength as a string; node:crypto wants the number of bytes.
    const pss = (saltLength: number) =>
      generateKeyPairSync('rsa-pss', {
        modulusLength: 2048,
        hashAlgorithm: 'sha256',
        mgf1HashAlgorithm: 'sha256',
        saltLength: saltLength as unknown as string,
      });
    const restricted = pss(32);
    const privatePem = String(restricted.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const publicPem = String(restricted.publicKey.export({ type: 'spki', format: 'pem' }));
    const ok = await post('jwt-generate', { payload: { sub: 'u' }, algorithm: 'PS256', private_key: privatePem });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal((await post('jwt-verify', { token: ok.json().token, public_key: publicPem })).json().valid, true);
    for (const algorithm of ['PS384', 'PS512']) {
      const res = await post('jwt-generate', { payload: {}, algorithm, private_key: privatePem });
      assertFieldError(res, 'private_key', /restricted to SHA256/);
    }
    // A PS512 token from an unrestricted key, checked against the restricted public key.
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const ps512 = (
      await post('jwt-generate', {
        payload: {},
        algorithm: 'PS512',
        private_key: String(other.privateKey.export({ type: 'pkcs8', format: 'pem' })),
      })
    ).json().token;
    const verdict = (await post('jwt-verify', { token: ps512, public_key: publicPem })).json();
    assert.deepEqual({ valid: verdict.valid, reason: verdict.reason }, { valid: false, reason: 'algorithm_not_allowed' });
    const salty = pss(64);
    const res = await post('jwt-generate', {
      payload: {},
      algorithm: 'PS256',
      private_key: String(salty.privateKey.export({ type: 'pkcs8', format: 'pem' })),
    });
    assertFieldError(res, 'private_key', /32-byte salt.*at least 64 bytes/);
  });

  it('jwt-generate: typ, cty and kid in header must be strings (RFC 7515 §4.1); the header is written alg first', async () => {
    for (const [name, value] of [
      ['typ', null],
      ['kid', 5],
      ['cty', ['a']],
    ] as const) {
      const res = await post('jwt-generate', { payload: {}, secret: SECRET, header: { [name]: value } });
      assertFieldError(res, `header.${name}`, /must be a string/);
    }
    const res = await post('jwt-generate', { payload: {}, secret: SECRET, header: { kid: 'k1' } });
    const token = res.json().token as string;
    assert.equal(Buffer.from(token.split('.')[0]!, 'base64url').toString(), '{"alg":"HS256","typ":"JWT","kid":"k1"}');
  });

  it('a private EC or OKP JWK whose d does not belong to its x/y is a 422 (its tokens would never verify)', async () => {
    const a = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
    const b = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
    const zero = Buffer.alloc(32).toString('base64url');
    const order = Buffer.from('ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551', 'hex').toString('base64url');
    for (const d of [b.d, zero, order]) {
      const res = await post('jwt-generate', { payload: {}, algorithm: 'ES256', private_key: { ...a, d } });
      assertFieldError(res, 'private_key', /does not belong to its private part/);
    }
    const e1 = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
    const e2 = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
    assertFieldError(
      await post('jwt-generate', { payload: {}, algorithm: 'EdDSA', private_key: { ...e1, d: e2.d } }),
      'private_key',
      /does not belong/,
    );
    // An OKP x is a fixed-length byte string: leading zero bytes make it another (unusable) key.
    const padded = Buffer.concat([Buffer.alloc(2), Buffer.from(e1.x!, 'base64url')]).toString('base64url');
    assertFieldError(await post('jwt-generate', { payload: {}, algorithm: 'EdDSA', private_key: { ...e1, x: padded } }), 'private_key');
    // A key of the wrong curve is refused for that before any point is derived.
    assertFieldError(
      await post('jwt-generate', {
        payload: {},
        algorithm: 'ES256',
        private_key: generateKeyPairSync('ec', { namedCurve: 'P-521' }).privateKey.export({ format: 'jwk' }),
      }),
      'private_key',
      /ES256 needs a P-256 key/,
    );
    // P-384 and P-521 points are derived in a worker thread: the same answers.
    const p521 = generateKeyPairSync('ec', { namedCurve: 'P-521' }).privateKey.export({ format: 'jwk' });
    const q521 = generateKeyPairSync('ec', { namedCurve: 'P-521' }).privateKey.export({ format: 'jwk' });
    assertFieldError(
      await post('jwt-generate', { payload: {}, algorithm: 'ES512', private_key: { ...p521, d: q521.d } }),
      'private_key',
      /does not belong/,
    );
    assertFieldError(
      await post('jwt-generate', { payload: {}, algorithm: 'ES512', private_key: { ...p521, d: Buffer.alloc(66).toString('base64url') } }),
      'private_key',
      /does not belong/,
    );
    // Consistent JWKs still sign, and the token verifies with the public part.
    for (const [algorithm, jwk] of [
      ['ES256', a],
      ['EdDSA', e1],
      ['ES512', p521],
    ] as const) {
      const signed = await post('jwt-generate', { payload: { sub: 'x' }, algorithm, private_key: jwk });
      assert.equal(signed.statusCode, 200, signed.body);
      const { d: _d, ...publicJwk } = jwk;
      assert.equal((await post('jwt-verify', { token: signed.json().token, public_key: publicJwk })).json().valid, true);
    }
  });

  it("a JWK's alg, use and key_ops are respected: 422 on generate, algorithm_not_allowed on verify", async () => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const priv = pair.privateKey.export({ format: 'jwk' });
    const pub = pair.publicKey.export({ format: 'jwk' });
    assertFieldError(
      await post('jwt-generate', { payload: {}, algorithm: 'RS256', private_key: { ...priv, alg: 'PS256' } }),
      'private_key',
      /JWK for alg PS256 only/,
    );
    assertFieldError(
      await post('jwt-generate', { payload: {}, algorithm: 'RS256', private_key: { ...priv, use: 'enc' } }),
      'private_key',
      /use "enc"/,
    );
    assertFieldError(
      await post('jwt-generate', { payload: {}, algorithm: 'RS256', private_key: { ...priv, key_ops: ['verify'] } }),
      'private_key',
      /key_ops \(verify\) do not include "sign"/,
    );
    const ok = await post('jwt-generate', {
      payload: {},
      algorithm: 'RS256',
      private_key: { ...priv, alg: 'RS256', use: 'sig', key_ops: ['sign'] },
    });
    assert.equal(ok.statusCode, 200, ok.body);
    const token = ok.json().token;
    for (const extra of [{ alg: 'PS256' }, { use: 'enc' }, { key_ops: ['encrypt'] }]) {
      const verdict = (await post('jwt-verify', { token, public_key: { ...pub, ...extra } })).json();
      assert.deepEqual(
        { valid: verdict.valid, reason: verdict.reason },
        { valid: false, reason: 'algorithm_not_allowed' },
        JSON.stringify(extra),
      );
    }
    // WebCrypto names Ed25519 JWKs alg "Ed25519" and gives private ones key_ops ["sign"]: both fit EdDSA, and
    // a private JWK given to verify stands for its public half.
    const ed = (await webcrypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
    const edPrivate = await webcrypto.subtle.exportKey('jwk', ed.privateKey);
    const edPublic = await webcrypto.subtle.exportKey('jwk', ed.publicKey);
    assert.equal(edPrivate.alg, 'Ed25519');
    const edToken = await post('jwt-generate', { payload: {}, algorithm: 'EdDSA', private_key: edPrivate });
    assert.equal(edToken.statusCode, 200, edToken.body);
    assert.equal((await post('jwt-verify', { token: edToken.json().token, public_key: edPublic })).json().valid, true);
    assert.equal((await post('jwt-verify', { token: edToken.json().token, public_key: edPrivate })).json().valid, true);
    // alg "Ed448" on an Ed25519 key is no EdDSA label: it names another curve.
    const mislabelled = await post('jwt-generate', { payload: {}, algorithm: 'EdDSA', private_key: { ...edPrivate, alg: 'Ed448' } });
    assertFieldError(mislabelled, 'private_key', /JWK for alg Ed448 only/);
    // The same as JSON text, and a JWK that allows it.
    assert.equal(
      (await post('jwt-verify', { token, public_key: JSON.stringify({ ...pub, alg: 'PS256' }) })).json().reason,
      'algorithm_not_allowed',
    );
    assert.equal(
      (await post('jwt-verify', { token, public_key: { ...pub, alg: 'RS256', use: 'sig', key_ops: ['verify'] } })).json().valid,
      true,
    );
  });

  it('never accepts alg "none", signed or not, whatever the case', async () => {
    for (const alg of ['none', 'None', 'NONE']) {
      for (const signature of ['', 'c2ln']) {
        const token = `${b64url({ alg, typ: 'JWT' })}.${b64url({ sub: 'admin' })}.${signature}`;
        const body = await verifyWithSecret(token);
        assert.deepEqual(body, {
          valid: false,
          reason: 'algorithm_not_allowed',
          error: 'alg "none" (an unsigned token) is never accepted',
        });
      }
    }
    await expectFieldError('jwt-generate', { payload: {}, algorithm: 'none', secret: SECRET }, 'algorithm');
    await expectFieldError('jwt-verify', { token: await hs256(), secret: SECRET, algorithms: ['none'] }, 'algorithms[0]');
  });

  it('refuses an RSA public key PEM as an HMAC secret (HS256 key confusion)', async () => {
    // The attack: sign HS256 with the public key's PEM text as the HMAC key.
    const input = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: 'admin' })}`;
    const forged = `${input}.${createHmac('sha256', RSA_PUBLIC_PEM).update(input).digest('base64url')}`;
    const asPublicKey = (await post('jwt-verify', { token: forged, public_key: RSA_PUBLIC_PEM })).json();
    assert.equal(asPublicKey.valid, false);
    assert.equal(asPublicKey.reason, 'algorithm_not_allowed');
    assert.equal(asPublicKey.error, "the token's HS256 needs an HMAC secret, not an RSA public key");
    await expectFieldError('jwt-verify', { token: forged, secret: RSA_PUBLIC_PEM }, 'secret', /never a public key/);
    await expectFieldError('jwt-verify', { token: forged, secret: CERT.certificate }, 'secret', /never a public key/);
    await expectFieldError(
      'jwt-verify',
      { token: forged, secret: Buffer.from(RSA_PUBLIC_PEM).toString('base64'), secret_encoding: 'base64' },
      'secret',
    );
    await expectFieldError('jwt-generate', { payload: {}, algorithm: 'HS256', secret: RSA_PUBLIC_PEM }, 'secret', /never a public key/);
    await expectFieldError(
      'jwt-generate',
      { payload: {}, algorithm: 'HS256', secret: JSON.stringify(rsa.publicKey.export({ format: 'jwk' })) },
      'secret',
    );
    // A JWK in any member order (node:crypto writes Ed25519's `kty` last), and a JWK set, are keys too.
    const ed = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    assert.notEqual(Object.keys(ed)[0], 'kty');
    await expectFieldError('jwt-verify', { token: forged, secret: JSON.stringify(ed) }, 'secret', /never a public key/);
    await expectFieldError('jwt-verify', { token: forged, secret: ` ${JSON.stringify({ keys: [ed] })}` }, 'secret', /never a public key/);
  });

  it('requires the key type to match the algorithm family', async () => {
    const rs256 = (await post('jwt-generate', { algorithm: 'RS256', private_key: RSA_PRIVATE_PEM, payload: {} })).json().token;
    const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const withEc = (await post('jwt-verify', { token: rs256, public_key: ec.publicKey.export({ type: 'spki', format: 'pem' }) })).json();
    assert.deepEqual(withEc, {
      valid: false,
      reason: 'algorithm_not_allowed',
      error: "the token's RS256 needs an RSA key, not an EC (prime256v1) public key",
    });
    const withSecret = await verifyWithSecret(rs256);
    assert.equal(withSecret.reason, 'algorithm_not_allowed');
    const es256 = (
      await post('jwt-generate', { algorithm: 'ES256', private_key: ec.privateKey.export({ type: 'pkcs8', format: 'pem' }), payload: {} })
    ).json().token;
    assert.equal((await post('jwt-verify', { token: es256, public_key: RSA_PUBLIC_PEM })).json().reason, 'algorithm_not_allowed');
    await expectFieldError(
      'jwt-generate',
      { algorithm: 'ES256', private_key: RSA_PRIVATE_PEM, payload: {} },
      'private_key',
      /ES256 needs an EC key, not an RSA private key/,
    );
    await expectFieldError(
      'jwt-generate',
      { algorithm: 'ES384', private_key: CERT.private_key, payload: {} },
      'private_key',
      /ES384 needs a P-384 key/,
    );
    await expectFieldError('jwt-generate', { algorithm: 'EdDSA', private_key: RSA_PRIVATE_PEM, payload: {} }, 'private_key');
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 });
    await expectFieldError(
      'jwt-generate',
      { algorithm: 'RS256', private_key: small.privateKey.export({ type: 'pkcs8', format: 'pem' }), payload: {} },
      'private_key',
      /at least 2048 bits/,
    );
  });

  it('verifies with an X.509 certificate as the public key', async () => {
    const token = (await post('jwt-generate', { algorithm: 'ES256', private_key: CERT.private_key, payload: { sub: 'cert' } })).json()
      .token;
    assert.equal((await post('jwt-verify', { token, public_key: CERT.certificate })).json().valid, true);
  });

  it('refuses a PEM that is not a key', async () => {
    const notAKey = '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5IGF0IGFsbA==\n-----END PRIVATE KEY-----\n';
    await expectFieldError(
      'jwt-generate',
      { algorithm: 'RS256', private_key: notAKey, payload: {} },
      'private_key',
      /is not a private key/,
    );
    await expectFieldError('jwt-generate', { algorithm: 'ES256', private_key: CERT.certificate, payload: {} }, 'private_key');
    await expectFieldError('jwt-generate', { algorithm: 'RS256', private_key: RSA_PUBLIC_PEM, payload: {} }, 'private_key');
    await expectFieldError('jwt-generate', { algorithm: 'RS256', private_key: { kty: 'RSA', n: 'AQAB' }, payload: {} }, 'private_key');
    const token = await hs256();
    await expectFieldError(
      'jwt-verify',
      { token, public_key: notAKey.replaceAll('PRIVATE', 'PUBLIC') },
      'public_key',
      /is not a public key/,
    );
    await expectFieldError('jwt-verify', { token, public_key: 'hello' }, 'public_key');
    await expectFieldError('jwt-verify', { token, public_key: { kty: 'oct', k: 'c2VjcmV0' } }, 'public_key');
  });

  it('reports an expired token, and honours clock_tolerance', async () => {
    const token = await hs256({ expires_in: 60 });
    assert.equal((await verifyWithSecret(token)).valid, true);
    t.clock.advance(65_000);
    try {
      const expired = await verifyWithSecret(token);
      assert.equal(expired.valid, false);
      assert.equal(expired.reason, 'expired');
      assert.match(expired.error, /^the token expired/);
      assert.equal((await verifyWithSecret(token, { clock_tolerance: 10 })).valid, true);
    } finally {
      t.clock.advance(-65_000);
    }
  });

  it('reports a token used before nbf as not_yet_valid', async () => {
    const token = await hs256({ not_before: 300 });
    assert.equal((await verifyWithSecret(token)).reason, 'not_yet_valid');
    assert.equal((await verifyWithSecret(token, { clock_tolerance: 400 })).valid, true);
  });

  it('reports a wrong issuer or audience as claim_mismatch', async () => {
    const token = await hs256({ issuer: 'devutil', audience: 'api' });
    assert.equal((await verifyWithSecret(token, { issuer: 'devutil', audience: ['web', 'api'] })).valid, true);
    assert.equal((await verifyWithSecret(token, { issuer: 'someone-else' })).reason, 'claim_mismatch');
    assert.equal((await verifyWithSecret(token, { audience: 'web' })).reason, 'claim_mismatch');
  });

  it('checks sub when `subject` is given (claim_mismatch naming both), and not otherwise', async () => {
    const token = await hs256({ subject: 'user_42' });
    assert.equal((await verifyWithSecret(token)).valid, true);
    assert.equal((await verifyWithSecret(token, { subject: 'user_42' })).valid, true);
    assert.deepEqual(await verifyWithSecret(token, { subject: 'user_7' }), {
      valid: false,
      reason: 'claim_mismatch',
      error: 'sub is "user_42", expected "user_7"',
    });
    const without = await hs256({ payload: { role: 'admin' } });
    assert.deepEqual(await verifyWithSecret(without, { subject: 'user_42' }), {
      valid: false,
      reason: 'claim_mismatch',
      error: 'sub is null, expected "user_42"',
    });
    const tooLong = await post('jwt-verify', { token, secret: SECRET, subject: 'x'.repeat(1025) });
    assert.equal(tooLong.statusCode, 422);
    assert.equal(tooLong.json().errors[0].path, 'subject');
  });

  it('reports an algorithm outside `algorithms` as algorithm_not_allowed', async () => {
    const body = await verifyWithSecret(await hs256(), { algorithms: ['HS512'] });
    assert.deepEqual(body, { valid: false, reason: 'algorithm_not_allowed', error: 'alg HS256 is not in the allowed algorithms (HS512)' });
    const unknown = `${b64url({ alg: 'HS1024' })}.${b64url({})}.c2ln`;
    assert.equal((await verifyWithSecret(unknown)).reason, 'algorithm_not_allowed');
  });

  const signHs256 = (header: object, claims: unknown) => {
    const input = `${b64url(header)}.${b64url(claims as object)}`;
    return `${input}.${createHmac('sha256', SECRET).update(input).digest('base64url')}`;
  };

  it('expires a token at exp exactly, and calls non-numeric time claims claim_mismatch', async () => {
    const now = Math.floor(t.clock.now() / 1000);
    assert.equal((await verifyWithSecret(signHs256({ alg: 'HS256' }, { exp: now }))).reason, 'expired');
    assert.equal((await verifyWithSecret(signHs256({ alg: 'HS256' }, { exp: now + 30 }))).valid, true);
    for (const claims of [{ exp: '2099-01-01' }, { nbf: null }, { iat: 'now' }]) {
      const body = await verifyWithSecret(signHs256({ alg: 'HS256' }, claims));
      assert.equal(body.reason, 'claim_mismatch', JSON.stringify(claims));
      assert.match(body.error, /must be a number of seconds/);
    }
  });

  it('calls a header without alg malformed (RFC 7515 §4.1.1 requires it)', async () => {
    const body = await verifyWithSecret(signHs256({ typ: 'JWT' }, { sub: 'x' }));
    assert.deepEqual(body, { valid: false, reason: 'malformed', error: 'the header has no "alg"' });
  });

  it('refuses a header with crit extensions as malformed', async () => {
    const body = await verifyWithSecret(signHs256({ alg: 'HS256', crit: ['exp'] }, { sub: 'x' }));
    assert.deepEqual(body, {
      valid: false,
      reason: 'malformed',
      error: 'the header lists "crit" extensions, which this verifier does not support',
    });
  });

  it('refuses an ES256 signature of the wrong length (DER instead of JOSE r||s)', async () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const input = `${b64url({ alg: 'ES256' })}.${b64url({ sub: 'x' })}`;
    const der = sign('sha256', Buffer.from(input), ec.privateKey).toString('base64url');
    const body = (
      await post('jwt-verify', { token: `${input}.${der}`, public_key: ec.publicKey.export({ type: 'spki', format: 'pem' }) })
    ).json();
    assert.equal(body.reason, 'invalid_signature');
  });

  it('reports a wrong secret as invalid_signature', async () => {
    const body = (await post('jwt-verify', { token: await hs256(), secret: `${SECRET}!` })).json();
    assert.deepEqual(body, {
      valid: false,
      reason: 'invalid_signature',
      error: 'the signature does not match the header and payload with this key',
    });
  });

  it('refuses unknown algorithm names and misplaced or missing keys', async () => {
    await expectFieldError('jwt-generate', { payload: {}, algorithm: 'HS1024', secret: SECRET }, 'algorithm', /must be one of/);
    await expectFieldError('jwt-generate', { payload: {}, algorithm: 'RS256', secret: SECRET }, 'secret', /does not apply to RS256/);
    await expectFieldError('jwt-generate', { payload: {}, algorithm: 'HS256' }, 'secret', /is required/);
    await expectFieldError('jwt-generate', { payload: {}, algorithm: 'RS256' }, 'private_key', /is required/);
    await expectFieldError('jwt-verify', { token: await hs256() }, 'secret');
    await expectFieldError('jwt-verify', { token: await hs256(), secret: SECRET, public_key: RSA_PUBLIC_PEM }, 'public_key');
    await expectFieldError('jwt-verify', { token: await hs256(), secret: 'zz', secret_encoding: 'hex' }, 'secret', /not valid hex/);
  });

  it('refuses a payload that is not an object, mistyped registered claims and a conflicting header', async () => {
    await expectFieldError('jwt-generate', { payload: [1], secret: SECRET }, 'payload');
    await expectFieldError('jwt-generate', { payload: 'x', secret: SECRET }, 'payload');
    await expectFieldError('jwt-generate', { payload: { exp: 'tomorrow' }, secret: SECRET }, 'payload.exp');
    await expectFieldError('jwt-generate', { payload: { aud: [1] }, secret: SECRET }, 'payload.aud');
    await expectFieldError('jwt-generate', { payload: {}, secret: SECRET, header: { alg: 'none' } }, 'header.alg');
    await expectFieldError('jwt-generate', { payload: {}, secret: SECRET, header: { crit: ['exp'] } }, 'header.crit');
    await expectFieldError('jwt-generate', { payload: {}, secret: SECRET, expires_in: 0 }, 'expires_in');
    await expectFieldError('jwt-generate', { payload: {}, secret: SECRET, expires_in: '60' }, 'expires_in');
  });

  it('generates with every option and reports them in header and payload', async () => {
    const res = await post('jwt-generate', {
      payload: { role: 'admin', iss: 'overridden' },
      secret: SECRET,
      algorithm: 'HS512',
      expires_in: 3600,
      not_before: 10,
      issuer: 'devutil',
      subject: 'user_1',
      audience: ['a', 'b'],
      header: { kid: 'key-1' },
    });
    assert.equal(res.statusCode, 200);
    const { header, payload } = res.json();
    assert.deepEqual(header, { typ: 'JWT', kid: 'key-1', alg: 'HS512' });
    const iat = payload.iat;
    assert.ok(Math.abs(iat - Date.now() / 1000) < 5);
    assert.deepEqual(payload, { role: 'admin', iss: 'devutil', iat, exp: iat + 3600, nbf: iat + 10, sub: 'user_1', aud: ['a', 'b'] });
  });

  it('a time claim beyond the dates JavaScript holds is still an outcome: not_yet_valid or expired, with the claim named', async () => {
    const cases: [object, string, string][] = [
      [{ nbf: 1e13 }, 'not_yet_valid', 'the token is not valid before nbf 10000000000000'],
      [{ nbf: 1e308 }, 'not_yet_valid', 'the token is not valid before nbf 1e+308'],
      [{ exp: -1e13 }, 'expired', 'the token expired at exp -10000000000000'],
      [{ nbf: 8640000000000 }, 'not_yet_valid', 'the token is not valid before +275760-09-13T00:00:00.000Z (nbf 8640000000000)'],
    ];
    for (const [payload, reason, error] of cases) {
      const token = await hs256({ payload });
      const res = await post('jwt-verify', { token, secret: SECRET });
      assert.equal(res.statusCode, 200, res.body);
      const outcome = res.json();
      assert.equal(outcome.valid, false);
      assert.equal(outcome.reason, reason);
      assert.equal(outcome.error, error);
    }
  });
});
