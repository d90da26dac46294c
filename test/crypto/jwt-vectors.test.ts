import assert from 'node:assert/strict';
import { createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp, type TestClock } from '../helpers/app.js';

const V = JSON.parse(readFileSync(new URL('./fixtures/jws-vectors.json', import.meta.url), 'utf8'));
// Before the RFC 7515 examples' exp (1300819380).
const RFC_TIME = 1_300_819_000_000;

// Changes the second-to-last character, whose bits all belong to the signature.
function flipLastSignatureChar(token: string): string {
  const replacement = token.at(-2) === 'A' ? 'B' : 'A';
  return token.slice(0, -2) + replacement + token.at(-1);
}

/** A clock that stands still unless moved, so `iat` is exact. */
function frozenClock(start: number): TestClock {
  let now = start;
  return { now: () => now, advance: (ms) => void (now += ms) };
}

describe('JWT published vectors', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ clock: frozenClock(RFC_TIME) });
  });
  after(() => t.close());

  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url: `/v1/auth/${url}`, headers: t.auth, payload });
  const a1 = V.rfc7515_a1_hs256;

  it('verifies the exact RFC 7515 A.1 HS256 token with its key', async () => {
    const res = await post('jwt-verify', { token: a1.token, secret: a1.jwk.k, secret_encoding: 'base64url' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { valid: true, header: a1.header, payload: a1.payload });
  });

  it('reports the RFC 7515 A.1 token as expired after its exp, and a changed signature as invalid', async () => {
    const key = { secret: a1.jwk.k, secret_encoding: 'base64url' };
    t.clock.advance(1_000_000);
    try {
      const expired = (await post('jwt-verify', { token: a1.token, ...key })).json();
      assert.equal(expired.valid, false);
      assert.equal(expired.reason, 'expired');
      // 620 s late: a tolerance of 700 s still accepts it.
      assert.equal((await post('jwt-verify', { token: a1.token, ...key, clock_tolerance: 700 })).json().valid, true);
    } finally {
      t.clock.advance(-1_000_000);
    }
    const tampered = (await post('jwt-verify', { token: flipLastSignatureChar(a1.token), ...key })).json();
    assert.deepEqual({ valid: tampered.valid, reason: tampered.reason }, { valid: false, reason: 'invalid_signature' });
  });

  it('decodes the RFC 7515 A.1 token', async () => {
    const res = await post('jwt-decode', { token: a1.token });
    assert.deepEqual(res.json(), { header: a1.header, payload: a1.payload, signature: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk' });
  });

  it('verifies the RFC 7515 A.3 ES256 token with its JWK', async () => {
    const a3 = V.rfc7515_a3_es256;
    const res = await post('jwt-verify', { token: a3.token, public_key: a3.jwk, algorithms: ['ES256'] });
    assert.deepEqual(res.json(), { valid: true, header: { alg: 'ES256' }, payload: a3.payload });
  });

  it('checks the RFC 8037 A.4 Ed25519 signature with its key (a JWS over text, so not a valid JWT)', async () => {
    const a4 = V.rfc8037_a4_eddsa;
    const good = (await post('jwt-verify', { token: a4.token, public_key: a4.public_jwk })).json();
    assert.equal(good.valid, false);
    assert.equal(good.reason, 'malformed');
    assert.match(good.error, /^the signature is valid but the payload is not JSON/);
    const bad = (await post('jwt-verify', { token: flipLastSignatureChar(a4.token), public_key: a4.public_jwk })).json();
    assert.deepEqual({ valid: bad.valid, reason: bad.reason }, { valid: false, reason: 'invalid_signature' });
    // jwt-decode wants a claims set too.
    assert.equal((await post('jwt-decode', { token: a4.token })).statusCode, 422);
  });

  it('signs EdDSA with the RFC 8037 key exactly as node:crypto does (Ed25519 is deterministic)', async () => {
    const a4 = V.rfc8037_a4_eddsa;
    const res = await post('jwt-generate', {
      algorithm: 'EdDSA',
      private_key: a4.jwk,
      payload: { sub: 'rfc8037' },
      header: { typ: 'JWT' },
    });
    assert.equal(res.statusCode, 200);
    const { token, header, payload } = res.json();
    assert.deepEqual(header, { typ: 'JWT', alg: 'EdDSA' });
    assert.deepEqual(payload, { sub: 'rfc8037', iat: RFC_TIME / 1000 });
    const [h, p, s] = token.split('.');
    const key = createPrivateKey({ key: a4.jwk, format: 'jwk' });
    assert.equal(sign(null, Buffer.from(`${h}.${p}`), key).toString('base64url'), s);
    assert.deepEqual((await post('jwt-verify', { token, public_key: a4.public_jwk })).json(), { valid: true, header, payload });
  });
});
