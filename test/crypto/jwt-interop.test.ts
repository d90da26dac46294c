import assert from 'node:assert/strict';
import { constants, createHmac, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { jwtVerify, SignJWT } from 'jose';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/** How node:crypto signs and verifies each JWS algorithm, independently of jose. */
interface NodeAlgorithm {
  hash: string | null;
  /** Options for node:crypto sign/verify (PSS padding, JOSE's raw r||s ECDSA encoding). */
  options: object;
  keys(): { privateKey: KeyObject; publicKey: KeyObject };
}

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = (namedCurve: string) => () => generateKeyPairSync('ec', { namedCurve });
const pss = (hash: number) => ({ padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: hash });
const p1363 = { dsaEncoding: 'ieee-p1363' };

const ASYMMETRIC: Record<string, NodeAlgorithm> = {
  RS256: { hash: 'sha256', options: {}, keys: () => rsa },
  RS384: { hash: 'sha384', options: {}, keys: () => rsa },
  RS512: { hash: 'sha512', options: {}, keys: () => rsa },
  PS256: { hash: 'sha256', options: pss(32), keys: () => rsa },
  PS384: { hash: 'sha384', options: pss(48), keys: () => rsa },
  PS512: { hash: 'sha512', options: pss(64), keys: () => rsa },
  ES256: { hash: 'sha256', options: p1363, keys: ec('prime256v1') },
  ES384: { hash: 'sha384', options: p1363, keys: ec('secp384r1') },
  ES512: { hash: 'sha512', options: p1363, keys: ec('secp521r1') },
  EdDSA: { hash: null, options: {}, keys: () => generateKeyPairSync('ed25519') },
};
const HMAC: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('JWT interoperability with node:crypto and jose', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url: `/v1/auth/${url}`, headers: t.auth, payload });
  const pem = (key: KeyObject) =>
    String(key.export(key.type === 'public' ? { type: 'spki', format: 'pem' } : { type: 'pkcs8', format: 'pem' }));

  for (const [alg, hash] of Object.entries(HMAC)) {
    it(`${alg}: the service's token has node:crypto's HMAC, and a node:crypto token verifies`, async () => {
      const secret = randomBytes(64);
      const res = await post('jwt-generate', {
        algorithm: alg,
        secret: secret.toString('hex'),
        secret_encoding: 'hex',
        payload: { n: 1 },
        expires_in: 60,
      });
      assert.equal(res.statusCode, 200, res.body);
      const [h, p, s] = res.json().token.split('.');
      assert.equal(createHmac(hash, secret).update(`${h}.${p}`).digest('base64url'), s);

      const input = `${b64url({ alg, typ: 'JWT' })}.${b64url({ sub: 'node', iat: Math.floor(Date.now() / 1000) })}`;
      const token = `${input}.${createHmac(hash, secret).update(input).digest('base64url')}`;
      const verified = (await post('jwt-verify', { token, secret: secret.toString('base64'), secret_encoding: 'base64' })).json();
      assert.equal(verified.valid, true, JSON.stringify(verified));
      assert.equal(verified.payload.sub, 'node');
    });
  }

  it('HS*: secrets of every length around the hash block (64 and 128 bytes) sign and verify as node:crypto does, one after another', async () => {
    // The HMAC is computed in reused buffers: a long secret must not leave bytes behind for the next, shorter one.
    for (const [alg, hash] of Object.entries(HMAC)) {
      for (const length of [1, 63, 64, 65, 127, 128, 129, 300, 2]) {
        const secret = randomBytes(length);
        const res = await post('jwt-generate', {
          algorithm: alg,
          secret: secret.toString('hex'),
          secret_encoding: 'hex',
          payload: { n: length },
        });
        assert.equal(res.statusCode, 200, res.body);
        const [h, p, s] = res.json().token.split('.');
        assert.equal(s, createHmac(hash, secret).update(`${h}.${p}`).digest('base64url'), `${alg} with ${length} bytes`);
        const verified = (
          await post('jwt-verify', { token: res.json().token, secret: secret.toString('hex'), secret_encoding: 'hex' })
        ).json();
        assert.equal(verified.valid, true, `${alg} with ${length} bytes`);
        const other = Buffer.from(secret);
        other[length - 1]! ^= 0x01;
        const refused = (
          await post('jwt-verify', { token: res.json().token, secret: other.toString('hex'), secret_encoding: 'hex' })
        ).json();
        assert.equal(refused.reason, 'invalid_signature', `${alg} with ${length} bytes, last bit flipped`);
      }
    }
  });

  it('tokens that share a header segment (read once, then reused) each verify on their own signature and claims', async () => {
    const header = b64url({ alg: 'HS256', typ: 'JWT', kid: 'shared' });
    const sign = (payload: object, secret: string) => {
      const input = `${header}.${b64url(payload)}`;
      return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
    };
    const now = Math.floor(Date.now() / 1000);
    const cases = [
      { token: sign({ sub: 'a', exp: now + 60 }, 'secret-one'), secret: 'secret-one', expect: { valid: true } },
      { token: sign({ sub: 'b', exp: now - 60 }, 'secret-two'), secret: 'secret-two', expect: { valid: false, reason: 'expired' } },
      { token: sign({ sub: 'c' }, 'secret-three'), secret: 'not-secret-three', expect: { valid: false, reason: 'invalid_signature' } },
      { token: sign({ sub: 'd' }, 'secret-four'), secret: 'secret-four', expect: { valid: true } },
    ];
    for (const round of [1, 2]) {
      for (const c of cases) {
        const body = (await post('jwt-verify', { token: c.token, secret: c.secret })).json();
        assert.equal(body.valid, c.expect.valid, `round ${round}: ${JSON.stringify(body)}`);
        if (c.expect.reason) assert.equal(body.reason, c.expect.reason);
        else assert.deepEqual(body.header, { alg: 'HS256', typ: 'JWT', kid: 'shared' });
      }
    }
    const decoded = (await post('jwt-decode', { token: cases[0]!.token })).json();
    assert.deepEqual(decoded.header, { alg: 'HS256', typ: 'JWT', kid: 'shared' });
    assert.equal(decoded.payload.sub, 'a');
  });

  it('HS256: a signature whose last character carries other unused bits names the same bytes and verifies (as with jose); another character does not', async () => {
    const secret = 'a-long-shared-secret-of-32-bytes!';
    const input = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: 'bits' })}`;
    const signature = createHmac('sha256', secret).update(input).digest('base64url');
    // 43 characters carry 258 bits: the last one's 2 low bits are unused.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(signature.at(-1)!);
    const sameBytes = signature.slice(0, -1) + alphabet[last ^ 0b01];
    const otherBytes = signature.slice(0, -1) + alphabet[last ^ 0b100];
    assert.deepEqual(Buffer.from(sameBytes, 'base64url'), Buffer.from(signature, 'base64url'));
    assert.equal((await post('jwt-verify', { token: `${input}.${sameBytes}`, secret })).json().valid, true);
    assert.equal((await post('jwt-verify', { token: `${input}.${otherBytes}`, secret })).json().reason, 'invalid_signature');
    const { jwtVerify: joseVerify } = await import('jose');
    await joseVerify(`${input}.${sameBytes}`, new TextEncoder().encode(secret));
  });

  for (const [alg, row] of Object.entries(ASYMMETRIC)) {
    it(`${alg}: the service's token verifies with node:crypto, and a node:crypto token verifies through the service`, async () => {
      const { privateKey, publicKey } = row.keys();
      const res = await post('jwt-generate', {
        algorithm: alg,
        private_key: pem(privateKey),
        payload: { role: 'admin' },
        issuer: 'devutil',
        audience: ['a', 'b'],
      });
      assert.equal(res.statusCode, 200, res.body);
      const { token, header, payload } = res.json();
      assert.deepEqual(header, { typ: 'JWT', alg });
      assert.deepEqual(Object.keys(payload).sort(), ['aud', 'iat', 'iss', 'role']);
      const [h, p, s] = token.split('.');
      assert.ok(
        verify(row.hash, Buffer.from(`${h}.${p}`), { key: publicKey, ...row.options }, Buffer.from(s, 'base64url')),
        'node:crypto rejects the signature',
      );
      assert.deepEqual(JSON.parse(Buffer.from(p, 'base64url').toString()), payload);

      const input = `${b64url({ alg })}.${b64url({ sub: 'node', aud: 'b', iss: 'devutil' })}`;
      const signature = sign(row.hash, Buffer.from(input), { key: privateKey, ...row.options }).toString('base64url');
      const verified = (
        await post('jwt-verify', { token: `${input}.${signature}`, public_key: pem(publicKey), issuer: 'devutil', audience: 'b' })
      ).json();
      assert.deepEqual(verified, { valid: true, header: { alg }, payload: { sub: 'node', aud: 'b', iss: 'devutil' } });
    });
  }

  it('takes PKCS#1 RSA and SEC1 EC private keys, JWKs, and public JWKs', async () => {
    const pkcs1 = String(rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }));
    assert.match(pkcs1, /BEGIN RSA PRIVATE KEY/);
    const rs = (await post('jwt-generate', { algorithm: 'RS256', private_key: pkcs1, payload: {} })).json();
    assert.equal((await post('jwt-verify', { token: rs.token, public_key: rsa.publicKey.export({ format: 'jwk' }) })).json().valid, true);

    const p256 = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const sec1 = String(p256.privateKey.export({ type: 'sec1', format: 'pem' }));
    assert.match(sec1, /BEGIN EC PRIVATE KEY/);
    const es = (await post('jwt-generate', { algorithm: 'ES256', private_key: sec1, payload: {} })).json();
    assert.equal((await post('jwt-verify', { token: es.token, public_key: pem(p256.publicKey) })).json().valid, true);

    const jwk = (
      await post('jwt-generate', { algorithm: 'ES256', private_key: p256.privateKey.export({ format: 'jwk' }), payload: {} })
    ).json();
    assert.equal((await post('jwt-verify', { token: jwk.token, public_key: p256.publicKey.export({ format: 'jwk' }) })).json().valid, true);

    // A JWK pasted as JSON text (as jwt.io's key boxes take it) is read as the JWK it spells.
    const asText = await post('jwt-generate', {
      algorithm: 'ES256',
      private_key: JSON.stringify(p256.privateKey.export({ format: 'jwk' }), null, 2),
      payload: {},
    });
    assert.equal(asText.statusCode, 200, asText.body);
    const verified = await post('jwt-verify', {
      token: asText.json().token,
      public_key: ` ${JSON.stringify(p256.publicKey.export({ format: 'jwk' }))}`,
    });
    assert.equal(verified.json().valid, true);
    // A private JWK's text offered as a public key works too (its public half), and text that is not a JWK is still a 422.
    assert.equal(
      (
        await post('jwt-verify', { token: asText.json().token, public_key: JSON.stringify(p256.privateKey.export({ format: 'jwk' })) })
      ).json().valid,
      true,
    );
    const notKey = await post('jwt-verify', { token: asText.json().token, public_key: '{"kty":"EC"}' });
    assert.equal(notKey.statusCode, 422);
    assert.equal(notKey.json().errors[0].path, 'public_key');
  });

  it('verifies many tokens against one public key (imported once, then cached), and a private key as public_key each time', async () => {
    const p256 = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const publicPem = pem(p256.publicKey);
    const privatePem = pem(p256.privateKey);
    const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    for (let i = 0; i < 3; i++) {
      const { token } = (await post('jwt-generate', { algorithm: 'ES256', private_key: privatePem, payload: { n: i } })).json();
      for (const public_key of [publicPem, p256.publicKey.export({ format: 'jwk' }), privatePem]) {
        const verified = (await post('jwt-verify', { token, public_key })).json();
        assert.equal(verified.valid, true, JSON.stringify(verified));
        assert.equal(verified.payload.n, i);
      }
      // The cached key is the right one: another key still fails, and ES256 still needs an EC key.
      assert.equal((await post('jwt-verify', { token, public_key: pem(other.publicKey) })).json().reason, 'invalid_signature');
      assert.equal((await post('jwt-verify', { token, public_key: pem(rsa.publicKey) })).json().reason, 'algorithm_not_allowed');
    }
  });

  it('keeps a "__proto__" claim as an ordinary claim', async () => {
    const body = '{"payload":{"__proto__":{"admin":true},"sub":"x"},"secret":"s3cret-s3cret-s3cret"}';
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/jwt-generate',
      headers: { ...t.auth, 'content-type': 'application/json' },
      payload: body,
    });
    assert.equal(res.statusCode, 200, res.body);
    const claims = JSON.parse(Buffer.from(res.json().token.split('.')[1], 'base64url').toString());
    assert.deepEqual(Object.getOwnPropertyDescriptor(claims, '__proto__')?.value, { admin: true });
    assert.equal(({} as Record<string, unknown>).admin, undefined);
  });

  // jose: an independent JOSE implementation.
  for (const alg of [...Object.keys(HMAC), ...Object.keys(ASYMMETRIC)]) {
    it(`${alg}: jose verifies the service's token, and the service verifies jose's`, async () => {
      const hmac = alg in HMAC;
      const secret = randomBytes(48);
      const { privateKey, publicKey } = hmac ? { privateKey: secret, publicKey: secret } : ASYMMETRIC[alg].keys();
      const signKey = hmac
        ? { secret: secret.toString('base64url'), secret_encoding: 'base64url' }
        : { private_key: pem(privateKey as KeyObject) };
      const verifyKey = hmac ? signKey : { public_key: pem(publicKey as KeyObject) };

      const res = await post('jwt-generate', {
        algorithm: alg,
        ...signKey,
        payload: { role: 'admin' },
        issuer: 'devutil',
        expires_in: 600,
      });
      assert.equal(res.statusCode, 200, res.body);
      const { payload, protectedHeader } = await jwtVerify(res.json().token, publicKey, { issuer: 'devutil', algorithms: [alg] });
      assert.deepEqual(protectedHeader, { typ: 'JWT', alg });
      assert.equal(payload.role, 'admin');
      assert.equal(payload.exp, (payload.iat as number) + 600);

      const token = await new SignJWT({ sub: 'jose' }).setProtectedHeader({ alg }).setIssuedAt().setAudience('svc').sign(privateKey);
      const verified = (await post('jwt-verify', { token, ...verifyKey, audience: 'svc' })).json();
      assert.equal(verified.valid, true, JSON.stringify(verified));
      assert.equal(verified.payload.sub, 'jose');
      const [h, p, sig] = token.split('.');
      const flipped = Buffer.from(sig, 'base64url');
      flipped[0] ^= 1;
      const tampered = `${h}.${p}.${flipped.toString('base64url')}`;
      assert.equal((await post('jwt-verify', { token: tampered, ...verifyKey, audience: 'svc' })).json().reason, 'invalid_signature');
    });
  }
});
