import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const CONFORMANCE = join(import.meta.dirname, '../../../shared/conformance');

interface Case {
  expression: string;
  result?: unknown;
  error?: string;
}

/** `error_type` the service must answer for a suite error name ("syntax" also covers lexer errors). */
function expectedTypes(suiteError: string): string[] {
  const type = suiteError.replace(/-/g, '_');
  return type === 'syntax' ? ['syntax', 'lexer'] : [type];
}

/** Run every case of one suite file through HTTP; returns the failures as readable lines. */
async function runFile(t: TestApp, file: string, legacyLiterals: boolean): Promise<{ total: number; failures: string[] }> {
  const groups = JSON.parse(readFileSync(file, 'utf8')) as Array<{ given: unknown; cases: Case[] }>;
  const failures: string[] = [];
  let total = 0;
  for (const group of groups) {
    for (const c of group.cases) {
      total++;
      const body = { data: group.given, expression: c.expression, ...(legacyLiterals ? { legacy_literals: true } : {}) };
      const res = await t.app.inject({ method: 'POST', url: '/v1/json-transform', headers: t.auth, payload: body });
      const json = res.json();
      const ok =
        c.error !== undefined
          ? res.statusCode === 400 &&
            json.code === 'invalid_expression' &&
            expectedTypes(c.error).includes(json.error_type) &&
            json.expression === c.expression &&
            typeof json.error === 'string'
          : res.statusCode === 200 && isDeepStrictEqual(json.result, c.result) && json.expression === c.expression;
      if (!ok)
        failures.push(
          `${JSON.stringify(c.expression)}: expected ${JSON.stringify(c.error ?? c.result)}, got ${res.statusCode} ${res.body.slice(0, 200)}`,
        );
    }
  }
  return { total, failures };
}

function suiteFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== 'benchmarks.json')
    .sort();
}

describe('JMESPath compliance suites through POST /v1/json-transform', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('passes every case of the official suite (conformance/jmespath)', async (ctx) => {
    let passed = 0;
    let total = 0;
    const failures: string[] = [];
    for (const file of suiteFiles(join(CONFORMANCE, 'jmespath'))) {
      const r = await runFile(t, join(CONFORMANCE, 'jmespath', file), false);
      ctx.diagnostic(`official ${file}: ${r.total - r.failures.length}/${r.total}`);
      passed += r.total - r.failures.length;
      total += r.total;
      failures.push(...r.failures.map((f) => `${file} ${f}`));
    }
    ctx.diagnostic(`official total: ${passed}/${total}`);
    assert.equal(total, 892);
    assert.deepEqual(failures, []);
  });

  it('passes the community suite except the one case that contradicts the official suite', async (ctx) => {
    let passed = 0;
    let total = 0;
    const failures: string[] = [];
    for (const file of suiteFiles(join(CONFORMANCE, 'jmespath-community'))) {
      // legacy-literal cases contradict jep-12 ones by design; they run with the opt-in flag
      const r = await runFile(t, join(CONFORMANCE, 'jmespath-community', file), file.startsWith('legacy'));
      ctx.diagnostic(`community ${file}: ${r.total - r.failures.length}/${r.total}`);
      passed += r.total - r.failures.length;
      total += r.total;
      failures.push(...r.failures.map((f) => `${file} ${f}`));
    }
    ctx.diagnostic(`community total: ${passed}/${total}`);
    // official literal.json wants '\\' to be two backslashes (JEP 12); the community suite wants one
    assert.deepEqual(failures, [`literal.json "'\\\\\\\\'": expected "\\\\", got 200 {"result":"\\\\\\\\","expression":"'\\\\\\\\'"}`]);
    assert.equal(passed, total - 1);
  });
});
