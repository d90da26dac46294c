import { join } from 'node:path';
import { createMemoryPubSub } from '../memory-pubsub.js';
import type { Store } from '../types.js';
import { createSqliteBinStore } from './bins.js';
import { openDatabase, run } from './database.js';
import { createSqliteKeyStore } from './keys.js';
import { createSqliteUsageStore } from './usage.js';
import { createSqliteMockStore } from './mocks.js';

export interface SqliteStoreOptions {
  /** Directory holding `devutil.db`, or `:memory:` for a throw-away store (tests). */
  dataDir: string;
  synchronous?: 'NORMAL' | 'FULL';
}

/**
 * The embedded default store: one SQLite file in WAL mode. Each write is its own transaction and
 * is committed before the promise resolves, so an acknowledged write survives a process crash.
 *
 * @example
 *   const store = createSqliteStore({ dataDir: './data' });
 */
export function createSqliteStore(options: SqliteStoreOptions): Store {
  const filename = options.dataDir === ':memory:' ? ':memory:' : join(options.dataDir, 'devutil.db');
  const db = openDatabase({ filename, synchronous: options.synchronous ?? 'NORMAL' });
  const expiredBins = db.prepare<[number], { id: string }>('SELECT id FROM bins WHERE expires_at <= ? LIMIT 500');
  const deleteBinRequests = db.prepare('DELETE FROM captured_requests WHERE bin_id = ?');
  const deleteBin = db.prepare('DELETE FROM bins WHERE id = ?');
  const deleteMocks = db.prepare('DELETE FROM mocks WHERE expires_at <= ?');
  // Small batches so a large purge never holds the writer for long.
  const purgeBatch = db.transaction((now: number) => {
    const ids = expiredBins.all(now).map((r) => r.id);
    for (const id of ids) {
      deleteBinRequests.run(id);
      deleteBin.run(id);
    }
    return ids.length;
  });
  const usage = createSqliteUsageStore(db);
  return {
    kind: 'sqlite',
    keys: createSqliteKeyStore(db),
    usage,
    bins: createSqliteBinStore(db),
    mocks: createSqliteMockStore(db),
    pubsub: createMemoryPubSub(),
    async purgeExpired(now) {
      let bins = 0;
      for (let n = await run(() => purgeBatch(now)); n > 0; n = await run(() => purgeBatch(now))) {
        bins += n;
        await new Promise((resolve) => setImmediate(resolve));
      }
      const mocks = await run(() => deleteMocks.run(now).changes);
      return { bins, mocks };
    },
    ping: () => run(() => void db.prepare('SELECT 1').get()),
    async close() {
      if (db.open) {
        usage.flush();
        db.pragma('wal_checkpoint(TRUNCATE)');
        db.close();
      }
    },
  };
}
