import type { Store } from '../types.js';
import { binKeys, createRedisBinStore } from './redis-bins.js';
import { connectRedis, guard } from './connection.js';
import { createRedisContext } from './redis-context.js';
import { createRedisKeyStore, createRedisUsageStore } from './redis-keys.js';
import { createRedisMockStore, mockKey } from './redis-mocks.js';
import { createRedisPubSub } from './redis-pubsub.js';

export interface RedisStoreOptions {
  url: string;
  /** Key prefix; tests isolate themselves with a unique one. */
  prefix?: string;
}

/**
 * The scale-out store: every process pointed at the same Redis shares keys, credits, rate
 * limits, bins, mocks and live streams. Fails to open when Redis cannot be reached.
 *
 * @example
 *   const store = await createRedisStore({ url: 'redis://127.0.0.1:6379' });
 */
export async function createRedisStore(options: RedisStoreOptions): Promise<Store> {
  const prefix = options.prefix ?? 'devutil';
  const client = await connectRedis(options.url);
  const subscriber = client.duplicate();
  subscriber.on('error', () => undefined);
  await subscriber.connect();
  const ctx = createRedisContext(client, prefix);

  async function purgeIndex(index: string, now: number, remove: (id: string) => Promise<unknown>): Promise<number> {
    let purged = 0;
    for (;;) {
      const ids = await guard(client.zrangebyscore(index, '-inf', now, 'LIMIT', 0, 500));
      for (const id of ids) await remove(id);
      purged += ids.length;
      if (ids.length < 500) return purged;
    }
  }

  const bins = createRedisBinStore(ctx);
  const mocks = createRedisMockStore(ctx);
  return {
    kind: 'redis',
    keys: createRedisKeyStore(ctx),
    usage: createRedisUsageStore(ctx),
    bins,
    mocks,
    pubsub: createRedisPubSub(client, subscriber, prefix),
    async purgeExpired(now) {
      const purgedBins = await purgeIndex(`${prefix}:expiry:bins`, now, async (id) => {
        if (!(await bins.deleteBin(id))) {
          const k = binKeys(prefix, id);
          await guard(client.multi().del(k.meta, k.order, k.reqs).zrem(`${prefix}:expiry:bins`, id).exec());
        }
      });
      const purgedMocks = await purgeIndex(`${prefix}:expiry:mocks`, now, async (id) => {
        if (!(await mocks.deleteMock(id))) await guard(client.multi().del(mockKey(prefix, id)).zrem(`${prefix}:expiry:mocks`, id).exec());
      });
      return { bins: purgedBins, mocks: purgedMocks };
    },
    async ping() {
      await guard(client.ping());
    },
    async close() {
      await Promise.allSettled([client.quit(), subscriber.quit()]);
    },
  };
}
