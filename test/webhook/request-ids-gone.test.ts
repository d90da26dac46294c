import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

// Loopback discard port: the 404 must come before any network attempt, so nothing is ever sent here.
const REPLAY_BODY = { target_url: 'http://127.0.0.1:9/' };

type Headers = Record<string, string>;

async function createBin(t: TestApp, payload: Record<string, unknown> = {}, headers: Headers = t.auth): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/bins', headers, payload });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().bin.bin_id;
}

async function capture(t: TestApp, binId: string, body = 'x'): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: `/v1/catch/${binId}`, headers: { 'content-type': 'text/plain' }, payload: body });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().request_id;
}

function detail(t: TestApp, binId: string, requestId: string, headers: Headers = t.auth) {
  return t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests/${requestId}`, headers });
}

function replay(t: TestApp, binId: string, requestId: string, headers: Headers = t.auth) {
  return t.app.inject({ method: 'POST', url: `/v1/bins/${binId}/requests/${requestId}/replay`, headers, payload: REPLAY_BODY });
}

/** The detail route answers 200 with this very request (proves it existed before the removal). */
async function assertPresent(t: TestApp, binId: string, requestId: string): Promise<void> {
  const res = await detail(t, binId, requestId);
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json().request.request_id, requestId);
  assert.equal(res.json().request.bin_id, binId);
}

function assertNotFound(res: { statusCode: number; body: string; json(): { code?: unknown; detail?: unknown } }, what: string): void {
  assert.equal(res.statusCode, 404, `${what}: ${res.body}`);
  const body = res.json();
  assert.equal(body.code, 'not_found', what);
  assert.equal(typeof body.detail, 'string', what);
  assert.ok((body.detail as string).length > 0, `${what}: detail is non-empty`);
}

/** Both the detail and the replay route answer 404 not_found for this request. */
async function assertGone(t: TestApp, binId: string, requestId: string, headers: Headers = t.auth): Promise<void> {
  assertNotFound(await detail(t, binId, requestId, headers), `GET detail ${requestId}`);
  assertNotFound(await replay(t, binId, requestId, headers), `POST replay ${requestId}`);
}

describe('request ids that are gone answer 404 not_found on detail and replay', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { AREAS: 'webhook' } });
  });
  after(() => t.close());

  it('a request cleared with DELETE /v1/bins/{bin_id}/requests is 404 on detail and replay', async () => {
    const binId = await createBin(t);
    const requestId = await capture(t, binId);
    await assertPresent(t, binId, requestId);
    const cleared = await t.app.inject({ method: 'DELETE', url: `/v1/bins/${binId}/requests`, headers: t.auth });
    assert.equal(cleared.statusCode, 200, cleared.body);
    assert.equal(cleared.json().deleted, 1);
    await assertGone(t, binId, requestId);
    // The bin itself stays: a new capture is readable.
    await assertPresent(t, binId, await capture(t, binId));
  });

  it('a request of a deleted bin (DELETE /v1/bins/{bin_id}) is 404 on detail and replay', async () => {
    const binId = await createBin(t);
    const requestId = await capture(t, binId);
    await assertPresent(t, binId, requestId);
    const deleted = await t.app.inject({ method: 'DELETE', url: `/v1/bins/${binId}`, headers: t.auth });
    assert.equal(deleted.statusCode, 200, deleted.body);
    await assertGone(t, binId, requestId);
  });

  it('a request of an expired bin (ttl_seconds 60, clock moved past it) is 404 on detail and replay', async () => {
    const binId = await createBin(t, { ttl_seconds: 60 });
    const requestId = await capture(t, binId);
    await assertPresent(t, binId, requestId);
    t.clock.advance(61_000);
    await assertGone(t, binId, requestId);
  });

  it("a request of another key's bin is 404 for that key, via the owner's bin or its own bin", async () => {
    const binId = await createBin(t);
    const requestId = await capture(t, binId);
    await assertPresent(t, binId, requestId);
    const other = await t.newKey();
    const otherAuth = { 'x-api-key': other.secret };
    await assertGone(t, binId, requestId, otherAuth);
    const ownBin = await createBin(t, {}, otherAuth);
    await assertGone(t, ownBin, requestId, otherAuth);
    // The owner still sees it.
    await assertPresent(t, binId, requestId);
  });
});

describe('request ids evicted by retention (BIN_MAX_REQUESTS=2) answer 404 not_found', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { AREAS: 'webhook', BIN_MAX_REQUESTS: '2' } });
  });
  after(() => t.close());

  it('the oldest capture is 404 on detail and replay once a third arrives; the newest is 200', async () => {
    const binId = await createBin(t);
    const oldest = await capture(t, binId, 'first');
    await assertPresent(t, binId, oldest);
    const middle = await capture(t, binId, 'second');
    await assertPresent(t, binId, oldest);
    const newest = await capture(t, binId, 'third');
    await assertGone(t, binId, oldest);
    await assertPresent(t, binId, middle);
    await assertPresent(t, binId, newest);
    const list = await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests`, headers: t.auth });
    assert.deepEqual(
      list.json().requests.map((r: { request_id: string }) => r.request_id),
      [newest, middle],
    );
  });
});
