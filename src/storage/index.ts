import { ConfigError, type Config } from '../config.js';
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
  try {
    return createSqliteStore({ dataDir: config.dataDir, synchronous: config.sqliteSynchronous });
  } catch (err) {
    // The folder cannot be made or written (a path under a file, no permission, a read-only disk):
    // say which setting points there, as for any other bad value.
    const code = (err as { code?: string }).code ?? '';
    if (/^(ENOTDIR|EACCES|EPERM|EROFS|EEXIST|ENOENT|SQLITE_CANTOPEN|SQLITE_READONLY|SQLITE_PERM)/.test(code)) {
      throw new ConfigError('DATA_DIR', `"${config.dataDir}" cannot hold the database (${(err as Error).message})`);
    }
    throw err;
  }
}
