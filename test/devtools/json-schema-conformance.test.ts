import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const SUITE = join(import.meta.dirname, '../../../shared/conformance/json-schema');

/** The suite folder of each draft and the `draft` value the request sends. */
const DRAFT_FOLDERS: Array<[string, string, number]> = [
  ['draft4', '4', 618],
  ['draft6', '6', 839],
  ['draft7', '7', 927],
  ['draft2019-09', '2019-09', 1259],
  ['draft2020-12', '2020-12', 1299],
];

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

/** Every file of `remotes/`, keyed as the suite expects them served: http://localhost:1234/<path>. */
const REMOTES: Record<string, unknown> = Object.fromEntries(
  listFiles(join(SUITE, 'remotes'))
    .filter((path) => path.endsWith('.json'))
    .map((path) => [`http://localhost:1234/${relative(join(SUITE, 'remotes'), path)}`, JSON.parse(readFileSync(path, 'utf8'))]),
);

interface Group {
  description: string;
  schema: unknown;
  tests: Array<{ description: string; data: unknown; valid: boolean }>;
}

describe('JSON-Schema-Test-Suite through POST /v1/json-schema-validate', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  for (const [folder, draft, expectedCount] of DRAFT_FOLDERS) {
    it(`passes every required case of ${folder}`, async (ctx) => {
      const failures: string[] = [];
      let total = 0;
      for (const file of readdirSync(join(SUITE, folder))
        .filter((f) => f.endsWith('.json'))
        .sort()) {
        const text = readFileSync(join(SUITE, folder, file), 'utf8');
        const groups = JSON.parse(text) as Group[];
        // files that reach into remotes/ (refRemote, dynamicRef, vocabulary, ...) get every remote document
        const schemas = text.includes('localhost:1234') ? { schemas: REMOTES } : {};
        let fileTotal = 0;
        let filePassed = 0;
        for (const group of groups) {
          for (const test of group.tests) {
            fileTotal++;
            const payload = { data: test.data, schema: group.schema, draft, ...schemas };
            const res = await t.app.inject({ method: 'POST', url: '/v1/json-schema-validate', headers: t.auth, payload });
            const body = res.json();
            const ok =
              res.statusCode === 200 &&
              body.valid === test.valid &&
              (test.valid
                ? body.errors.length === 0
                : typeof body.error === 'string' && Array.isArray(body.path) && body.errors.length > 0);
            if (ok) filePassed++;
            else failures.push(`${file} | ${group.description} | ${test.description}: ${res.statusCode} ${res.body.slice(0, 300)}`);
          }
        }
        total += fileTotal;
        ctx.diagnostic(`${folder}/${file}: ${filePassed}/${fileTotal}`);
      }
      ctx.diagnostic(`${folder} total: ${total - failures.length}/${total}`);
      assert.equal(total, expectedCount);
      assert.deepEqual(failures, []);
    });
  }
});
