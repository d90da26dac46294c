import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const installed = (name: string): string =>
  (JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as { version: string }).version;

/**
 * Two libraries are extended through fields their documentation does not promise. package.json pins
 * their exact versions; an upgrade must fail here first, naming what to check, rather than somewhere
 * in a conformance suite.
 */
describe('libraries extended through their internals', () => {
  it('@jmespath-community/jmespath is the version SafeInterpreter was written against', () => {
    assert.equal(
      installed('@jmespath-community/jmespath'),
      '1.3.0',
      'src/areas/devtools/jmespath-interpreter.ts subclasses the TreeInterpreter and reads or replaces runtime._interpreter, ' +
        'runtime._functionTable (rows with _func), runtime.getTypeName, _rootValue and _scope: check each against the new version, then update this test',
    );
  });

  it('randexp is the version the regex field was written against', () => {
    assert.equal(
      installed('randexp'),
      '0.6.1',
      "src/areas/devtools/mock-data/regex-field.ts replaces RandExp's _expand (to cache each class's character ranges) and reads its parsed tokens: " +
        'check both against the new version, then update this test',
    );
  });
});
