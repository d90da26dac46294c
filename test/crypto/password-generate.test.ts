import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const CLASSES = {
  uppercase: /[A-Z]/,
  lowercase: /[a-z]/,
  digits: /[0-9]/,
  symbols: /[!#$%&()*+,\-./:;<=>?@[\]^_{|}~]/,
};

describe('generate-password and password-strength', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const generate = (query: string) => t.app.inject({ method: 'GET', url: `/v1/auth/generate-password${query}`, headers: t.auth });
  const strength = (payload: object) => t.app.inject({ method: 'POST', url: '/v1/auth/password-strength', headers: t.auth, payload });

  it('generates one 16-character password with every class by default', async () => {
    const res = await generate('');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.length, 16);
    assert.equal(body.count, 1);
    assert.equal(body.passwords.length, 1);
    assert.equal(body.passwords[0].length, 16);
    for (const re of Object.values(CLASSES)) assert.match(body.passwords[0], re);
    // 26+26+10+28 = 90 characters; the every-class constraint removes a little under 1 bit.
    assert.ok(body.entropy_bits > 103 && body.entropy_bits < 16 * Math.log2(90), String(body.entropy_bits));
  });

  it('puts every enabled class in every password, even at the minimum length', async () => {
    const body = (await generate('?length=8&count=50')).json();
    assert.equal(body.passwords.length, 50);
    for (const password of body.passwords) {
      assert.equal(password.length, 8);
      for (const re of Object.values(CLASSES)) assert.match(password, re);
    }
    assert.equal(new Set(body.passwords).size, 50);
  });

  it('honours disabled classes, exclude_ambiguous and exclude', async () => {
    const body = (await generate('?length=64&count=20&symbols=false&uppercase=false&exclude_ambiguous=true&exclude=abc')).json();
    for (const password of body.passwords) assert.match(password, /^[d-z2-9]+$/);
    for (const password of body.passwords) assert.doesNotMatch(password, /[l1o0]/);
  });

  it('exclude_ambiguous drops all of I l 1 | O 0 o from every class, and only those', async () => {
    const drawn = [];
    for (let i = 0; i < 3; i++) drawn.push(...(await generate('?length=128&count=50&exclude_ambiguous=true')).json().passwords);
    const seen = new Set(drawn.join(''));
    for (const c of 'Il1|O0o') assert.equal(seen.has(c), false, `${c} was drawn`);
    // 90 characters less the 7: with 19200 draws every one of the other 83 appears.
    assert.equal(seen.size, 83);
  });

  it('reports the exact entropy for a single class (digits only: length × log2 10)', async () => {
    const body = (await generate('?length=10&uppercase=false&lowercase=false&symbols=false')).json();
    assert.match(body.passwords[0], /^[0-9]{10}$/);
    assert.equal(body.entropy_bits, 33.22);
  });

  it('draws characters without bias (chi-square over 10 digits, 50 × 128 draws)', async () => {
    const body = (await generate('?length=128&count=50&uppercase=false&lowercase=false&symbols=false')).json();
    const counts = new Array(10).fill(0);
    for (const password of body.passwords) for (const c of password) counts[Number(c)]++;
    const expected = (50 * 128) / 10;
    const chi2 = counts.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
    // 9 degrees of freedom: p = 0.0001 at 33.7.
    assert.ok(chi2 < 33.7, `chi2 ${chi2} for ${counts}`);
  });

  it('draws the 90 characters of all four classes without bias (chi-square over 4 × 50 × 128 draws, which a `byte % 90` draw fails)', async () => {
    const passwords: string[] = [];
    for (let i = 0; i < 4; i++) passwords.push(...(await generate('?length=128&count=50')).json().passwords);
    const drawn = passwords.join('');
    const alphabet = [...new Set(drawn)].sort();
    assert.equal(alphabet.length, 90);
    const chi2 = (text: string) => {
      const counts = new Map<string, number>();
      for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
      const expected = text.length / alphabet.length;
      return alphabet.reduce((sum, c) => sum + ((counts.get(c) ?? 0) - expected) ** 2 / expected, 0);
    };
    // 89 degrees of freedom: p = 0.0001 at 147.35.
    const LIMIT = 147.35;
    assert.ok(chi2(drawn) < LIMIT, `chi2 ${chi2(drawn).toFixed(1)} over ${drawn.length} characters`);
    // The same statistic on as many characters drawn with modulo bias (76 of the 90 take 3 of 256
    // byte values, 14 take 2): expected about 500, so this test would catch such a generator.
    const biased = Array.from(randomBytes(drawn.length), (b) => alphabet[b % alphabet.length]).join('');
    assert.ok(chi2(biased) > LIMIT, `a modulo-biased draw scored only ${chi2(biased).toFixed(1)}`);
  });

  it('refuses every class disabled with 422', async () => {
    const res = await generate('?uppercase=false&lowercase=false&digits=false&symbols=false');
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'validation_error');
    assert.match(res.json().detail, /no character class/);
  });

  it('refuses an exclude that empties an enabled class', async () => {
    const res = await generate('?exclude=0123456789');
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().errors, [{ path: 'exclude', message: 'removes every character of the enabled class "digits"' }]);
  });

  for (const [query, path] of [
    ['?count=1000', 'count'],
    ['?count=0', 'count'],
    ['?length=7', 'length'],
    ['?length=129', 'length'],
    ['?symbols=maybe', 'symbols'],
    ['?colour=red', 'colour'],
  ]) {
    it(`refuses ${query} with 422 on ${path}`, async () => {
      const res = await generate(query);
      assert.equal(res.statusCode, 422);
      assert.equal(res.json().errors[0].path, path);
    });
  }

  it('rates a common password very weak, with feedback', async () => {
    const res = await strength({ password: 'password123' });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.score, 0);
    assert.equal(body.strength, 'very_weak');
    assert.equal(body.feedback.warning, 'This is a commonly used password.');
    assert.ok(body.feedback.suggestions.length > 0);
    assert.deepEqual(body.checks, { length: 11, lowercase: true, uppercase: false, digits: true, symbols: false });
    assert.ok(body.entropy_bits < 12);
    assert.equal(body.crack_time_display, 'less than a second');
  });

  it('rates a long random passphrase very strong', async () => {
    const body = (await strength({ password: 'Vq7#tK2m!Rz9pX4w&Lb8' })).json();
    assert.equal(body.score, 4);
    assert.equal(body.strength, 'very_strong');
    assert.equal(body.crack_time_display, 'centuries');
    assert.ok(body.entropy_bits > 60);
    assert.deepEqual(body.checks, { length: 20, lowercase: true, uppercase: true, digits: true, symbols: true });
  });

  it('counts user_inputs against the password', async () => {
    const without = (await strength({ password: 'zebulon1987!' })).json();
    const withInputs = (await strength({ password: 'zebulon1987!', user_inputs: ['zebulon'] })).json();
    assert.ok(withInputs.entropy_bits < without.entropy_bits, `${withInputs.entropy_bits} < ${without.entropy_bits}`);
  });

  it('still reads l33t spellings, and rates a password of 128 markup symbols (beyond the 20-substitution cap) strong', async () => {
    const leet = (await strength({ password: 'P@ssw0rd' })).json();
    assert.equal(leet.strength, 'very_weak');
    const markup = `<svg onload=alert(1)>'"|!@$1|0<script>alert(1)</script>`.repeat(3).slice(0, 128);
    const res = await strength({ password: markup });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().strength, 'very_strong');
  });

  it('answers for a password longer than the estimator reads', async () => {
    const res = await strength({ password: 'x9!Kq'.repeat(200) });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().checks.length, 1000);
  });

  it('refuses a missing password and a non-array user_inputs', async () => {
    assert.equal((await strength({})).statusCode, 422);
    const res = await strength({ password: 'x', user_inputs: 'alice' });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().errors[0].path, 'user_inputs');
  });
});
