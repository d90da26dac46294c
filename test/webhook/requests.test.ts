import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('captured requests: list, detail, clear', () => {
  let t: TestApp;
  let binId: string;
  const ids: string[] = [];
  before(async () => {
    let frozen: number | null = null;
    const clock = { now: () => frozen ?? Date.now(), advance: () => undefined };
    t = await buildTestApp({ env: { AREAS: 'webhook' }, clock });
    binId = (await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} })).json().bin.bin_id;
    // Five captures in the same millisecond: capture order must break the timestamp tie.
    frozen = Date.now();
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/v1/catch/${binId}/n${i}?i=${i}`,
        headers: { 'content-type': 'text/plain' },
        payload: `body ${i}`,
      });
      ids.push(res.json().request_id);
    }
    frozen = null;
  });
  after(() => t.close());

  it('lists summaries newest first (capture order breaks timestamp ties) with total', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests`, headers: t.auth });
    assert.equal(res.statusCode, 200);
    const { total, requests } = res.json();
    assert.equal(total, 5);
    assert.deepEqual(
      requests.map((r: { request_id: string }) => r.request_id),
      [...ids].reverse(),
    );
    assert.deepEqual(requests[0], {
      request_id: ids[4],
      bin_id: binId,
      method: 'POST',
      path: `/v1/catch/${binId}/n4`,
      query_string: 'i=4',
      content_type: 'text/plain',
      content_length: 6,
      source_ip: '127.0.0.1',
      timestamp: requests[4].timestamp,
    });
    assert.ok(
      requests.every((r: { timestamp: string }) => r.timestamp === requests[0].timestamp),
      'all in one millisecond',
    );
  });

  it('limit and offset page through the list; total stays the retained count', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests?limit=2&offset=1`, headers: t.auth });
    assert.equal(res.json().total, 5);
    assert.deepEqual(
      res.json().requests.map((r: { request_id: string }) => r.request_id),
      [ids[3], ids[2]],
    );
    const beyond = await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests?offset=10`, headers: t.auth });
    assert.deepEqual(beyond.json(), { total: 5, requests: [] });
    const max = await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests?limit=200`, headers: t.auth });
    assert.equal(max.json().requests.length, 5);
  });

  for (const [query, path] of [
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=x', 'offset'],
    ['page=2', 'page'],
    // Text that only reads as a number: exponent, hex, plus sign, space, fraction.
    ['limit=1e1', 'limit'],
    ['limit=0x10', 'limit'],
    ['limit=%2B5', 'limit'],
    ['limit=%205', 'limit'],
    ['limit=', 'limit'],
    ['offset=1.0', 'offset'],
  ]) {
    it(`?${query} is 422 validation_error on ${path}`, async () => {
      const res = await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests?${query}`, headers: t.auth });
      assert.equal(res.statusCode, 422);
      assert.equal(res.json().code, 'validation_error');
      assert.equal(res.json().errors[0].path, path);
    });
  }

  it('?limit=05&offset=0 (plain digits) is accepted', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests?limit=05&offset=0`, headers: t.auth });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().requests.length, 5);
  });

  it('detail has every field of the contract', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests/${ids[1]}`, headers: t.auth });
    assert.equal(res.statusCode, 200);
    const r = res.json().request;
    assert.deepEqual(
      { ...r, timestamp: 'T', headers: 'H' },
      {
        request_id: ids[1],
        bin_id: binId,
        method: 'POST',
        path: `/v1/catch/${binId}/n1`,
        query_string: 'i=1',
        headers: 'H',
        body: 'body 1',
        body_encoding: 'utf8',
        content_type: 'text/plain',
        content_length: 6,
        source_ip: '127.0.0.1',
        timestamp: 'T',
      },
    );
    assert.equal(r.headers['content-type'], 'text/plain');
  });

  it('an unknown request id, or one from another bin, is 404', async () => {
    const other = (await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} })).json().bin.bin_id;
    for (const url of [`/v1/bins/${binId}/requests/req_unknown000000000000000`, `/v1/bins/${other}/requests/${ids[0]}`]) {
      const res = await t.app.inject({ method: 'GET', url, headers: t.auth });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().code, 'not_found');
    }
  });

  it("another key cannot list, read or clear this bin's requests (404)", async () => {
    const stranger = { 'x-api-key': (await t.newKey()).secret };
    for (const [method, url] of [
      ['GET', `/v1/bins/${binId}/requests`],
      ['GET', `/v1/bins/${binId}/requests/${ids[0]}`],
      ['DELETE', `/v1/bins/${binId}/requests`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: stranger });
      assert.equal(res.statusCode, 404, `${method} ${url}`);
    }
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests`, headers: t.auth })).json().total, 5);
  });

  it('DELETE /requests clears them, keeps the bin and its request_count, and capture goes on', async () => {
    const bin = await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} });
    const id = bin.json().bin.bin_id;
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'POST', url: `/v1/catch/${id}`, payload: 'x' });
    const res = await t.app.inject({ method: 'DELETE', url: `/v1/bins/${id}/requests`, headers: t.auth });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { message: 'requests cleared', bin_id: id, deleted: 3 });
    assert.deepEqual((await t.app.inject({ method: 'GET', url: `/v1/bins/${id}/requests`, headers: t.auth })).json(), {
      total: 0,
      requests: [],
    });
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/bins/${id}`, headers: t.auth })).json().bin.request_count, 3);
    assert.equal((await t.app.inject({ method: 'POST', url: `/v1/catch/${id}`, payload: 'y' })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/bins/${id}/requests`, headers: t.auth })).json().total, 1);
  });

  it('every webhook endpoint is in /openapi.json', async () => {
    const paths = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json().paths;
    assert.deepEqual(Object.keys(paths['/v1/bins']).sort(), ['get', 'post']);
    assert.deepEqual(Object.keys(paths['/v1/bins/{bin_id}']).sort(), ['delete', 'get']);
    assert.deepEqual(Object.keys(paths['/v1/bins/{bin_id}/requests']).sort(), ['delete', 'get']);
    assert.deepEqual(Object.keys(paths['/v1/bins/{bin_id}/requests/{request_id}']), ['get']);
    assert.deepEqual(Object.keys(paths['/v1/bins/{bin_id}/stream']), ['get']);
    assert.deepEqual(Object.keys(paths['/v1/catch/{bin_id}']).sort(), ['delete', 'get', 'head', 'options', 'patch', 'post', 'put']);
    assert.ok(paths['/v1/bins/{bin_id}/requests/{request_id}'].get.responses['404']);
  });
});
