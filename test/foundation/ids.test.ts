import assert from 'node:assert/strict';
import { it } from 'node:test';
import { BASE62, MAX_ID_SEQUENCE, newId, newSequencedId, newTimeOrderedId, sequenceOfId } from '../../src/lib/ids.js';

it('ids: a sequenced id is req_ + the number in 6 base62 digits + 22 random ones, and gives its number back', () => {
  for (const seq of [0, 1, 61, 62, 3843, 1_000_000, MAX_ID_SEQUENCE]) {
    const id = newSequencedId('req_', seq);
    assert.match(id, /^req_[0-9A-Za-z]{28}$/);
    assert.equal(sequenceOfId('req_', id), seq);
  }
  assert.equal(newSequencedId('req_', 1).slice(0, 10), 'req_000001');
  assert.equal(newSequencedId('req_', MAX_ID_SEQUENCE).slice(0, 10), 'req_4gfFC3');
  const many = new Set(Array.from({ length: 1000 }, () => newSequencedId('req_', 7)));
  assert.equal(many.size, 1000, 'the random part differs between ids of one number');
  for (const bad of [-1, 1.5, MAX_ID_SEQUENCE + 1, Number.NaN]) assert.throws(() => newSequencedId('req_', bad), RangeError);
});

it('ids: sequenceOfId refuses every other text (older ids, other prefixes, lengths, characters, numbers past 32 bits)', () => {
  const random = 'x'.repeat(22);
  for (const other of [
    newTimeOrderedId('req_', Date.now()),
    newId('req_'),
    `bin_000001${random}`,
    `req_000001${random}x`,
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
