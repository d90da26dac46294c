// One test per fuzz finding (test/hardening/fuzz.test.ts), named after what broke.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('fuzz findings stay fixed', () => {
  let t: TestApp;
  let binId: string;
  before(async () => {
    t = await buildTestApp();
    binId = (await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} })).json().bin.bin_id;
  });
  after(() => t.close());

  // A huge offset reached SQLite as a non-integer and answered 500 internal_error.
  const lists: [string, () => string][] = [
    ['/v1/bins', () => '/v1/bins'],
    ['/v1/mocks', () => '/v1/mocks'],
    ['/v1/bins/{bin_id}/requests', () => `/v1/bins/${binId}/requests`],
  ];
  for (const [name, path] of lists) {
    it(`GET ${name}?offset=99999999999999999999 is a 422 validation_error, not a 500`, async () => {
      const res = await t.app.inject({ method: 'GET', url: `${path()}?offset=99999999999999999999`, headers: t.auth });
      assert.equal(res.statusCode, 422);
      assert.equal(res.json().code, 'validation_error');
      assert.equal(res.json().errors.length, 1);
      assert.match(res.json().errors[0].path, /offset/);
    });
  }

  it('the largest exact offset still answers an empty page', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests?offset=9007199254740991`, headers: t.auth });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().requests, []);
  });
});
