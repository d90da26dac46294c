import type { Store } from '../types.js';
import { createRedisBinStore } from './redis-bins.js';
import type { Subscriber } from './cluster-subscriber.js';
import { connectRedis, connectSubscriber, guard } from './connection.js';
import { createRedisContext } from './redis-context.js';
import { createRedisKeyStore, createRedisUsageStore } from './redis-keys.js';
import { createRedisMockStore } from './redis-mocks.js';
import { createRedisPubSub } from './redis-pubsub.js';

export interface RedisStoreOptions {
  url: string;
  /** Key prefix; tests isolate themselves with a unique one. */
  prefix?: string;
}

/**
 * The scale-out store: every process pointed at the same Redis shares keys, credits, rate
 * limits, bins, mocks and live streams. `url` names one Redis or a Redis Cluster's seed nodes
 * (`redis+cluster://host:port,host:port`). Fails to open when Redis cannot be reached.
 *
 * @example
 *   const store = await createRedisStore({ url: 'redis://127.0.0.1:6379' });
 *   const clustered = await createRedisStore({ url: 'redis+cluster://10.0.0.1:7000,10.0.0.2:7000' });
 */
export async function createRedisStore(options: RedisStoreOptions): Promise<Store> {
  const prefix = options.prefix ?? 'devutil';
  const client = await connectRedis(options.url);
  let subscriber: Subscriber;
  try {
    subscriber = await connectSubscriber(client, options.url);
  } catch (err) {
    client.disconnect();
    throw err;
  }
  const ctx = createRedisContext(client, prefix);
  const bins = createRedisBinStore(ctx);
  const mocks = createRedisMockStore(ctx);
  return {
    kind: 'redis',
    keys: createRedisKeyStore(ctx),
    usage: createRedisUsageStore(ctx),
    bins,
    mocks,
    pubsub: createRedisPubSub(ctx, subscriber),
    async purgeExpired(now) {
      return { bins: await bins.purgeExpired(now), mocks: await mocks.purgeExpired(now) };
    },
    async ping() {
      await guard(client.ping());
    },
    async close() {
      await Promise.allSettled([client.quit(), subscriber.quit()]);
    },
  };
}
