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
      'src/areas/devtools/jmespath-interpreter.ts subclasses the TreeInterpreter through its constructor and describes the ' +
        'internals it reads or replaces in the interfaces Runtime, Scope and BaseInterpreter: check each against the new version, then update this test',
    );
  });

  it('randexp and its parser ret are the versions the regex field was written against', () => {
    // ret comes in through randexp's own range (^0.5.1): a lockfile refresh alone could change it.
    assert.equal(
      installed('ret'),
      '0.5.1',
      'src/areas/devtools/mock-data/regex-field.ts reads the token types and shapes of ret (interface Token): check them against the new version, then update this test',
    );
    assert.equal(
      installed('randexp'),
      '0.6.1',
      "src/areas/devtools/mock-data/regex-field.ts replaces RandExp's _expand (to cache each class's character ranges) and reads its parsed tokens: " +
        'check both against the new version, then update this test',
    );
  });
});
