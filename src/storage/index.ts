import type { Config } from '../config.js';
import { createSqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './types.js';

/**
 * The store the configuration names. The Redis store is loaded only when asked for, so the
 * embedded default never touches Redis code.
 */
export async function createStore(config: Pick<Config, 'store' | 'dataDir' | 'redisUrl' | 'sqliteSynchronous'>): Promise<Store> {
  if (config.store === 'redis') {
    const { createRedisStore } = await import('./redis/redis-store.js');
    return createRedisStore({ url: config.redisUrl });
  }
  return createSqliteStore({ dataDir: config.dataDir, synchronous: config.sqliteSynchronous });
}
