import assert from 'node:assert/strict';
import type { TestApp } from '../helpers/app.js';

/** Create a mock through the API and return its id. */
export async function createMock(t: TestApp, payload: object): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/mocks', headers: t.auth, payload });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().mock.mock_id;
}

/** The mock's `hit_count` as the API reports it. */
export async function hitCount(t: TestApp, id: string): Promise<number> {
  return (await t.app.inject({ method: 'GET', url: `/v1/mocks/${id}`, headers: t.auth })).json().mock.hit_count;
}
