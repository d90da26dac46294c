import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

interface Vector {
  request: Record<string, unknown>;
  formatted: string;
}
const VECTORS: Vector[] = JSON.parse(readFileSync(new URL('./fixtures/number-format-vectors.json', import.meta.url), 'utf8'));

describe('POST /v1/number-format', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const format = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/v1/number-format', headers: t.auth, payload });

  it('covers at least 8 locales in its known answers', () => {
    const locales = new Set(VECTORS.map((v) => String(v.request.locale).replace('-', '_')));
    assert.ok(locales.size >= 8, `only ${locales.size} locales`);
  });

  for (const v of VECTORS) {
    const { locale, format_type: type, number, currency, decimals } = v.request;
    it(`${locale} ${type} ${number}${currency ? ` ${currency}` : ''}${decimals !== undefined ? ` decimals=${decimals}` : ''} → ${JSON.stringify(v.formatted)}`, async () => {
      const res = await format(v.request);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      // Compare code points so a narrow no-break space (U+202F) is not mistaken for U+00A0 or U+0020.
      assert.deepEqual(
        [...body.formatted].map((c: string) => c.codePointAt(0)),
        [...v.formatted].map((c) => c.codePointAt(0)),
      );
      assert.deepEqual(body, { formatted: v.formatted, original: number, locale: String(locale).replace('-', '_'), format_type: type });
    });
  }

  it('nb_NO (Norwegian Bokmål, whose CLDR data ICU keeps under nb alone) is known and formats as nb does', async () => {
    const res = await format({ number: 1234567.891, format_type: 'currency', locale: 'nb_NO', currency: 'NOK' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      formatted: '1\u00A0234\u00A0567,89\u00A0kr',
      original: 1234567.891,
      locale: 'nb_NO',
      format_type: 'currency',
    });
    // Its language alone with another region is still checked region by region.
    assert.equal((await format({ number: 1, locale: 'nb_ZZ' })).statusCode, 422);
  });

  it('fr_FR groups with U+202F NARROW NO-BREAK SPACE and puts U+00A0 before the euro sign', async () => {
    const res = await format({ number: 1234567.891, format_type: 'currency', locale: 'fr_FR', currency: 'EUR' });
    assert.equal(res.json().formatted, '1\u202F234\u202F567,89\u00A0\u20AC');
  });

  it('ISO 4217 codes outside CLDR\'s currencies are accepted, shown by their code: gold, a fund code, "no currency"', async () => {
    const formatted = async (currency: string) =>
      (await format({ number: 1234.5, format_type: 'currency', locale: 'en_US', currency })).json().formatted;
    assert.deepEqual(
      [await formatted('XAU'), await formatted('CLF'), await formatted('XXX')],
      ['XAU\u00A01,234.50', 'CLF\u00A01,234.5000', '¤1,234.50'],
    );
  });

  it('defaults to decimal in en_US', async () => {
    const res = await format({ number: 1234.5 });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { formatted: '1,234.5', original: 1234.5, locale: 'en_US', format_type: 'decimal' });
  });

  it('accepts en-US and lower-case tags and answers in ll_CC form', async () => {
    const res = await format({ number: 1, locale: 'pt-br', format_type: 'percent' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { formatted: '100%', original: 1, locale: 'pt_BR', format_type: 'percent' });
  });

  const rejections: [string, Record<string, unknown>, string][] = [
    ['an unknown locale (no silent fallback to the language)', { number: 1, locale: 'en_ZZ' }, 'locale'],
    ['a locale with no CLDR data', { number: 1, locale: 'xx_YY' }, 'locale'],
    ['a malformed locale', { number: 1, locale: 'en_US.UTF-8' }, 'locale'],
    ['an unknown currency', { number: 1, format_type: 'currency', currency: 'XYZ' }, 'currency'],
    ['a withdrawn currency (HRK, replaced by the euro in 2023)', { number: 1, format_type: 'currency', currency: 'HRK' }, 'currency'],
    ['an unknown currency with another format', { number: 1, format_type: 'decimal', currency: 'ABC' }, 'currency'],
    ['currency format without a currency', { number: 1, format_type: 'currency' }, 'currency'],
    ['number as a string', { number: '1234.5' }, 'number'],
    ['a missing number', { format_type: 'decimal' }, 'number'],
    ['an unknown format_type', { number: 1, format_type: 'roman' }, 'format_type'],
    ['decimals above 20', { number: 1, decimals: 21 }, 'decimals'],
    ['negative decimals', { number: 1, decimals: -1 }, 'decimals'],
    ['fractional decimals', { number: 1, decimals: 1.5 }, 'decimals'],
    ['an unknown field', { number: 1, style: 'x' }, 'style'],
    // Lengths in characters: two UTF-16 units of one emoji are one character, fewer than 3.
    ['a currency of two characters', { number: 1, format_type: 'currency', currency: 'EU' }, 'currency'],
    ['a currency of one astral character', { number: 1, format_type: 'currency', currency: '😀' }, 'currency'],
    ['a currency of four characters', { number: 1, format_type: 'currency', currency: 'EURO' }, 'currency'],
    ['a one-character locale', { number: 1, locale: 'e' }, 'locale'],
  ];
  for (const [name, payload, path] of rejections) {
    it(`422 for ${name}`, async () => {
      const res = await format(payload);
      assert.equal(res.statusCode, 422, res.body);
      const body = res.json();
      assert.equal(body.code, 'validation_error');
      assert.deepEqual(
        body.errors.map((e: { path: string }) => e.path),
        [path],
      );
    });
  }

  it('length limits count characters (code points) and name the limit in characters', async () => {
    for (const [currency, message] of [
      ['😀', 'must NOT have fewer than 3 characters'],
      // Four UTF-16 units, two characters: still too short.
      ['😀😀', 'must NOT have fewer than 3 characters'],
      ['EURO', 'must NOT have more than 3 characters'],
      ['😀😀😀😀', 'must NOT have more than 3 characters'],
    ]) {
      const res = await format({ number: 1, format_type: 'currency', currency });
      assert.deepEqual(res.json().errors, [{ path: 'currency', message }], currency);
    }
  });
});
