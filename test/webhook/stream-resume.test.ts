import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKLOG_PAGE } from '../../src/areas/webhook/bin-stream.js';
import { createRedisStore } from '../../src/storage/redis/redis-store.js';
import { createSqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import type { Store } from '../../src/storage/types.js';
import { buildTestApp, listenOnLoopback, type TestApp } from '../helpers/app.js';
import { isolatedPrefix, redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { openStream, requestIds, within } from '../helpers/sse-events.js';

const redisSkip = await redisSkipReason();
const redisData = isolatedPrefix('resume');
after(async () => {
  if (!redisSkip) await redisData.cleanup();
});

/** Each store the service runs on: SQLite in memory, and Redis (whose pub/sub is another connection than its reads). */
const STORES: { name: string; skip?: string; open: () => Promise<Store> }[] = [
  { name: 'SQLite', open: async () => createSqliteStore({ dataDir: ':memory:' }) },
  { name: 'Redis', skip: redisSkip, open: () => createRedisStore({ url: TEST_REDIS_URL, prefix: redisData.prefix }) },
];

const RESET = { event: 'reset', data: '{"reason":"unknown_event_id"}' };

async function createBin(t: TestApp): Promise<string> {
  return (await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} })).json().bin.bin_id;
}

/** Capture one request through the catch path (a real socket); its request id. */
async function capture(base: string, binId: string, body = 'x'): Promise<string> {
  const res = await fetch(`${base}/v1/catch/${binId}`, { method: 'POST', body });
  assert.equal(res.status, 200);
  return ((await res.json()) as { request_id: string }).request_id;
}

async function captureMany(base: string, binId: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await capture(base, binId, String(i)));
  return ids;
}

