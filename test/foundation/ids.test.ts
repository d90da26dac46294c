import assert from 'node:assert/strict';
import { it } from 'node:test';
import { BASE62, isIdOfScope, MAX_ID_SEQUENCE, newId, newSequencedId, newTimeOrderedId, sequenceOfId } from '../../src/lib/ids.js';

it('ids: a sequenced id is req_ + the number in 6 base62 digits + 22 random ones + their tag in the bin, and gives its number back', () => {
  for (const seq of [0, 1, 61, 62, 3843, 1_000_000, MAX_ID_SEQUENCE]) {
    const id = newSequencedId('req_', seq, 'bin_a');
    assert.match(id, /^req_[0-9A-Za-z]{28}[0-9a-f]{6}$/);
    assert.equal(sequenceOfId('req_', id), seq);
    assert.equal(sequenceOfId('req_', id.slice(0, -6)), seq, 'an id from before ids had tags');
  }
  assert.equal(newSequencedId('req_', 1, 'bin_a').slice(0, 10), 'req_000001');
  assert.equal(newSequencedId('req_', MAX_ID_SEQUENCE, 'bin_a').slice(0, 10), 'req_4gfFC3');
  const many = new Set(Array.from({ length: 1000 }, () => newSequencedId('req_', 7, 'bin_a')));
  assert.equal(many.size, 1000, 'the random part differs between ids of one number');
  for (const bad of [-1, 1.5, MAX_ID_SEQUENCE + 1, Number.NaN]) assert.throws(() => newSequencedId('req_', bad, 'bin_a'), RangeError);
});

it("ids: a sequenced id's tag ties it to its bin; an id without a tag cannot tell", () => {
  const id = newSequencedId('req_', 5, 'bin_a');
  assert.equal(isIdOfScope('req_', id, 'bin_a'), true);
  assert.equal(isIdOfScope('req_', id, 'bin_b'), false);
  let mismatches = 0;
  for (let i = 0; i < 1000; i++) if (isIdOfScope('req_', newSequencedId('req_', 5, `bin_${i}`), 'bin_a')) mismatches++;
  assert.ok(mismatches <= 1, `${mismatches} of 1000 other bins' ids pass as bin_a's`);
  const changed = id.slice(0, 12) + (id[12] === 'x' ? 'y' : 'x') + id.slice(13);
  assert.equal(isIdOfScope('req_', changed, 'bin_a'), false, 'a random character changed');
  assert.equal(isIdOfScope('req_', id.slice(0, -6), 'bin_b'), true);
});

it('ids: sequenceOfId refuses every other text (older ids, other prefixes, lengths, characters, numbers past 32 bits)', () => {
  const random = 'x'.repeat(22);
  for (const other of [
    newTimeOrderedId('req_', Date.now()),
    newId('req_'),
    `bin_000001${random}`,
    `req_000001${random}x`,
    `req_000001${random}00000g`,
    `req_000001${random}00000A`,
    `req_000001${random}0000000`,
    `req_000001${random.slice(1)}`,
    `req_00000-${random}`,
    `req_000001${random.slice(1)}_`,
    `req_zzzzzz${random}`,
    `req_4gfFC4${random}`,
    '',
    'req_',
  ])
    assert.equal(sequenceOfId('req_', other), null, other);
  assert.equal(sequenceOfId('req_', `req_00000z${random}`), BASE62.indexOf('z'));
});
