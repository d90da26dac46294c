import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL('./fixtures/mock-data-print.ts', import.meta.url));

/** Many types, every output format's input, nullable fields, regex and a non-default locale. */
const REQUEST = {
  fields: [
    { name: 'id', type: 'sequence' },
    { name: 'uuid', type: 'uuid' },
    { name: 'ulid', type: 'ulid' },
    { name: 'name', type: 'name', options: { nullable: true, null_ratio: 0.25 } },
    { name: 'price', type: 'price', options: { min: 1, max: 99.5 } },
    { name: 'when', type: 'datetime' },
    { name: 'code', type: 'regex', options: { pattern: '[A-Z]{2}(-\\d{2,5})+' } },
    { name: 'para', type: 'paragraph' },
    { name: 'pick', type: 'enum', options: { values: ['a', 'b', 'c'] } },
  ],
  rows: 200,
  locale: 'fr_FR',
  seed: 123456789012,
  output_format: 'sql',
};

/** Body printed by a fresh `node --import tsx` process, with its own time zone. */
async function generateInChild(tz: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', SCRIPT, JSON.stringify(REQUEST)], {
    env: { ...process.env, TZ: tz, LOG_LEVEL: 'silent' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

describe('mock-data determinism across processes', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('two separate processes (different TZ) and this one give byte-identical output for the same seed', async () => {
    const [first, second] = await Promise.all([generateInChild('UTC'), generateInChild('Pacific/Kiritimati')]);
    assert.match(first, /^200\n\{"data":"CREATE TABLE \\"mock_data\\" \(/);
    assert.equal(first, second);
    const here = await t.app.inject({ method: 'POST', url: '/v1/mock-data', headers: t.auth, payload: REQUEST });
    assert.equal(`${here.statusCode}\n${here.body}`, first);
  });

  it('earlier calls in the same process (other seeds, no seed, other locales, a refused one) change nothing', async () => {
    const expected = await generateInChild('UTC');
    const others = [
      { ...REQUEST, seed: 1 },
      { ...REQUEST, seed: undefined, rows: 7 },
      { ...REQUEST, locale: 'de_DE', output_format: 'json' },
      { ...REQUEST, fields: [...REQUEST.fields, { name: 'bad', type: 'price', options: { min: 5, max: 1 } }] },
    ];
    for (const payload of others) await t.app.inject({ method: 'POST', url: '/v1/mock-data', headers: t.auth, payload });
    const here = await t.app.inject({ method: 'POST', url: '/v1/mock-data', headers: t.auth, payload: REQUEST });
    assert.equal(`${here.statusCode}\n${here.body}`, expected);
    // And the request in between gave its own seed's output, not one shifted by the calls before it.
    const seeded = (seed: number) =>
      t.app.inject({ method: 'POST', url: '/v1/mock-data', headers: t.auth, payload: { ...REQUEST, seed } }).then((r) => r.body);
    assert.equal(await seeded(1), await seeded(1));
  });
});
