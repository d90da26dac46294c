import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { Redis } from 'ioredis';
import { newTimeOrderedId } from '../../src/lib/ids.js';
import { binKeys } from '../../src/storage/redis/redis-bins.js';
import { createRedisStore } from '../../src/storage/redis/redis-store.js';
import { isolatedPrefix, redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { binRecord, capturedRequest, runStoreSuite } from './store-suite.js';

const skip = await redisSkipReason();
const { prefix, cleanup } = isolatedPrefix('suite');
after(async () => {
  if (!skip) await cleanup();
});

// The peer is a second store on the same prefix: another service instance, as far as Redis can tell.
const open = () => createRedisStore({ url: TEST_REDIS_URL, prefix });
runStoreSuite('redis', open, { skip, makePeer: open });

it('redis: a stream resumes after a retained id from before ids carried their number (capture time instead)', { skip }, async () => {
  const store = await open();
  const raw = new Redis(TEST_REDIS_URL);
  try {
    const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
    const bin = binRecord('key_legacy', { createdAt: T0, expiresAt: T0 + 3_600_000 });
    await store.bins.createBin(bin);
    // Two captures as the earlier capture script stored them: named by time, counted, pushed on the order list.
    const k = binKeys(prefix, bin.id);
    const legacy = [newTimeOrderedId('req_', T0), newTimeOrderedId('req_', T0 + 1)];
    for (const id of legacy) {
      const { body, ...rest } = capturedRequest(bin.id);
      const stored = { id, ...rest, body: body.toString('base64'), contentLength: body.length };
      await raw.multi().hincrby(k.meta, 'requestCount', 1).lpush(k.order, id).hset(k.reqs, id, JSON.stringify(stored)).exec();
    }
    const next = await store.bins.captureRequest(capturedRequest(bin.id), { maxRequests: 10, now: T0 });
    assert.equal(next!.count, 3);
    const resumed = async (id: string) => (await store.bins.listRequestsAfter(bin.id, id, 10))?.map((r) => r.id);
    assert.deepEqual(await resumed(legacy[0]), [legacy[1], next!.id]);
    assert.deepEqual(await resumed(legacy[1]), [next!.id]);
    assert.equal(await resumed(newTimeOrderedId('req_', T0)), undefined, "one never stored is not the bin's");
  } finally {
    raw.disconnect();
    await store.close();
  }
});
