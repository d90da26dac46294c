import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN } from '../helpers/app.js';
import {
  redisClusterSkipReason,
  startRedisServer,
  startServiceProcess,
  type RedisServer,
  type ServiceProcess,
} from '../helpers/processes.js';
import { openStream, requestIds, within } from '../helpers/sse-events.js';

// Two service processes on one Redis: a stream dropped on one resumes on the other (CONTRACT §2.3).

const skip = redisClusterSkipReason();
/** Small enough for a test to capture past it, large enough for the race below to keep every capture. */
const MAX_REQUESTS = 400;

describe(`two service processes on one Redis (BIN_MAX_REQUESTS=${MAX_REQUESTS}): a stream resumes on the other process`, { skip }, () => {
  let redis: RedisServer;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let key: string;
  before(async () => {
    redis = await startRedisServer();
    const env = { STORE: 'redis', REDIS_URL: redis.url, BIN_MAX_REQUESTS: String(MAX_REQUESTS) };
    [a, b] = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
    const created = await fetch(`${a.url}/v1/admin/keys`, {
      method: 'POST',
      headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ plan: 'unlimited' }),
    });
    key = ((await created.json()) as { api_key: string }).api_key;
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
  });

  const createBin = async (via: ServiceProcess) => {
    const res = await fetch(`${via.url}/v1/bins`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: '{}',
    });
    return ((await res.json()) as { bin: { bin_id: string } }).bin.bin_id;
  };
  const capture = async (via: ServiceProcess, binId: string) => {
    const res = await fetch(`${via.url}/v1/catch/${binId}`, { method: 'POST', body: 'x' });
    assert.equal(res.status, 200);
    return ((await res.json()) as { request_id: string }).request_id;
  };
  const captureMany = async (via: ServiceProcess, binId: string, n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push(await capture(via, binId));
    return ids;
  };
  /** The bin's retained request ids, oldest first, as `via` lists them. */
  const storedOrder = async (via: ServiceProcess, binId: string) => {
    const ids: string[] = [];
    for (let offset = 0; ; offset += 200) {
      const res = await fetch(`${via.url}/v1/bins/${binId}/requests?limit=200&offset=${offset}`, { headers: { 'x-api-key': key } });
      const page = ((await res.json()) as { requests: { request_id: string }[] }).requests;
      ids.push(...page.map((r) => r.request_id));
      if (page.length < 200) return ids.reverse();
    }
  };

  it('a stream dropped on A resumes on B with exactly the captures made through A meanwhile, then the live ones', async () => {
    const binId = await createBin(a);
    const first = await openStream(a.url, binId, key);
    const seen = await captureMany(a, binId, 2);
    await within(first.waitFor(2), 10_000, 'the first two');
    first.close();
    const missed = await captureMany(a, binId, 4);
    const resumed = await openStream(b.url, binId, key, { lastEventId: seen[1] });
    await within(resumed.waitFor(4), 10_000, 'the four missed');
    const live = [await capture(a, binId), await capture(b, binId)];
    await within(resumed.waitFor(6), 10_000, 'the live ones');
    await new Promise((r) => setTimeout(r, 50));
    resumed.close();
    assert.deepEqual(requestIds(first), seen);
    assert.deepEqual(requestIds(resumed), [...missed, ...live]);
  });

  it('after an id evicted while away, B sends every capture still retained; an id not of the bin gets a reset', async () => {
    const binId = await createBin(a);
    const [lastSeen] = await captureMany(a, binId, 1);
    for (let i = 0; i < MAX_REQUESTS + 50; i += 50) await Promise.all(Array.from({ length: 50 }, () => capture(i % 100 ? b : a, binId)));
    const retained = await storedOrder(b, binId);
    assert.equal(retained.length, MAX_REQUESTS);
    const resumed = await openStream(b.url, binId, key, { query: `?last_event_id=${lastSeen}` });
    await within(resumed.waitFor(MAX_REQUESTS), 10_000, 'the retained ones');
    // A retained request's number with another random part.
    const forged = retained[0].slice(0, -1) + (retained[0].endsWith('a') ? 'b' : 'a');
    const unknown = await openStream(b.url, binId, key, { lastEventId: forged });
    await within(unknown.waitFor(1), 10_000, 'the reset');
    const live = await capture(a, binId);
    await within(resumed.waitFor(MAX_REQUESTS + 1), 10_000, 'the live one');
    await within(unknown.waitFor(2), 10_000, 'the live one after the reset');
    resumed.close();
    unknown.close();
    assert.deepEqual(requestIds(resumed), [...retained, live]);
    assert.deepEqual(
      unknown.events.map((e) => [e.event, e.id ?? null, e.data.slice(0, 30)]),
      [
        ['reset', null, '{"reason":"unknown_event_id"}'],
        ['request', live, `{"request_id":"${live}",`.slice(0, 30)],
      ],
    );
  });

  it(
    'captures through both processes all along while a client drops and reconnects to either: each once, in order, none left out',
    { timeout: 60_000 },
    async () => {
      const binId = await createBin(a);
      const firstId = await capture(a, binId);
      const total = MAX_REQUESTS - 50;
      let sent = 0;
      const senders = [a, b, a, b].map(async (via) => {
        while (sent < total) {
          sent++;
          await capture(via, binId);
        }
      });
      const received: string[] = [];
      let connections = 0;
      while (received.length < total) {
        // Drop within the backlog or past it, into the live ones.
        const want = Math.min([1, 4, 12, 40, 90][connections % 5]!, total - received.length);
        const via = connections % 2 ? b : a;
        const stream = await openStream(via.url, binId, key, { lastEventId: received.at(-1) ?? firstId, limit: want });
        await within(stream.waitFor(want), 10_000, `${want} events on connection ${connections}`);
        stream.close();
        const ids = requestIds(stream);
        assert.equal(new Set(ids).size, ids.length, `connection ${connections} got an event twice`);
        received.push(...ids);
        connections++;
      }
      await Promise.all(senders);
      assert.deepEqual(received, (await storedOrder(b, binId)).slice(1));
    },
  );
});
