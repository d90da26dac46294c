import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import QRCode from 'qrcode';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import rfc6238 from './fixtures/rfc6238-totp.json' with { type: 'json' };
import rfc4648 from './fixtures/rfc4648.json' with { type: 'json' };

/** An independent RFC 6238 reference (node:crypto directly) to cross-check the API. */
function referenceTotp(secret: Buffer, timestamp: number, digits = 6, period = 30, hash = 'sha1'): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(timestamp / period)));
  const mac = createHmac(hash, secret).update(counter).digest();
  const offset = mac[mac.length - 1] & 15;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits).padStart(digits, '0');
}

function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of text.replace(/=+$/, '')) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  return Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
}

describe('TOTP', () => {
  let t: TestApp;
  const verify = (body: object) => t.app.inject({ method: 'POST', url: '/v1/auth/totp-verify', headers: t.auth, payload: body });
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  describe('RFC 6238 Appendix B (all 18 vectors)', () => {
    for (const v of rfc6238.vectors) {
      it(`${v.algorithm} at ${v.timestamp} gives ${v.code}`, async () => {
        const res = await verify({
          secret: v.secret,
          code: v.code,
          digits: 8,
          period: 30,
          algorithm: v.algorithm,
          window: 0,
          timestamp: v.timestamp,
        });
        assert.equal(res.statusCode, 200);
        assert.deepEqual(res.json(), { valid: true, delta: 0 });
      });
    }
  });

  it('a wrong code is not valid and delta is null', async () => {
    const v = rfc6238.vectors[0];
    const res = await verify({ secret: v.secret, code: '94287083', digits: 8, timestamp: 59 });
    assert.deepEqual(res.json(), { valid: false, delta: null });
  });

  it('the window accepts the previous and next step and reports the offset', async () => {
    const v = rfc6238.vectors.find((x) => x.timestamp === 1111111109 && x.algorithm === 'SHA1')!;
    const later = await verify({ secret: v.secret, code: v.code, digits: 8, timestamp: 1111111109 + 30 });
    assert.deepEqual(later.json(), { valid: true, delta: -1 });
    const earlier = await verify({ secret: v.secret, code: v.code, digits: 8, timestamp: 1111111109 - 30 });
    assert.deepEqual(earlier.json(), { valid: true, delta: 1 });
    const outside = await verify({ secret: v.secret, code: v.code, digits: 8, timestamp: 1111111109 + 60, window: 1 });
    assert.deepEqual(outside.json(), { valid: false, delta: null });
    const wide = await verify({ secret: v.secret, code: v.code, digits: 8, timestamp: 1111111109 + 60, window: 2 });
    assert.deepEqual(wide.json(), { valid: true, delta: -2 });
  });

  for (const [period, algorithm, hash] of [
    [60, 'SHA256', 'sha256'],
    [15, 'SHA512', 'sha512'],
    [300, 'SHA1', 'sha1'],
  ] as const) {
    it(`period ${period} (${algorithm}): a code counts ${period} s steps, and the window moves by ${period} s`, async () => {
      const secret = Buffer.from('12345678901234567890');
      const b32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
      const at = 1_800_000_000 + period - 1; // the last second of a step
      const code = referenceTotp(secret, at, 6, period, hash);
      // The same code as the 30 s step would give is only a coincidence: it is computed from at / period.
      assert.notEqual(code, referenceTotp(secret, at, 6, 30, hash));
      const base = { secret: b32, code, digits: 6, period, algorithm };
      assert.deepEqual((await verify({ ...base, window: 0, timestamp: at })).json(), { valid: true, delta: 0 });
      // Same step, its first second.
      assert.deepEqual((await verify({ ...base, window: 0, timestamp: at - period + 1 })).json(), { valid: true, delta: 0 });
      // One step later: outside a zero window, found one step back in a window of 1.
      assert.deepEqual((await verify({ ...base, window: 0, timestamp: at + 1 })).json(), { valid: false, delta: null });
      assert.deepEqual((await verify({ ...base, window: 1, timestamp: at + 1 })).json(), { valid: true, delta: -1 });
      // The code of the 30 s step at that time is not valid under this period.
      const thirty = referenceTotp(secret, at, 6, 30, hash);
      assert.deepEqual((await verify({ ...base, code: thirty, window: 0, timestamp: at })).json(), { valid: false, delta: null });
    });
  }

  it('timestamp defaults to the service clock', async () => {
    const secret = Buffer.from('12345678901234567890');
    const code = referenceTotp(secret, Math.floor(t.clock.now() / 1000));
    const res = await verify({ secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', code, window: 1 });
    assert.equal(res.json().valid, true);
  });

  it('an integer code is left-padded with zeros (07081804 sent as 7081804)', async () => {
    const v = rfc6238.vectors.find((x) => x.code === '07081804')!;
    const res = await verify({ secret: v.secret, code: 7081804, digits: 8, timestamp: v.timestamp, window: 0 });
    assert.deepEqual(res.json(), { valid: true, delta: 0 });
  });

  it('a code as authenticator apps show it ("0708 1804", spaces around) is read without its spaces; other text is a 422', async () => {
    const v = rfc6238.vectors.find((x) => x.code === '07081804')!;
    for (const code of ['0708 1804', ' 07081804 ']) {
      const res = await verify({ secret: v.secret, code, digits: 8, timestamp: v.timestamp, window: 0 });
      assert.deepEqual(res.json(), { valid: true, delta: 0 }, code);
    }
    for (const code of ['07 08 1804', '0708-1804', '']) {
      const res = await verify({ secret: v.secret, code, digits: 8, timestamp: v.timestamp, window: 0 });
      assert.equal(res.statusCode, 422, code);
    }
  });

  it('a code whose length differs from digits is not valid (not an error)', async () => {
    const v = rfc6238.vectors[0];
    const res = await verify({ secret: v.secret, code: v.code, digits: 6, timestamp: 59, window: 0 });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { valid: false, delta: null });
    const six = await verify({ secret: v.secret, code: v.code.slice(2), digits: 6, timestamp: 59, window: 0 });
    assert.deepEqual(six.json(), { valid: true, delta: 0 }, 'the 6-digit code is the last 6 digits of the 8-digit one');
  });

  describe('base32 secrets (RFC 4648 §10 vectors, padding optional, case and spaces tolerated)', () => {
    for (const v of rfc4648.base32.filter((x) => x.input !== '')) {
      it(`"${v.input}" as ${v.output}, unpadded and lowercase`, async () => {
        const code = referenceTotp(Buffer.from(v.input), 1_000_000);
        assert.deepEqual(base32Decode(v.output), Buffer.from(v.input));
        for (const secret of [v.output, v.output.replace(/=+$/, ''), v.output.toLowerCase().replace(/(.{4})/g, '$1 ')]) {
          const res = await verify({ secret, code, timestamp: 1_000_000, window: 0 });
          assert.equal(res.statusCode, 200, secret);
          assert.deepEqual(res.json(), { valid: true, delta: 0 }, secret);
        }
      });
    }
  });

  describe('bad input', () => {
    const base = { secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', code: '123456' };
    const cases: Array<[string, object, string]> = [
      ['digits 7', { ...base, digits: 7 }, 'digits'],
      ['unknown algorithm MD5', { ...base, algorithm: 'MD5' }, 'algorithm'],
      ['non-base32 secret (digit 1)', { ...base, secret: 'GEZDGNBVGY3TQOJ1' }, 'secret'],
      ['non-base32 secret (punctuation)', { ...base, secret: 'not-base32!' }, 'secret'],
      ['impossible base32 length', { ...base, secret: 'GEZ' }, 'secret'],
      ['wrong base32 padding', { ...base, secret: 'MZXW6YQ==' }, 'secret'],
      ['secret that decodes to nothing', { ...base, secret: '========' }, 'secret'],
      ['window too wide', { ...base, window: 1000 }, 'window'],
      ['period 0', { ...base, period: 0 }, 'period'],
      ['code with letters', { ...base, code: '12a456' }, 'code'],
      ['negative timestamp', { ...base, timestamp: -1 }, 'timestamp'],
      ['unknown field', { ...base, counter: 1 }, 'counter'],
    ];
    for (const [name, body, path] of cases) {
      it(`${name} → 422 on ${path}`, async () => {
        const res = await verify(body);
        assert.equal(res.statusCode, 422);
        assert.equal(res.json().code, 'validation_error');
        assert.ok(
          res.json().errors.some((e: { path: string }) => e.path === path),
          JSON.stringify(res.json().errors),
        );
      });
    }
    it('a code with letters is explained in words, not as the pattern that refused it', async () => {
      const res = await verify({ ...base, code: 'abcdef' });
      assert.deepEqual(res.json().errors, [
        { path: 'code', message: 'must be up to 10 digits, with at most one space inside (123 456) or must be integer' },
      ]);
    });
    it('totp-generate with an issuer and account too long for a QR code → 422, not 500', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v1/auth/totp-generate?issuer=${encodeURIComponent('😀'.repeat(128))}&account=${encodeURIComponent('😀'.repeat(256))}`,
        headers: t.auth,
      });
      assert.equal(res.statusCode, 422);
      assert.equal(res.json().code, 'validation_error');
      assert.equal(res.json().errors[0].path, 'account');
    });
    it('totp-generate with digits 7 or an unknown algorithm → 422', async () => {
      for (const q of ['digits=7', 'algorithm=SHA3']) {
        const res = await t.app.inject({ method: 'GET', url: `/v1/auth/totp-generate?${q}`, headers: t.auth });
        assert.equal(res.statusCode, 422, q);
        assert.equal(res.json().code, 'validation_error');
      }
    });
  });

  describe('totp-generate', () => {
    for (const [algorithm, bytes] of [
      ['SHA1', 20],
      ['SHA256', 32],
      ['SHA512', 64],
    ] as const) {
      it(`${algorithm}: a ${bytes}-byte secret, a percent-encoded otpauth URI and a PNG QR code`, async () => {
        const res = await t.app.inject({
          method: 'GET',
          url: `/v1/auth/totp-generate?issuer=${encodeURIComponent('ACME Co & Sons')}&account=${encodeURIComponent('ana+1@example.com')}&digits=8&period=60&algorithm=${algorithm}`,
          headers: t.auth,
        });
        assert.equal(res.statusCode, 200);
        const body = res.json();
        assert.match(body.secret, /^[A-Z2-7]+$/);
        assert.equal(base32Decode(body.secret).length, bytes);
        assert.equal(
          body.otpauth_uri,
          `otpauth://totp/ACME%20Co%20%26%20Sons:ana%2B1%40example.com?secret=${body.secret}&issuer=ACME%20Co%20%26%20Sons&algorithm=${algorithm}&digits=8&period=60`,
        );
        const uri = new URL(body.otpauth_uri);
        assert.equal(uri.searchParams.get('issuer'), 'ACME Co & Sons');
        assert.match(body.qr_code, /^data:image\/png;base64,/);
        assert.deepEqual(Buffer.from(body.qr_code.split(',')[1], 'base64').subarray(0, 8), Buffer.from('89504e470d0a1a0a', 'hex'));
        // QR rendering is deterministic: the same text gives the same PNG, so this proves the code holds the URI.
        assert.equal(body.qr_code, await QRCode.toDataURL(body.otpauth_uri, { errorCorrectionLevel: 'M', margin: 2 }));
        assert.equal(body.digits, 8);
        assert.equal(body.period, 60);
        assert.equal(body.algorithm, algorithm);
      });
    }

    it('defaults: 6 digits, 30 s, SHA1; the secret round-trips through totp-verify', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/auth/totp-generate', headers: t.auth });
      const body = res.json();
      assert.deepEqual([body.digits, body.period, body.algorithm, body.issuer, body.account], [6, 30, 'SHA1', 'devutil', 'user']);
      const code = referenceTotp(base32Decode(body.secret), 1_700_000_000);
      const check = await verify({ secret: body.secret, code, timestamp: 1_700_000_000 });
      assert.deepEqual(check.json(), { valid: true, delta: 0 });
    });
  });
});
