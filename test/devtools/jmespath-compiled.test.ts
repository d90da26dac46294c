import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { compile } from '@jmespath-community/jmespath';
import { MAX_STEPS } from '../../src/areas/devtools/jmespath-budget.js';
import { compileAst } from '../../src/areas/devtools/jmespath-compile.js';
import { SafeInterpreter } from '../../src/areas/devtools/jmespath-interpreter.js';
import { rewriteRawStrings, scanExpression, separateMinusSigns } from '../../src/areas/devtools/jmespath-syntax.js';

const CONFORMANCE = join(import.meta.dirname, '../../../shared/conformance');

type Outcome = { result: unknown } | { error: string };

/** Evaluate one way, with the answer (or error message) and the budget steps spent. */
function outcome(run: (interpreter: SafeInterpreter) => unknown): { outcome: Outcome; steps: number } {
  const interpreter = new SafeInterpreter();
  let result: Outcome;
  try {
    result = { result: run(interpreter) };
  } catch (err) {
    result = { error: `${(err as Error).name}: ${(err as Error).message}` };
  }
  return { outcome: result, steps: MAX_STEPS - interpreter.budget.left };
}

/**
 * The compiled closures (src/areas/devtools/jmespath-compile.ts) must answer exactly as the tree
 * interpreter they replace: the same result, the same error message, and the same steps spent
 * against the budget, for every expression of both compliance suites that parses (plus a few
 * that exercise the budget and the hand-over to the interpreter). The HTTP suites check the
 * answers against the specification; this checks the two evaluators against each other.
 */
describe('JMESPath: compiled expressions answer as the interpreter does', () => {
  const extra = [
    { given: { a: [1, 2, 3], b: 'xyz' }, expression: 'let $x = a in a[?@ > `1`].[@, $x[0]] | [0]' },
    { given: { a: [1, 2, 3], b: 'xyz' }, expression: "b[::-1] || 'none'" },
    { given: { a: [1, 2, 3] }, expression: 'a[*].[@ + `1`, @ > `1` ? `"big"` : `"small"`]' },
    { given: { a: [[1, [2]], [3]] }, expression: 'a[][] | length(@)' },
    { given: [1], expression: Array(6).fill('[@,@,@,@,@,@,@,@,@,@][]').join('.') },
    { given: { people: [{ n: 'b' }, { n: 'a' }] }, expression: 'sort_by(people, &n)[*].n | join(`","`, @)' },
    { given: { a: {} }, expression: 'abs(a)' },
    { given: { a: 1 }, expression: 'not_null(&a)' },
  ];

  for (const suite of ['jmespath', 'jmespath-community']) {
    it(`every expression of the ${suite} suite that parses: same answer, same error, same steps`, () => {
      const dir = join(CONFORMANCE, suite);
      let compared = 0;
      const differences: string[] = [];
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'benchmarks.json').sort()) {
        const legacy = file.startsWith('legacy');
        const groups = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Array<{ given: unknown; cases: Array<{ expression: string }> }>;
        const cases = groups.flatMap((g) => g.cases.map((c) => ({ given: g.given, expression: c.expression })));
        for (const { given, expression } of suite === 'jmespath' ? cases : [...cases, ...(file === 'basic.json' ? extra : [])]) {
          let ast: object;
          try {
            ast = compile(rewriteRawStrings(separateMinusSigns(expression), scanExpression(expression)), { enable_legacy_literals: legacy }) as object;
          } catch {
            continue; // a syntax error: neither evaluator runs
          }
          compared++;
          const tree = outcome((interpreter) => interpreter.search(ast as never, given as never));
          const closures = outcome((interpreter) => interpreter.run(compileAst(ast, interpreter), given as never));
          if (!isDeepStrictEqual(tree, closures)) {
            differences.push(`${file} ${JSON.stringify(expression).slice(0, 80)}: tree ${JSON.stringify(tree).slice(0, 200)}, closures ${JSON.stringify(closures).slice(0, 200)}`);
          }
        }
      }
      assert.deepEqual(differences, []);
      assert.ok(compared > (suite === 'jmespath' ? 700 : 900), `${compared} expressions compared`);
    });
  }
});
