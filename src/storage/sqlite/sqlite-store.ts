import { join } from 'node:path';
import { createMemoryPubSub } from '../memory-pubsub.js';
import type { Store } from '../types.js';
import { createSqliteBinStore, DELETE_BIN_REQUESTS_CHUNK } from './bins.js';
import { startCheckpointer } from './checkpointer.js';
import { openDatabase, run } from './database.js';
import { createSqliteKeyStore } from './keys.js';
import { createSqliteUsageStore } from './usage.js';
import { createSqliteMockStore } from './mocks.js';
import { PURGE_CHUNK_ROWS } from './database.js';

export interface SqliteStoreOptions {
  /** Directory holding `devutil.db`, or `:memory:` for a throw-away store (tests). */
  dataDir: string;
  synchronous?: 'NORMAL' | 'FULL';
}

/**
 * The embedded default store: one SQLite file in WAL mode. Each write is committed before its
 * promise resolves, so an acknowledged write survives a process crash. Counters are the exception:
 * credit usage and mock hits are counted in memory and written within a second (and at close).
 *
 * @example
 *   const store = createSqliteStore({ dataDir: './data' });
 */
export function createSqliteStore(options: SqliteStoreOptions): Store {
  const filename = options.dataDir === ':memory:' ? ':memory:' : join(options.dataDir, 'devutil.db');
  const db = openDatabase({ filename, synchronous: options.synchronous ?? 'NORMAL' });
  // Copying the WAL into the database file happens beside the event loop (checkpointer.ts).
  const checkpointer = filename === ':memory:' ? null : startCheckpointer(filename);
  const expiredBins = db.prepare<[number, number], { id: string }>('SELECT id FROM bins WHERE expires_at <= ? LIMIT ?');
  const deleteBinRequests = db.prepare(DELETE_BIN_REQUESTS_CHUNK);
  const deleteBin = db.prepare('DELETE FROM bins WHERE id = ?');
  const deleteMocks = db.prepare('DELETE FROM mocks WHERE rowid IN (SELECT rowid FROM mocks WHERE expires_at <= ? LIMIT ?)');
  // One transaction deletes at most PURGE_CHUNK_ROWS rows, however the expired data is spread (one
  // bin with 100000 requests or 100000 empty bins), so it never holds the event loop for long. A
  // bin goes once its requests are gone; until then it is expired, which readers already treat as
  // missing. Rows left in the budget at the end mean nothing expired is left.
  const purgeChunk = db.transaction((now: number) => {
    let budget = PURGE_CHUNK_ROWS;
    let bins = 0;
    for (const { id } of expiredBins.all(now, budget)) {
      budget -= deleteBinRequests.run(id, id, budget).changes;
      if (budget === 0) break;
      bins += deleteBin.run(id).changes;
      budget--;
    }
    const mocks = budget > 0 ? deleteMocks.run(now, budget).changes : 0;
    return { bins, mocks, done: budget - mocks > 0 };
  });
  const usage = createSqliteUsageStore(db);
  const mocks = createSqliteMockStore(db);
  const pubsub = createMemoryPubSub();
  return {
    kind: 'sqlite',
    keys: createSqliteKeyStore(db, pubsub),
    usage,
    bins: createSqliteBinStore(db, pubsub),
    mocks,
    pubsub,
    async purgeExpired(now) {
      const purged = { bins: 0, mocks: 0 };
      const yieldTurn = () => new Promise((resolve) => setImmediate(resolve));
      // Between steps the event loop serves whatever arrived; a close() mid-purge ends it quietly.
      while (db.open) {
        const chunk = await run(() => purgeChunk(now));
        purged.bins += chunk.bins;
        purged.mocks += chunk.mocks;
        if (chunk.done) break;
        await yieldTurn();
        // Copy this chunk's pages into the database now, in a turn of their own: left to the
        // automatic checkpoint, a large purge would hand one commit all of its pages to copy and
        // fsync while every request waits.
        if (!db.open) break;
        await run(() => db.pragma('wal_checkpoint(PASSIVE)'));
        await yieldTurn();
      }
      mocks.forgetExpired(now);
      return purged;
    },
    ping: () => run(() => void db.prepare('SELECT 1').get()),
    async close() {
      await checkpointer?.close();
      if (db.open) {
        usage.flush();
        mocks.flushHits();
        db.pragma('wal_checkpoint(TRUNCATE)');
        db.close();
      }
    },
  };
}
