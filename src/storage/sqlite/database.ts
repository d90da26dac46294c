import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DevutilError } from '../../errors.js';

export type Db = Database.Database;

/**
 * Versioned migrations: entry N brings the schema from `user_version` N to N+1. Never edit an
 * entry that has shipped; append a new one.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     digest TEXT NOT NULL UNIQUE,
     hint TEXT NOT NULL,
     name TEXT NOT NULL,
     plan TEXT NOT NULL,
     marketplace_host TEXT,
     created_at INTEGER NOT NULL,
     revoked_at INTEGER
   );
   CREATE TABLE credit_usage (
     key_id TEXT NOT NULL,
     period TEXT NOT NULL,
     used INTEGER NOT NULL,
     PRIMARY KEY (key_id, period)
   ) WITHOUT ROWID;
   CREATE TABLE bins (
     id TEXT PRIMARY KEY,
     owner_key_id TEXT NOT NULL,
     name TEXT,
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     request_count INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX bins_by_owner ON bins (owner_key_id, created_at);
   CREATE INDEX bins_by_expiry ON bins (expires_at);
   CREATE TABLE captured_requests (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL UNIQUE,
     bin_id TEXT NOT NULL,
     method TEXT NOT NULL,
     path TEXT NOT NULL,
     query_string TEXT NOT NULL,
     headers TEXT NOT NULL,
     body BLOB NOT NULL,
     content_type TEXT NOT NULL,
     content_length INTEGER NOT NULL,
     source_ip TEXT NOT NULL,
     timestamp INTEGER NOT NULL
   );
   CREATE INDEX captured_requests_by_bin ON captured_requests (bin_id, seq);
   CREATE TABLE mocks (
     id TEXT PRIMARY KEY,
     owner_key_id TEXT NOT NULL,
     name TEXT,
     status_code INTEGER NOT NULL,
     content_type TEXT NOT NULL,
     headers TEXT NOT NULL,
     body TEXT,
     response_body_json TEXT,
     method TEXT,
     path TEXT,
     delay_ms INTEGER NOT NULL,
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     hit_count INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX mocks_by_owner ON mocks (owner_key_id, created_at);
   CREATE INDEX mocks_by_expiry ON mocks (expires_at);`,
  // 2: captured requests get `bin_seq`, their bin's request_count when captured (the newest row has
  // the bin's count), so retention deletes a key range instead of walking the bin's newest rows; and
  // a plain rowid (AUTOINCREMENT's bookkeeping row cost a write per capture).
  `CREATE TABLE captured_requests_v2 (
     seq INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     bin_id TEXT NOT NULL,
     bin_seq INTEGER NOT NULL,
     method TEXT NOT NULL,
     path TEXT NOT NULL,
     query_string TEXT NOT NULL,
     headers TEXT NOT NULL,
     body BLOB NOT NULL,
     content_type TEXT NOT NULL,
     content_length INTEGER NOT NULL,
     source_ip TEXT NOT NULL,
     timestamp INTEGER NOT NULL
   );
   INSERT INTO captured_requests_v2
     (seq, id, bin_id, bin_seq, method, path, query_string, headers, body, content_type, content_length, source_ip, timestamp)
   SELECT c.seq, c.id, c.bin_id,
     COALESCE(b.request_count, 0) + 1 - ROW_NUMBER() OVER (PARTITION BY c.bin_id ORDER BY c.seq DESC),
     c.method, c.path, c.query_string, c.headers, c.body, c.content_type, c.content_length, c.source_ip, c.timestamp
   FROM captured_requests c LEFT JOIN bins b ON b.id = c.bin_id;
   DROP TABLE captured_requests;
   DELETE FROM sqlite_sequence WHERE name = 'captured_requests';
   ALTER TABLE captured_requests_v2 RENAME TO captured_requests;
   CREATE INDEX captured_requests_by_bin ON captured_requests (bin_id, bin_seq);`,
  // Without the UNIQUE index on the request id: every capture paid an insert and a delete in a
  // second B-tree. A request is always looked up within its bin, through the bin's index, which
  // now carries the id, so a lookup scans only that bin's retained requests. The table is rewritten once, in the
  // migration's transaction (it needs free disk for a copy; a failure leaves version 2 as it was).
  // Builds before this one refuse a version-3 database.
  `CREATE TABLE captured_requests_v3 (
     seq INTEGER PRIMARY KEY,
     id TEXT NOT NULL,
     bin_id TEXT NOT NULL,
     bin_seq INTEGER NOT NULL,
     method TEXT NOT NULL,
     path TEXT NOT NULL,
     query_string TEXT NOT NULL,
     headers TEXT NOT NULL,
     body BLOB NOT NULL,
     content_type TEXT NOT NULL,
     content_length INTEGER NOT NULL,
     source_ip TEXT NOT NULL,
     timestamp INTEGER NOT NULL
   );
   INSERT INTO captured_requests_v3
     (seq, id, bin_id, bin_seq, method, path, query_string, headers, body, content_type, content_length, source_ip, timestamp)
   SELECT seq, id, bin_id, bin_seq, method, path, query_string, headers, body, content_type, content_length, source_ip, timestamp
   FROM captured_requests;
   DROP TABLE captured_requests;
   ALTER TABLE captured_requests_v3 RENAME TO captured_requests;
   CREATE INDEX captured_requests_by_bin ON captured_requests (bin_id, bin_seq, id);`,
  // Version 4: a key's hint came from the first characters of its secret; now from its digest,
  // so no part of any key is stored (CONTRACT §1).
  `UPDATE api_keys SET hint = 'sha256:' || substr(digest, 1, 12) || '…';`,
  // Version 5: retention hides a bin's requests at once and deletes them in runs
  // (EVICTION_RUN_ROWS, bins.ts). `retained_after`: requests with a bin_seq up to it are no longer
  // the bin's, whether or not their rows are gone yet; `deleted_through`: rows up to it are gone.
  // Until now each capture's eviction deleted its rows at once, so nothing is hidden.
  `ALTER TABLE bins ADD COLUMN retained_after INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE bins ADD COLUMN deleted_through INTEGER NOT NULL DEFAULT 0;`,
  // Version 6: a captured request's rowid is its bin's `key` * 2^32 + its bin_seq, so a bin's
  // requests are one range of the table and the index on (bin_id, bin_seq, id) goes: its leaf
  // pages were rewritten on every group commit.
  // Requests captured from now on are named by their bin_seq (src/lib/ids.ts, newSequencedId) and found by
  // their key; older ids are found by a scan of their bin's range. `bins.key` is an explicit
  // INTEGER PRIMARY KEY (VACUUM may renumber an implicit rowid) with AUTOINCREMENT (a deleted
  // bin's key is never given again), taken from the old rowid. `retained_after` becomes exact
  // (every request after it is stored), so a bin's total is request_count - retained_after; it
  // also moves on clear. Rows already pushed out by retention are not copied. The tables are
  // rewritten once, in the migration's transaction (it needs free disk for a copy).
  `UPDATE bins SET retained_after = request_count -
     (SELECT COUNT(*) FROM captured_requests c WHERE c.bin_id = bins.id AND c.bin_seq > bins.retained_after);
   CREATE TABLE bins_v6 (
     key INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL UNIQUE,
     owner_key_id TEXT NOT NULL,
     name TEXT,
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     request_count INTEGER NOT NULL DEFAULT 0,
     retained_after INTEGER NOT NULL DEFAULT 0,
     deleted_through INTEGER NOT NULL DEFAULT 0
   );
   INSERT INTO bins_v6 (key, id, owner_key_id, name, created_at, expires_at, request_count, retained_after, deleted_through)
   SELECT rowid, id, owner_key_id, name, created_at, expires_at, request_count, retained_after, retained_after FROM bins ORDER BY rowid;
   CREATE TABLE captured_requests_v6 (
     key INTEGER PRIMARY KEY,
     id TEXT NOT NULL,
     bin_id TEXT NOT NULL,
     bin_seq INTEGER NOT NULL,
     method TEXT NOT NULL,
     path TEXT NOT NULL,
     query_string TEXT NOT NULL,
     headers TEXT NOT NULL,
     body BLOB NOT NULL,
     content_type TEXT NOT NULL,
     content_length INTEGER NOT NULL,
     source_ip TEXT NOT NULL,
     timestamp INTEGER NOT NULL
   );
   INSERT INTO captured_requests_v6
     (key, id, bin_id, bin_seq, method, path, query_string, headers, body, content_type, content_length, source_ip, timestamp)
   SELECT b.key * 4294967296 + c.bin_seq, c.id, c.bin_id, c.bin_seq, c.method, c.path, c.query_string, c.headers, c.body,
     c.content_type, c.content_length, c.source_ip, c.timestamp
   FROM captured_requests c JOIN bins_v6 b ON b.id = c.bin_id WHERE c.bin_seq > b.retained_after ORDER BY 1;
   DROP TABLE captured_requests;
   DROP TABLE bins;
   ALTER TABLE bins_v6 RENAME TO bins;
   ALTER TABLE captured_requests_v6 RENAME TO captured_requests;
   CREATE INDEX bins_by_owner ON bins (owner_key_id, created_at);
   CREATE INDEX bins_by_expiry ON bins (expires_at);`,
];

/** A bin's requests have the rowids `bins.key` * REQUEST_KEY_SPAN + bin_seq, bin_seq from 1 to REQUEST_KEY_SPAN - 1. */
export const REQUEST_KEY_SPAN = 4294967296;

