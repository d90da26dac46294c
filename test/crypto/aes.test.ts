import assert from 'node:assert/strict';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import gcm from './fixtures/gcm-test-case-16.json' with { type: 'json' };

function flipBit(base64: string, byte = 0): string {
  const buf = Buffer.from(base64, 'base64');
  buf[byte] ^= 0x01;
  return buf.toString('base64');
}

describe('AES-256-GCM encrypt/decrypt', () => {
  let t: TestApp;
  const post = (url: string, body: object) => t.app.inject({ method: 'POST', url, headers: t.auth, payload: body });
  const key = randomBytes(32).toString('base64');
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('GCM specification test case 16 (AES-256, AAD) decrypts through the API', async () => {
    const res = await post('/v1/auth/decrypt', {
      ciphertext: gcm.ciphertext,
      ciphertext_encoding: 'hex',
      iv: gcm.iv,
      iv_encoding: 'hex',
      tag: gcm.tag,
      tag_encoding: 'hex',
      key: gcm.key,
      key_encoding: 'hex',
      aad: gcm.aad,
      aad_encoding: 'hex',
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { plaintext: gcm.plaintext, plaintext_encoding: 'hex' });
  });

  it('test case 16 with every input as base64 (the defaults)', async () => {
    const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');
    const res = await post('/v1/auth/decrypt', {
      ciphertext: b64(gcm.ciphertext),
      iv: b64(gcm.iv),
      tag: b64(gcm.tag),
      key: b64(gcm.key),
      aad: b64(gcm.aad),
      aad_encoding: 'base64',
      plaintext_encoding: 'hex',
    });
    assert.deepEqual(res.json(), { plaintext: gcm.plaintext, plaintext_encoding: 'hex' });
  });

  it('test case 16: the wrong AAD (as UTF-8 text instead of hex) fails', async () => {
    const res = await post('/v1/auth/decrypt', {
      ciphertext: gcm.ciphertext,
      ciphertext_encoding: 'hex',
      iv: gcm.iv,
      iv_encoding: 'hex',
      tag: gcm.tag,
      tag_encoding: 'hex',
      key: gcm.key,
      key_encoding: 'hex',
      aad: gcm.aad,
    });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'decryption_failed');
  });

  it('encrypt with a key: 12-byte IV, 16-byte tag, base64; an independent node:crypto decrypt agrees', async () => {
    const res = await post('/v1/auth/encrypt', { plaintext: 'attack at dawn', key, aad: 'user:42' });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['algorithm', 'ciphertext', 'iv', 'tag']);
    assert.equal(body.algorithm, 'aes-256-gcm');
    assert.equal(Buffer.from(body.iv, 'base64').length, 12);
    assert.equal(Buffer.from(body.tag, 'base64').length, 16);
    const d = createDecipheriv('aes-256-gcm', Buffer.from(key, 'base64'), Buffer.from(body.iv, 'base64'));
    d.setAAD(Buffer.from('user:42'));
    d.setAuthTag(Buffer.from(body.tag, 'base64'));
    assert.equal(Buffer.concat([d.update(Buffer.from(body.ciphertext, 'base64')), d.final()]).toString(), 'attack at dawn');
    const back = await post('/v1/auth/decrypt', { ...body, key, aad: 'user:42' });
    assert.deepEqual(back.json(), { plaintext: 'attack at dawn', plaintext_encoding: 'utf8' });
  });

  it('decrypts what an independent node:crypto encrypt produced (hex key)', async () => {
    const k = randomBytes(32);
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', k, iv);
    const ct = Buffer.concat([c.update('héllo'), c.final()]);
    const res = await post('/v1/auth/decrypt', {
      ciphertext: ct.toString('base64'),
      iv: iv.toString('base64'),
      tag: c.getAuthTag().toString('base64'),
      key: k.toString('hex'),
      key_encoding: 'hex',
    });
    assert.deepEqual(res.json(), { plaintext: 'héllo', plaintext_encoding: 'utf8' });
  });

  it('every call draws a fresh IV', async () => {
    const a = (await post('/v1/auth/encrypt', { plaintext: 'same', key })).json();
    const b = (await post('/v1/auth/encrypt', { plaintext: 'same', key })).json();
    assert.notEqual(a.iv, b.iv);
    assert.notEqual(a.ciphertext + a.tag, b.ciphertext + b.tag);
  });

  it('with neither key nor passphrase a fresh 32-byte key is generated and returned', async () => {
    const res = await post('/v1/auth/encrypt', { plaintext: 'secret' });
    const body = res.json();
    assert.equal(Buffer.from(body.key, 'base64').length, 32);
    const back = await post('/v1/auth/decrypt', { ciphertext: body.ciphertext, iv: body.iv, tag: body.tag, key: body.key });
    assert.equal(back.json().plaintext, 'secret');
  });

  it('with a passphrase: scrypt with a random 16-byte salt, parameters returned, round trip', async () => {
    const res = await post('/v1/auth/encrypt', { plaintext: 'hello', passphrase: 'correct horse battery staple' });
    const body = res.json();
    assert.equal(body.kdf, 'scrypt');
    assert.deepEqual(body.kdf_params, { log_n: 15, r: 8, p: 1 });
    assert.equal(Buffer.from(body.salt, 'base64').length, 16);
    assert.equal(body.key, undefined);
    const back = await post('/v1/auth/decrypt', {
      ciphertext: body.ciphertext,
      iv: body.iv,
      tag: body.tag,
      passphrase: 'correct horse battery staple',
      salt: body.salt,
      kdf_params: body.kdf_params,
    });
    assert.deepEqual(back.json(), { plaintext: 'hello', plaintext_encoding: 'utf8' });
    const wrong = await post('/v1/auth/decrypt', {
      ciphertext: body.ciphertext,
      iv: body.iv,
      tag: body.tag,
      passphrase: 'Correct horse battery staple',
      salt: body.salt,
    });
    assert.equal(wrong.statusCode, 422);
    assert.equal(wrong.json().code, 'decryption_failed');
  });

  it('scrypt runs off the main thread: /healthz answers while 4 passphrase encryptions are in flight', async () => {
    const started = performance.now();
    const heavy = Array.from({ length: 4 }, () =>
      post('/v1/auth/encrypt', { plaintext: 'x', passphrase: 'pw', kdf_params: { log_n: 15, r: 8, p: 1 } }),
    );
    let heavyDone = false;
    void Promise.all(heavy).then(() => (heavyDone = true));
    await new Promise((r) => setImmediate(r));
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    const healthMs = performance.now() - started;
    assert.equal(health.statusCode, 200);
    assert.equal(heavyDone, false, 'the health check should not have waited for scrypt');
    assert.ok(healthMs < 100, `healthz took ${healthMs} ms`);
    for (const res of await Promise.all(heavy)) assert.equal(res.statusCode, 200);
  });

  it('binary plaintext comes back as hex unless plaintext_encoding asks for base64', async () => {
    const enc = (await post('/v1/auth/encrypt', { plaintext: 'ff00fe', plaintext_encoding: 'hex', key })).json();
    const auto = await post('/v1/auth/decrypt', { ciphertext: enc.ciphertext, iv: enc.iv, tag: enc.tag, key });
    assert.deepEqual(auto.json(), { plaintext: 'ff00fe', plaintext_encoding: 'hex' });
    const b64 = await post('/v1/auth/decrypt', { ciphertext: enc.ciphertext, iv: enc.iv, tag: enc.tag, key, plaintext_encoding: 'base64' });
    assert.deepEqual(b64.json(), { plaintext: '/wD+', plaintext_encoding: 'base64' });
  });

  describe('the encrypt response sent back to decrypt as it is (algorithm and kdf included)', () => {
    it('with a key', async () => {
      const sealed = (await post('/v1/auth/encrypt', { plaintext: 'round trip', key, aad: 'ctx' })).json();
      assert.equal(sealed.algorithm, 'aes-256-gcm');
      const res = await post('/v1/auth/decrypt', { ...sealed, key, aad: 'ctx' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { plaintext: 'round trip', plaintext_encoding: 'utf8' });
    });

    it('with a passphrase (salt, kdf and kdf_params as returned)', async () => {
      const sealed = (
        await post('/v1/auth/encrypt', { plaintext: 'round trip', passphrase: 'pw', kdf_params: { log_n: 10, r: 8, p: 1 } })
      ).json();
      assert.deepEqual([sealed.algorithm, sealed.kdf], ['aes-256-gcm', 'scrypt']);
      const res = await post('/v1/auth/decrypt', { ...sealed, passphrase: 'pw' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { plaintext: 'round trip', plaintext_encoding: 'utf8' });
    });

    it('with a generated key (the response already holds the key)', async () => {
      const sealed = (await post('/v1/auth/encrypt', { plaintext: 'round trip' })).json();
      assert.deepEqual(Object.keys(sealed).sort(), ['algorithm', 'ciphertext', 'iv', 'key', 'tag']);
      const res = await post('/v1/auth/decrypt', sealed);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { plaintext: 'round trip', plaintext_encoding: 'utf8' });
    });

    for (const [name, change, path] of [
      ['algorithm other than aes-256-gcm', { algorithm: 'aes-128-gcm' }, 'algorithm'],
      ['kdf other than scrypt', { kdf: 'pbkdf2' }, 'kdf'],
    ] as const) {
      it(`${name} → 422 on ${path}`, async () => {
        const sealed = (await post('/v1/auth/encrypt', { plaintext: 'x', passphrase: 'pw', kdf_params: { log_n: 10, r: 8, p: 1 } })).json();
        const res = await post('/v1/auth/decrypt', { ...sealed, passphrase: 'pw', ...change });
        assert.equal(res.statusCode, 422);
        assert.equal(res.json().code, 'validation_error');
        assert.equal(res.json().errors[0].path, path);
      });
    }

    it('kdf with a key (no passphrase) → 422 on kdf', async () => {
      const sealed = (await post('/v1/auth/encrypt', { plaintext: 'x', key })).json();
      const res = await post('/v1/auth/decrypt', { ...sealed, key, kdf: 'scrypt' });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json().errors, [{ path: 'kdf', message: 'applies only with a passphrase' }]);
    });
  });

  describe('a 64-hex-digit key without key_encoding is read as hex', () => {
    const raw = randomBytes(32);
    for (const [name, hexKey] of [
      ['lowercase', raw.toString('hex')],
      ['uppercase', raw.toString('hex').toUpperCase()],
    ] as const) {
      it(`${name}: encrypt and decrypt both take it; an independent node:crypto decrypt agrees`, async () => {
        const sealed = (await post('/v1/auth/encrypt', { plaintext: 'hex key', key: hexKey })).json();
        const d = createDecipheriv('aes-256-gcm', raw, Buffer.from(sealed.iv, 'base64'));
        d.setAuthTag(Buffer.from(sealed.tag, 'base64'));
        assert.equal(Buffer.concat([d.update(Buffer.from(sealed.ciphertext, 'base64')), d.final()]).toString(), 'hex key');
        const back = await post('/v1/auth/decrypt', { ...sealed, key: hexKey });
        assert.deepEqual(back.json(), { plaintext: 'hex key', plaintext_encoding: 'utf8' });
        const asBase64 = await post('/v1/auth/decrypt', { ...sealed, key: raw.toString('base64') });
        assert.deepEqual(asBase64.json(), { plaintext: 'hex key', plaintext_encoding: 'utf8' });
      });
    }

    it('key_encoding base64 still reads 64 hex digits as base64 (48 bytes → 422)', async () => {
      const res = await post('/v1/auth/encrypt', { plaintext: 'x', key: raw.toString('hex'), key_encoding: 'base64' });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json().errors, [{ path: 'key', message: 'must be 32 bytes (AES-256), got 48 reading it as base64' }]);
    });

    it('a 64-hex-digit key with a line break (pasted) is still hex', async () => {
      const res = await post('/v1/auth/encrypt', {
        plaintext: 'x',
        key: `${raw.toString('hex').slice(0, 32)}\n${raw.toString('hex').slice(32)}\n`,
      });
      assert.equal(res.statusCode, 200, res.body);
    });

    it('a 16-byte key in 32 hex digits is refused with a message that says how it was read', async () => {
      const res = await post('/v1/auth/encrypt', { plaintext: 'x', key: '00112233445566778899aabbccddeeff' });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json().errors, [
        {
          path: 'key',
          message:
            'must be 32 bytes (AES-256), got 24 reading it as base64 (a key is hex only when it is exactly 64 hex digits; as hex these 32 digits are 16 bytes)',
        },
      ]);
    });

    it('63 or 65 hex digits are not hex keys: read as base64 and refused', async () => {
      for (const k of [raw.toString('hex').slice(1), `${raw.toString('hex')}0`]) {
        const res = await post('/v1/auth/encrypt', { plaintext: 'x', key: k });
        assert.equal(res.statusCode, 422);
        assert.equal(res.json().errors[0].path, 'key');
      }
    });
  });

  describe('tampering → 422 decryption_failed', () => {
    let sealed: { ciphertext: string; iv: string; tag: string };
    before(async () => {
      const body = (await post('/v1/auth/encrypt', { plaintext: 'the quick brown fox', key, aad: 'ctx' })).json();
      sealed = { ciphertext: body.ciphertext, iv: body.iv, tag: body.tag };
    });
    for (const [name, change] of [
      ['flipped bit in the ciphertext', (s: typeof sealed) => ({ ...s, ciphertext: flipBit(s.ciphertext, 3) })],
      ['flipped bit in the IV', (s: typeof sealed) => ({ ...s, iv: flipBit(s.iv) })],
      ['flipped bit in the tag', (s: typeof sealed) => ({ ...s, tag: flipBit(s.tag, 15) })],
      ['wrong key', (s: typeof sealed) => ({ ...s, key: randomBytes(32).toString('base64') })],
      ['wrong AAD', (s: typeof sealed) => ({ ...s, aad: 'ctx2' })],
      ['missing AAD', (s: typeof sealed) => ({ ...s, aad: undefined })],
    ] as const) {
      it(name, async () => {
        const res = await post('/v1/auth/decrypt', { key, aad: 'ctx', ...change(sealed) });
        assert.equal(res.statusCode, 422);
        assert.deepEqual(res.json(), { detail: 'Decryption failed: wrong key or tampered data.', code: 'decryption_failed' });
      });
    }
  });

  describe('bad input → 422 validation_error', () => {
    const sealedish = { ciphertext: 'AAAA', iv: randomBytes(12).toString('base64'), tag: randomBytes(16).toString('base64') };
    for (const [name, url, body, path] of [
      ['AES key of 31 bytes (encrypt)', '/v1/auth/encrypt', { plaintext: 'x', key: randomBytes(31).toString('base64') }, 'key'],
      ['AES key of 31 bytes (decrypt)', '/v1/auth/decrypt', { ...sealedish, key: randomBytes(31).toString('base64') }, 'key'],
      [
        'AES key of 33 bytes as hex',
        '/v1/auth/encrypt',
        { plaintext: 'x', key: randomBytes(33).toString('hex'), key_encoding: 'hex' },
        'key',
      ],
      ['key that is not base64', '/v1/auth/encrypt', { plaintext: 'x', key: 'not base64!' }, 'key'],
      [
        'key and passphrase together',
        '/v1/auth/encrypt',
        { plaintext: 'x', key: randomBytes(32).toString('base64'), passphrase: 'p' },
        'passphrase',
      ],
      ['IV of 16 bytes', '/v1/auth/decrypt', { ...sealedish, iv: randomBytes(16).toString('base64'), key }, 'iv'],
      ['tag of 12 bytes', '/v1/auth/decrypt', { ...sealedish, tag: randomBytes(12).toString('base64'), key }, 'tag'],
      ['decrypt without key or passphrase', '/v1/auth/decrypt', sealedish, 'key'],
      ['passphrase without salt', '/v1/auth/decrypt', { ...sealedish, passphrase: 'p' }, 'salt'],
      [
        'scrypt log_n beyond the bound',
        '/v1/auth/encrypt',
        { plaintext: 'x', passphrase: 'p', kdf_params: { log_n: 30, r: 8, p: 1 } },
        'kdf_params.log_n',
      ],
      ['kdf_params without a passphrase', '/v1/auth/encrypt', { plaintext: 'x', kdf_params: { log_n: 15, r: 8, p: 1 } }, 'kdf_params'],
      ['salt with a key', '/v1/auth/decrypt', { ...sealedish, key, salt: 'AAAAAAAAAAAAAAAAAAAAAA==' }, 'salt'],
      ['kdf without key or passphrase', '/v1/auth/decrypt', { ...sealedish, kdf: 'scrypt' }, 'kdf'],
      ['plaintext missing', '/v1/auth/encrypt', {}, 'plaintext'],
      ['unknown field', '/v1/auth/encrypt', { plaintext: 'x', mode: 'cbc' }, 'mode'],
    ] as const) {
      it(name, async () => {
        const res = await post(url, body);
        assert.equal(res.statusCode, 422);
        assert.equal(res.json().code, 'validation_error');
        assert.equal(res.json().errors[0].path, path);
      });
    }
  });
});