/** Every retained request id of the bin, oldest first (capture order). */
async function storedOrder(t: TestApp, binId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = (
      await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests?limit=200&offset=${offset}`, headers: t.auth })
    ).json();
    ids.push(...page.requests.map((r: { request_id: string }) => r.request_id));
    if (page.requests.length < 200) return ids.reverse();
  }
}

for (const { name, skip, open } of STORES)
  describe(`live stream on ${name}: resume after a drop (Last-Event-ID)`, { skip }, () => {
    let t: TestApp;
    let base: string;
    before(async () => {
      t = await buildTestApp({ env: { AREAS: 'webhook' }, store: await open() });
      base = await listenOnLoopback(t.app);
    });
    after(() => t.close());

    it('every request event carries its request id as the event id, before its data', async () => {
      const binId = await createBin(t);
      const stream = await openStream(base, binId, t.apiKey);
      const sent = await captureMany(base, binId, 3);
      await stream.waitFor(3);
      stream.close();
      assert.deepEqual(requestIds(stream), sent);
    });

    it('a client reconnecting with Last-Event-ID gets exactly the captures made while it was away, in order, then the live ones', async () => {
      const binId = await createBin(t);
      const first = await openStream(base, binId, t.apiKey);
      const seen = await captureMany(base, binId, 2);
      await first.waitFor(2);
      first.close();
      await first.ended;
      const missed = await captureMany(base, binId, 5);
      const second = await openStream(base, binId, t.apiKey, { lastEventId: first.events.at(-1)!.id });
      assert.equal(second.response.statusCode, 200);
      await second.waitFor(5);
      const live = await captureMany(base, binId, 2);
      await second.waitFor(7);
      await new Promise((r) => setTimeout(r, 50));
      second.close();
      assert.deepEqual(requestIds(first), seen);
      assert.deepEqual(requestIds(second), [...missed, ...live]);
    });

    it('the query parameter last_event_id does the same for clients that cannot set headers; the header wins over it', async () => {
      const binId = await createBin(t);
      const ids = await captureMany(base, binId, 4);
      const byQuery = await openStream(base, binId, t.apiKey, { query: `?last_event_id=${ids[1]}` });
      await byQuery.waitFor(2);
      const both = await openStream(base, binId, t.apiKey, { query: `?last_event_id=${ids[0]}`, lastEventId: ids[2] });
      await both.waitFor(1);
      const live = await capture(base, binId);
      await byQuery.waitFor(3);
      await both.waitFor(2);
      byQuery.close();
      both.close();
      assert.deepEqual(requestIds(byQuery), [ids[2], ids[3], live]);
      assert.deepEqual(requestIds(both), [ids[3], live]);
    });

    it('an id that is not one of the bin’s gets a reset event, then live events only; an empty one is no id', async () => {
      const binId = await createBin(t);
      const otherBin = await createBin(t);
      await captureMany(base, binId, 3);
      const foreign = await capture(base, otherBin);
      const ids = await storedOrder(t, binId);
      const forged = ids[1].slice(0, -1) + (ids[1].endsWith('a') ? 'b' : 'a');
      const streams = await Promise.all(
        [foreign, forged, 'req_nothing', 'not-an-id'].map((lastEventId) => openStream(base, binId, t.apiKey, { lastEventId })),
      );
      const byQuery = await openStream(base, binId, t.apiKey, { query: '?last_event_id=req_nothing' });
      const empty = await openStream(base, binId, t.apiKey, { lastEventId: '', query: '?last_event_id=' });
      const live = await capture(base, binId);
      for (const stream of [...streams, byQuery]) {
        await stream.waitFor(2);
        stream.close();
        assert.deepEqual(stream.events, [RESET, { id: live, event: 'request', data: stream.events[1]!.data }]);
      }
      await empty.waitFor(1);
      empty.close();
      assert.deepEqual(requestIds(empty), [live]);
    });

    it('after the bin is cleared, an id of another bin or made up is still a reset; the bin’s own cleared id resumes', async () => {
      const otherBin = await createBin(t);
      const foreign = await capture(base, otherBin);
      const binId = await createBin(t);
      const own = await captureMany(base, binId, 3);
      const cleared = await t.app.inject({ method: 'DELETE', url: `/v1/bins/${binId}/requests`, headers: t.auth });
      assert.equal(cleared.statusCode, 200);
      const kept = await capture(base, binId);
      const retagged = own[0].slice(0, -6) + (own[0].endsWith('000000') ? '000001' : '000000');
      const refused = await Promise.all([foreign, retagged].map((lastEventId) => openStream(base, binId, t.apiKey, { lastEventId })));
      const resumed = await openStream(base, binId, t.apiKey, { lastEventId: own[0] });
      await resumed.waitFor(1);
      const live = await capture(base, binId);
      await resumed.waitFor(2);
      resumed.close();
      assert.deepEqual(requestIds(resumed), [kept, live]);
      for (const stream of refused) {
        await stream.waitFor(2);
        stream.close();
        assert.deepEqual(stream.events, [RESET, { id: live, event: 'request', data: stream.events[1]!.data }]);
      }
    });

    it('a backlog longer than one page of the store arrives whole and in capture order, live captures made meanwhile after it', async () => {
      const binId = await createBin(t);
      const firstId = await capture(base, binId);
      const backlog = BACKLOG_PAGE * 2 + 17;
      for (let sent = 0; sent < backlog; sent += 50) {
        await Promise.all(Array.from({ length: Math.min(50, backlog - sent) }, (_, i) => capture(base, binId, String(sent + i))));
      }
      const stream = await openStream(base, binId, t.apiKey, { lastEventId: firstId });
      await Promise.all(Array.from({ length: 40 }, (_, i) => capture(base, binId, `live ${i}`)));
      await within(stream.waitFor(backlog + 40), 10_000, 'every event');
      stream.close();
      assert.deepEqual(requestIds(stream), (await storedOrder(t, binId)).slice(1));
    });

    it(
      'captures sent all along while a client drops and reconnects many times: each arrives once, in capture order, none left out',
      { timeout: 60_000 },
      async () => {
        const binId = await createBin(t);
        const firstId = await capture(base, binId);
        const total = 900; // with the first, below BIN_MAX_REQUESTS: all retained
        let sent = 0;
        // Eight senders at once, so captures are stored while streams read the backlog and subscribe.
        const senders = Array.from({ length: 8 }, async () => {
          while (sent < total) {
            sent++;
            await capture(base, binId);
          }
        });
        const received: string[] = [];
        const connections: string[][] = [];
        while (received.length < total) {
          // Drop after a few events (within the backlog) or after many (past it, into the live ones), resume with the last one read.
          const want = Math.min([1, 4, 12, 40, 90][connections.length % 5]!, total - received.length);
          const stream = await openStream(base, binId, t.apiKey, { lastEventId: received.at(-1) ?? firstId, limit: want });
          await within(stream.waitFor(want), 10_000, `${want} events on connection ${connections.length}`);
          stream.close();
          const ids = requestIds(stream);
          assert.equal(new Set(ids).size, ids.length, `connection ${connections.length} got an event twice`);
          connections.push(ids);
          received.push(...ids);
        }
        await Promise.all(senders);
        assert.ok(connections.length > 20, `${connections.length} connections`);
        assert.deepEqual(received, (await storedOrder(t, binId)).slice(1));
      },
    );
  });

for (const { name, skip, open } of STORES)
  describe(`live stream on ${name}: resume in a bin that keeps 3 requests (BIN_MAX_REQUESTS=3)`, { skip }, () => {
    let t: TestApp;
    let base: string;
    before(async () => {
      t = await buildTestApp({ env: { AREAS: 'webhook', BIN_MAX_REQUESTS: '3' }, store: await open() });
      base = await listenOnLoopback(t.app);
    });
    after(() => t.close());

    it('after an id that has been evicted, every retained capture is sent, then the live ones', async () => {
      const binId = await createBin(t);
      const ids = await captureMany(base, binId, 8);
      const resumeAfter = async (lastEventId: string, then: number) => {
        const stream = await openStream(base, binId, t.apiKey, { lastEventId });
        await stream.waitFor(then);
        return stream;
      };
      const oldest = await resumeAfter(ids[0], 3);
      const lastEvicted = await resumeAfter(ids[4], 3);
      const retained = await resumeAfter(ids[5], 2);
      const newest = await openStream(base, binId, t.apiKey, { lastEventId: ids[7] });
      const live = await capture(base, binId);
      for (const stream of [oldest, lastEvicted, retained, newest]) {
        await stream.waitFor(stream === retained ? 3 : stream === newest ? 1 : 4);
        stream.close();
      }
      assert.deepEqual(requestIds(oldest), [...ids.slice(5), live]);
      assert.deepEqual(requestIds(lastEvicted), [...ids.slice(5), live]);
      assert.deepEqual(requestIds(retained), [ids[6], ids[7], live]);
      assert.deepEqual(requestIds(newest), [live]);
    });

    it('after an id whose requests were cleared: no reset, only the captures made since', async () => {
      const binId = await createBin(t);
      const ids = await captureMany(base, binId, 2);
      const cleared = await t.app.inject({ method: 'DELETE', url: `/v1/bins/${binId}/requests`, headers: t.auth });
      assert.equal(cleared.json().deleted, 2);
      const since = await capture(base, binId);
      const stream = await openStream(base, binId, t.apiKey, { lastEventId: ids[1] });
      await stream.waitFor(1);
      const live = await capture(base, binId);
      await stream.waitFor(2);
      stream.close();
      assert.deepEqual(requestIds(stream), [since, live]);
    });
  });