/**
 * Page size of a new database: 16 KiB instead of SQLite's 4. A group commit of captures writes about
 * a quarter as many WAL frames, each its own system calls and checksum, for the same bytes.
 */
export const PAGE_SIZE = 16384;

/** Rows one purge transaction deletes at most (a few milliseconds of work). */
export const PURGE_CHUNK_ROWS = 500;

/** WAL bytes after which a commit checkpoints (SQLite's default is 1000 pages, 4 MiB of 4 KiB ones). */
export const WAL_AUTOCHECKPOINT_BYTES = 16 * 1024 * 1024;

export interface OpenOptions {
  /** File path, or `:memory:`. */
  filename: string;
  synchronous: 'NORMAL' | 'FULL';
}

/**
 * Open (creating if needed) the database, switch to WAL and bring the schema up to date.
 *
 * @example
 *   const db = openDatabase({ filename: './data/devutil.db', synchronous: 'NORMAL' });
 */
export function openDatabase(options: OpenOptions): Db {
  if (options.filename !== ':memory:') mkdirSync(dirname(options.filename), { recursive: true });
  const db = new Database(options.filename);
  // Takes effect only on a new database (before WAL is switched on): an existing file keeps its size.
  db.pragma(`page_size = ${PAGE_SIZE}`);
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode: every commit survives a process crash; FULL also survives power loss.
  db.pragma(`synchronous = ${options.synchronous}`);
  db.pragma('busy_timeout = 5000');
  // The automatic checkpoint runs inside a commit, on the event loop, holding every request while it
  // copies and fsyncs. A file store's checkpointer worker copies the WAL
  // every 50 ms (checkpointer.ts), so the automatic one, here after 16 MiB of WAL (in pages of the
  // file's size: 1024 of 16 KiB, 4096 in a file made with 4 KiB pages before PAGE_SIZE), has
  // only the pages since its last pass left to copy; without the worker (an in-memory store has no
  // WAL) it is SQLite's bound as before. The WAL file is cut back to 64 MB after a checkpoint.
  db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_BYTES / (db.pragma('page_size', { simple: true }) as number)}`);
  db.pragma('journal_size_limit = 67108864');
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(`database schema version ${current} is newer than this build knows (${MIGRATIONS.length})`);
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}

const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|CORRUPT|NOTADB|PROTOCOL)/;

/**
 * Run a synchronous database operation, turning "the storage cannot serve us" failures into
 * `storage_unavailable` (503) and leaving programming errors as they are.
 *
 * @example
 *   const count = await run(() => db.prepare('SELECT COUNT(*) AS n FROM bins').get());
 */
export async function run<T>(operation: () => T): Promise<T> {
  try {
    return operation();
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (UNAVAILABLE.test(code) || /database connection is not open/.test((err as Error).message)) {
      throw new DevutilError('storage_unavailable', undefined, { cause: err });
    }
    throw err;
  }
}
