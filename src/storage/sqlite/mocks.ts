import type { MockPatch, MockRecord, MockStore } from '../types.js';
import { run, type Db } from './database.js';
import { writeBehind } from './write-behind.js';

interface MockRow {
  id: string;
  owner_key_id: string;
  name: string | null;
  status_code: number;
  content_type: string;
  headers: string;
  body: string | null;
  response_body_json: string | null;
  method: string | null;
  path: string | null;
  delay_ms: number;
  created_at: number;
  expires_at: number;
  hit_count: number;
}

function toMock(row: MockRow): MockRecord {
  return {
    id: row.id,
    ownerKeyId: row.owner_key_id,
    name: row.name,
    statusCode: row.status_code,
    contentType: row.content_type,
    headers: JSON.parse(row.headers) as Record<string, string>,
    body: row.body,
    responseBodyJson: row.response_body_json,
    method: row.method,
    path: row.path,
    delayMs: row.delay_ms,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    hitCount: row.hit_count,
  };
}

/** Record fields → columns, for inserts and patches. */
function toColumns(mock: MockPatch): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  const map: [keyof MockPatch, string][] = [
    ['name', 'name'],
    ['statusCode', 'status_code'],
    ['contentType', 'content_type'],
    ['body', 'body'],
    ['responseBodyJson', 'response_body_json'],
    ['method', 'method'],
    ['path', 'path'],
    ['delayMs', 'delay_ms'],
    ['expiresAt', 'expires_at'],
  ];
  for (const [field, column] of map) if (mock[field] !== undefined) columns[column] = mock[field];
  if (mock.headers !== undefined) columns.headers = JSON.stringify(mock.headers);
  return columns;
}

/** Hits reach the database at most this long after they were counted (and before any read of mock rows). */
export const HIT_FLUSH_MS = 1_000;

/** Parsed mocks kept for serving; this store is the only writer of its database, so it stays true. */
const CACHE_ENTRIES = 10_000;

/**
 * Mocks in SQLite. Serving is the hot path: a mock is parsed once and then served from memory
 * (updates and deletes go through this store and refresh it). A hit is counted in memory, so the
 * answer goes out at once with its exact count (JavaScript runs one call at a time: concurrent hits
 * get distinct counts), and hits are written in one transaction at most {@link HIT_FLUSH_MS} later,
 * before any read of mock rows, and at close, as credit usage is. A process crash can forget at most
 * that last second of hit counts, never a mock.
 */
export function createSqliteMockStore(db: Db): MockStore & { forgetExpired(now: number): void; flushHits(): void } {
  const insert = db.prepare(
    `INSERT INTO mocks (id, owner_key_id, name, status_code, content_type, headers, body, response_body_json,
       method, path, delay_ms, created_at, expires_at, hit_count)
     VALUES (@id, @owner_key_id, @name, @status_code, @content_type, @headers, @body, @response_body_json,
       @method, @path, @delay_ms, @created_at, @expires_at, @hit_count)`,
  );
  // By id alone: a row found expired is deleted there and then (CONTRACT §2.5: expiry behaves as for
  // bins, whose data is "purged lazily on access and by a periodic sweep").
  const get = db.prepare<[string], MockRow>('SELECT * FROM mocks WHERE id = ?');
  const list = db.prepare<[string, number, number, number], MockRow>(
    'SELECT * FROM mocks WHERE owner_key_id = ? AND expires_at > ? ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?',
  );
  const count = db.prepare<[string, number], { n: number }>('SELECT COUNT(*) AS n FROM mocks WHERE owner_key_id = ? AND expires_at > ?');
  const remove = db.prepare('DELETE FROM mocks WHERE id = ?');
  const hit = db.prepare<[number, string]>('UPDATE mocks SET hit_count = hit_count + ? WHERE id = ?');
  const cache = new Map<string, MockRecord>();
  const remember = (mock: MockRecord) => {
    cache.delete(mock.id);
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(mock.id, mock);
  };
  /** mock id → hits counted but not yet written */
  const unwritten = new Map<string, number>();
  const writeHits = db.transaction(() => {
    for (const [id, n] of unwritten) hit.run(n, id);
  });
  // Every read of mock rows comes after a flush, so rows always carry every hit counted so far.
  const hits = writeBehind(() => {
    if (unwritten.size === 0 || !db.open) return;
    writeHits();
    unwritten.clear();
  }, HIT_FLUSH_MS);
  const flushHits = hits.flush;
  const live = (id: string, now: number): MockRecord | null => {
    const cached = cache.get(id);
    if (cached && cached.expiresAt > now) return cached;
    flushHits();
    const row = get.get(id);
    if (!row || row.expires_at <= now) {
      cache.delete(id);
      if (row) {
        unwritten.delete(id);
        remove.run(id);
      }
      return null;
    }
    const mock = toMock(row);
    remember(mock);
    return mock;
  };
  const updates = new Map<string, ReturnType<Db['prepare']>>();
  const update = db.transaction((id: string, patch: MockPatch, now: number): MockRecord | null => {
    const columns = toColumns(patch);
    const names = Object.keys(columns).sort();
    if (names.length > 0) {
      const sql = `UPDATE mocks SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE id = @id AND expires_at > @now`;
      let statement = updates.get(sql);
      if (!statement) updates.set(sql, (statement = db.prepare(sql)));
      statement.run({ ...columns, id, now });
    }
    const row = get.get(id);
    return row && row.expires_at > now ? toMock(row) : null;
  });
  return {
    flushHits,
    /** Drop cached mocks expired at `now` (the purge removed their rows). */
    forgetExpired(now) {
      for (const [id, mock] of cache) if (mock.expiresAt <= now) cache.delete(id);
    },
    createMock: (mock) =>
      run(
        () =>
          void insert.run({
            ...toColumns(mock),
            id: mock.id,
            owner_key_id: mock.ownerKeyId,
            name: mock.name,
            body: mock.body,
            response_body_json: mock.responseBodyJson,
            method: mock.method,
            path: mock.path,
            created_at: mock.createdAt,
            hit_count: mock.hitCount,
          }),
      ),
    getMock: (id, now) =>
      run(() => {
        const mock = live(id, now);
        return mock ? { ...mock } : null;
      }),
    listMocks: (owner, page, now) =>
      run(() => {
        flushHits();
        return { total: count.get(owner, now)!.n, items: list.all(owner, now, page.limit, page.offset).map(toMock) };
      }),
    updateMock: (id, patch, now) =>
      run(() => {
        flushHits();
        cache.delete(id);
        const mock = update(id, patch, now);
        if (mock) remember({ ...mock });
        return mock;
      }),
    deleteMock: (id) =>
      run(() => {
        cache.delete(id);
        unwritten.delete(id);
        return remove.run(id).changes === 1;
      }),
    recordMockHit: (id, now) =>
      run(() => {
        const mock = live(id, now);
        if (!mock) return null;
        unwritten.set(id, (unwritten.get(id) ?? 0) + 1);
        hits.changed();
        return ++mock.hitCount;
      }),
  };
}
