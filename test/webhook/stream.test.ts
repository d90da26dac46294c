import assert from 'node:assert/strict';
import { after, before, describe, it, mock } from 'node:test';
import { buildTestApp, listenOnLoopback, type TestApp } from '../helpers/app.js';
import { openStream } from '../helpers/sse-events.js';

/** A fetch response body as loosely typed JSON (tests assert its shape). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function jsonOf(res: Response): Promise<any> {
  return res.json();
}

async function createBin(t: TestApp, ttl = 3600): Promise<string> {
  return (await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: { ttl_seconds: ttl } })).json().bin.bin_id;
}

describe('live stream (SSE over a real socket)', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await buildTestApp({ env: { AREAS: 'webhook' } });
    base = await listenOnLoopback(t.app);
  });
  after(() => t.close());

  it('without a key is 401; unknown or foreign bin is 404', async () => {
    const binId = await createBin(t);
    assert.equal((await fetch(`${base}/v1/bins/${binId}/stream`)).status, 401);
    const stranger = await t.newKey();
    const foreign = await fetch(`${base}/v1/bins/${binId}/stream`, { headers: { 'x-api-key': stranger.secret } });
    assert.equal(foreign.status, 404);
    assert.equal((await jsonOf(foreign)).code, 'not_found');
  });

  it("HEAD answers the stream's headers at once, without a stream", async () => {
    const binId = await createBin(t);
    const res = await fetch(`${base}/v1/bins/${binId}/stream`, {
      method: 'HEAD',
      headers: { 'x-api-key': t.apiKey },
      signal: AbortSignal.timeout(5000),
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
  });

  it('sends one request event per capture, in capture order, with the summary as data', async () => {
    const binId = await createBin(t);
    const stream = await openStream(base, binId, t.apiKey);
    assert.equal(stream.response.statusCode, 200);
    assert.equal(stream.response.headers['content-type'], 'text/event-stream; charset=utf-8');
    assert.equal(stream.response.headers['cache-control'], 'no-cache, no-transform');
    assert.ok(stream.response.headers['x-request-id']);
    const first = await fetch(`${base}/v1/catch/${binId}/first?a=1`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    const firstId = (await jsonOf(first)).request_id;
    await Promise.all(Array.from({ length: 50 }, (_, i) => fetch(`${base}/v1/catch/${binId}/${i}`, { method: 'PUT', body: String(i) })));
    await stream.waitFor(51);
    assert.ok(stream.events.every((e) => e.event === 'request'));
    const summaries = stream.events.map((e) => JSON.parse(e.data));
    assert.deepEqual(
      { ...summaries[0], timestamp: 'T' },
      {
        request_id: firstId,
        bin_id: binId,
        method: 'POST',
        path: `/v1/catch/${binId}/first`,
        query_string: 'a=1',
        content_type: 'text/plain',
        content_length: 5,
        source_ip: '127.0.0.1',
        timestamp: 'T',
      },
    );
    const list = (await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests?limit=200`, headers: t.auth })).json();
    assert.deepEqual(
      summaries.map((s) => s.request_id),
      list.requests.map((r: { request_id: string }) => r.request_id).reverse(),
      'same order as stored',
    );
    stream.close();
  });

  it('ends the stream with an end event when the bin is deleted', async () => {
    const binId = await createBin(t);
    const stream = await openStream(base, binId, t.apiKey);
    await fetch(`${base}/v1/catch/${binId}`, { method: 'POST', body: 'x' });
    await stream.waitFor(1);
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/bins/${binId}`, headers: t.auth });
    assert.equal(del.statusCode, 200);
    await stream.ended;
    assert.deepEqual(stream.events.at(-1), { event: 'end', data: '{"reason":"bin_deleted"}' });
    assert.equal(stream.events.length, 2);
  });

  it('a client that disconnects is unsubscribed; later captures still succeed', async () => {
    const binId = await createBin(t);
    const stream = await openStream(base, binId, t.apiKey);
    stream.close();
    await stream.ended;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const res = await fetch(`${base}/v1/catch/${binId}`, { method: 'POST', body: 'after' });
    assert.equal(res.status, 200);
  });
});

describe('live stream: heartbeat, expiry and shutdown', () => {
  it('writes a heartbeat comment every 15 s and ends with bin_expired once the bin expires', async () => {
    mock.timers.enable({ apis: ['setInterval'] });
    const t = await buildTestApp({ env: { AREAS: 'webhook' } });
    try {
      const base = await listenOnLoopback(t.app);
      const binId = await createBin(t, 60);
      const stream = await openStream(base, binId, t.apiKey);
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.ok(!stream.comments.includes('heartbeat'));
      mock.timers.tick(15_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(stream.comments.filter((c) => c === 'heartbeat').length, 1);
      t.clock.advance(60_000);
      mock.timers.tick(15_000);
      await stream.ended;
      assert.equal(stream.comments.filter((c) => c === 'heartbeat').length, 2);
      assert.deepEqual(stream.events, [{ event: 'end', data: '{"reason":"bin_expired"}' }]);
    } finally {
      mock.timers.reset();
      await t.close();
    }
  });

  it('app.close() ends open streams (server_shutdown) instead of waiting for them', async () => {
    const t = await buildTestApp({ env: { AREAS: 'webhook' } });
    const base = await listenOnLoopback(t.app);
    const binId = await createBin(t);
    const streams = await Promise.all([openStream(base, binId, t.apiKey), openStream(base, binId, t.apiKey)]);
    const started = Date.now();
    await t.close();
    assert.ok(Date.now() - started < 2000, 'close was not held up by the streams');
    for (const stream of streams) {
      await stream.ended;
      assert.deepEqual(stream.events, [{ event: 'end', data: '{"reason":"server_shutdown"}' }]);
    }
  });
});
