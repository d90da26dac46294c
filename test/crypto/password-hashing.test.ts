import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { assertFieldError } from '../helpers/assertions.js';

interface HashVector {
  source: string;
  algorithm: string;
  password: string;
  hash: string;
}

const { vectors } = JSON.parse(readFileSync(new URL('./fixtures/password-hash-vectors.json', import.meta.url), 'utf8')) as {
  vectors: HashVector[];
};

describe('hash-password and verify-password', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const post = (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url: `/v1/auth/${url}`, headers: t.auth, payload: payload as object });

  async function expectFieldError(url: string, payload: unknown, path: string, message?: RegExp) {
    assertFieldError(await post(url, payload), path, message);
  }

  it('hashes with argon2id and the OWASP parameters by default, and verifies', async () => {
    const res = await post('hash-password', { password: 'correct horse' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().algorithm, 'argon2id');
    assert.match(res.json().hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    assert.deepEqual((await post('verify-password', { password: 'correct horse', hash: res.json().hash })).json(), {
      valid: true,
      algorithm: 'argon2id',
    });
    assert.deepEqual((await post('verify-password', { password: 'correct horsE', hash: res.json().hash })).json(), {
      valid: false,
      algorithm: 'argon2id',
    });
  });

  it('takes argon2 memory_kib, iterations and parallelism', async () => {
    const res = await post('hash-password', { password: 'pw', algorithm: 'argon2id', memory_kib: 1024, iterations: 3, parallelism: 2 });
    assert.match(res.json().hash, /^\$argon2id\$v=19\$m=1024,t=3,p=2\$/);
  });

  it('hashes with bcrypt as $2b$ with the given cost (default 12), and verifies', async () => {
    const res = await post('hash-password', { password: 'hunter2', algorithm: 'bcrypt', cost: 4 });
    assert.deepEqual(Object.keys(res.json()).sort(), ['algorithm', 'hash']);
    assert.match(res.json().hash, /^\$2b\$04\$[./A-Za-z0-9]{53}$/);
    assert.deepEqual((await post('verify-password', { password: 'hunter2', hash: res.json().hash })).json(), {
      valid: true,
      algorithm: 'bcrypt',
    });
    assert.equal((await post('verify-password', { password: 'hunter3', hash: res.json().hash })).json().valid, false);
    const byDefault = await post('hash-password', { password: 'hunter2', algorithm: 'bcrypt' });
    assert.match(byDefault.json().hash, /^\$2b\$12\$/);
  });

  it('hashes with scrypt as a PHC string (ln=17, r=8, p=1 by default), and verifies', async () => {
    const res = await post('hash-password', { password: 'pässwörd', algorithm: 'scrypt' });
    assert.equal(res.statusCode, 200);
    assert.match(res.json().hash, /^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    assert.deepEqual((await post('verify-password', { password: 'pässwörd', hash: res.json().hash })).json(), {
      valid: true,
      algorithm: 'scrypt',
    });
    assert.equal((await post('verify-password', { password: 'passwörd', hash: res.json().hash })).json().valid, false);
    const small = await post('hash-password', { password: 'x', algorithm: 'scrypt', log_n: 10, r: 4, p: 2 });
    assert.match(small.json().hash, /^\$scrypt\$ln=10,r=4,p=2\$/);
  });

  for (const v of vectors) {
    it(`verifies the known ${v.algorithm} hash ${v.hash.slice(0, 32)}… (${v.source})`, async () => {
      assert.deepEqual((await post('verify-password', { password: v.password, hash: v.hash })).json(), {
        valid: true,
        algorithm: v.algorithm,
      });
      assert.deepEqual((await post('verify-password', { password: `${v.password}x`, hash: v.hash })).json(), {
        valid: false,
        algorithm: v.algorithm,
      });
    });
  }

  it('refuses an unknown algorithm name', () =>
    expectFieldError('hash-password', { password: 'x', algorithm: 'md5crypt' }, 'algorithm', /must be one of/));
  it('refuses bcrypt cost 3', () => expectFieldError('hash-password', { password: 'x', algorithm: 'bcrypt', cost: 3 }, 'cost'));
  it('refuses bcrypt cost 16', () => expectFieldError('hash-password', { password: 'x', algorithm: 'bcrypt', cost: 16 }, 'cost'));
  it('refuses an argon2 memory_kib of 4 GiB', () =>
    expectFieldError('hash-password', { password: 'x', memory_kib: 4 * 1024 * 1024 }, 'memory_kib'));
  it('refuses argon2 memory below 8 × parallelism', () =>
    expectFieldError('hash-password', { password: 'x', memory_kib: 16, parallelism: 4 }, 'memory_kib'));
  it('refuses scrypt parameters needing more than 256 MiB', () =>
    expectFieldError('hash-password', { password: 'x', algorithm: 'scrypt', log_n: 20, r: 8 }, 'log_n', /MiB/));
  it('refuses an option of another algorithm', () =>
    expectFieldError('hash-password', { password: 'x', algorithm: 'bcrypt', memory_kib: 1024 }, 'memory_kib', /does not apply to bcrypt/));
  it('refuses a cost given as a string', () =>
    expectFieldError('hash-password', { password: 'x', algorithm: 'bcrypt', cost: '10' }, 'cost'));

  it('refuses a 73-byte bcrypt password instead of truncating it (hash and verify)', async () => {
    await expectFieldError('hash-password', { password: 'a'.repeat(73), algorithm: 'bcrypt', cost: 4 }, 'password', /73 bytes/);
    // 72 bytes is the limit, counted in UTF-8 bytes: 36 × "é" is 72 bytes, one more "a" is 73.
    assert.equal((await post('hash-password', { password: 'é'.repeat(36), algorithm: 'bcrypt', cost: 4 })).statusCode, 200);
    await expectFieldError('hash-password', { password: `${'é'.repeat(36)}a`, algorithm: 'bcrypt', cost: 4 }, 'password', /73 bytes/);
    const known = vectors.find((v) => v.algorithm === 'bcrypt')!;
    await expectFieldError('verify-password', { password: 'a'.repeat(73), hash: known.hash }, 'password', /73 bytes/);
  });

  for (const garbage of [
    'garbage',
    '$2b$04$tooShort',
    '$argon2id$v=19$m=65536,t=2,p=1$!!$??',
    '$scrypt$ln=17,r=8$abc$def',
    '$1$salt$md5crypt',
    '',
  ]) {
    it(`verify-password refuses the garbage hash ${JSON.stringify(garbage)} with 422`, async () => {
      const res = await post('verify-password', { password: 'x', hash: garbage });
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().errors[0].path, 'hash');
    });
  }

  it('verify-password refuses hashes whose parameters exceed the limits (no 4 GiB argon2, no bcrypt cost 31)', async () => {
    await expectFieldError(
      'verify-password',
      { password: 'x', hash: '$argon2id$v=19$m=4194304,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc' },
      'hash',
      /limits/,
    );
    await expectFieldError(
      'verify-password',
      { password: 'x', hash: '$2b$31$DCq7YPn5Rq63x1Lad4cll.TV4S6ytwfsfvkgY8jIucDrjc8deX1s.' },
      'hash',
      /cost 31/,
    );
    await expectFieldError(
      'verify-password',
      { password: 'x', hash: '$scrypt$ln=30,r=8,p=1$TmFDbA$/bq+HJ00cgB4VucZDQHp/nxq18vII3gw53N2Y0s3MWI' },
      'hash',
    );
  });
});
