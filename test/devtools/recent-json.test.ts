import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { recentJson, sameJson } from '../../src/areas/devtools/recent-json.js';

describe('sameJson and recentJson (the schema validator finds repeated schemas with them)', () => {
  it('sameJson is equality of JSON text: order of keys counts, types count, nesting is walked', () => {
    assert.equal(sameJson({ a: [1, 'x', null, { b: true }] }, { a: [1, 'x', null, { b: true }] }), true);
    assert.equal(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 }), false);
    assert.equal(sameJson([1], { 0: 1 }), false);
    assert.equal(sameJson({ 0: 1 }, [1]), false);
    assert.equal(sameJson([1, 2], [1, 2, 3]), false);
    assert.equal(sameJson({ a: 1 }, { a: 1, b: 1 }), false);
    assert.equal(sameJson('1', 1), false);
    assert.equal(sameJson(null, {}), false);
    assert.equal(sameJson(JSON.parse('{"__proto__": {"x": 1}}'), JSON.parse('{"__proto__": {"x": 2}}')), false);
    assert.equal(sameJson(JSON.parse('{"__proto__": {"x": 1}}'), JSON.parse('{"__proto__": {"x": 1}}')), true);
  });

  it('sameJson walks 100000 levels without running out of stack', () => {
    const deep = (n: number) => JSON.parse('['.repeat(n) + ']'.repeat(n));
    assert.equal(sameJson(deep(100_000), deep(100_000)), true);
    assert.equal(sameJson(deep(100_000), deep(99_999)), false);
  });

  it('recentJson keeps the last entries, each as a copy, and finds them by value', () => {
    const recent = recentJson<string>(2);
    const input = { type: 'string' };
    recent.remember(input, 'first');
    input.type = 'number'; // a later change to the request's object changes nothing kept
    assert.equal(recent.find({ type: 'string' }), 'first');
    assert.equal(recent.find({ type: 'number' }), undefined);
    recent.remember({ type: 'number' }, 'second');
    assert.equal(recent.find({ type: 'string' }), 'first'); // now the most recent
    recent.remember({ type: 'boolean' }, 'third'); // pushes out the least recent: 'second'
    assert.equal(recent.find({ type: 'number' }), undefined);
    assert.equal(recent.find({ type: 'string' }), 'first');
    assert.equal(recent.find({ type: 'boolean' }), 'third');
  });
});
