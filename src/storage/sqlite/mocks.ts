import type { MockPatch, MockRecord, MockStore } from '../types.js';
import { run, type Db } from './database.js';

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
    ['name', 'name'], ['statusCode', 'status_code'], ['contentType', 'content_type'], ['body', 'body'],
    ['responseBodyJson', 'response_body_json'], ['method', 'method'], ['path', 'path'], ['delayMs', 'delay_ms'],
    ['expiresAt', 'expires_at'],
  ];
  for (const [field, column] of map) if (mock[field] !== undefined) columns[column] = mock[field];
  if (mock.headers !== undefined) columns.headers = JSON.stringify(mock.headers);
  return columns;
}

interface PendingHit {
  id: string;
  now: number;
  resolve: (count: number | null) => void;
  reject: (err: unknown) => void;
}

/** Parsed mocks kept for serving; this store is the only writer of its database, so it stays true. */
const CACHE_ENTRIES = 10_000;

/**
 * Mocks in SQLite. Serving is the hot path: a mock is parsed once and then served from memory
 * (updates and deletes go through this store and refresh it), and hits arriving in the same
 * event-loop turn are counted in one transaction, each promise resolving after the commit that
 * holds its hit.
 */
export function createSqliteMockStore(db: Db): MockStore & { forgetExpired(now: number): void } {
  const insert = db.prepare(
    `INSERT INTO mocks (id, owner_key_id, name, status_code, content_type, headers, body, response_body_json,
       method, path, delay_ms, created_at, expires_at, hit_count)
     VALUES (@id, @owner_key_id, @name, @status_code, @content_type, @headers, @body, @response_body_json,
       @method, @path, @delay_ms, @created_at, @expires_at, @hit_count)`,
  );
  const get = db.prepare<[string, number], MockRow>('SELECT * FROM mocks WHERE id = ? AND expires_at > ?');
  const list = db.prepare<[string, number, number, number], MockRow>(
    'SELECT * FROM mocks WHERE owner_key_id = ? AND expires_at > ? ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?',
  );
  const count = db.prepare<[string, number], { n: number }>('SELECT COUNT(*) AS n FROM mocks WHERE owner_key_id = ? AND expires_at > ?');
  const remove = db.prepare('DELETE FROM mocks WHERE id = ?');
  const hit = db.prepare<[number, string, number], { hit_count: number }>(
    'UPDATE mocks SET hit_count = hit_count + ? WHERE id = ? AND expires_at > ? RETURNING hit_count',
  );
  const cache = new Map<string, MockRecord>();
  const remember = (mock: MockRecord) => {
    cache.delete(mock.id);
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(mock.id, mock);
  };
  let pendingHits: PendingHit[] = [];
  // One UPDATE per mock per batch: its k hits get the counts final-k+1 .. final, in arrival order.
  const hitBatch = db.transaction((batch: PendingHit[]) => {
    const byMock = new Map<string, number[]>();
    batch.forEach((p, i) => {
      const slots = byMock.get(p.id);
      if (slots) slots.push(i);
      else byMock.set(p.id, [i]);
    });
    const counts: (number | null)[] = new Array(batch.length).fill(null);
    for (const [id, slots] of byMock) {
      const final = hit.get(slots.length, id, batch[slots[0]!]!.now)?.hit_count;
      if (final !== undefined) slots.forEach((slot, k) => (counts[slot] = final - slots.length + 1 + k));
    }
    return counts;
  });
  const flushHits = () => {
    const batch = pendingHits;
    pendingHits = [];
    run(() => hitBatch(batch)).then(
      (counts) =>
        batch.forEach((p, i) => {
          const cached = cache.get(p.id);
          if (cached && counts[i] !== null) cached.hitCount = counts[i];
          p.resolve(counts[i]);
        }),
      (err: unknown) => batch.forEach((p) => p.reject(err)),
    );
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
    const row = get.get(id, now);
    return row ? toMock(row) : null;
  });
  return {
    /** Drop cached mocks expired at `now` (the purge removed their rows). */
    forgetExpired(now) {
      for (const [id, mock] of cache) if (mock.expiresAt <= now) cache.delete(id);
    },
    createMock: (mock) =>
      run(() => void insert.run({ ...toColumns(mock), id: mock.id, owner_key_id: mock.ownerKeyId, name: mock.name,
        body: mock.body, response_body_json: mock.responseBodyJson, method: mock.method, path: mock.path,
        created_at: mock.createdAt, hit_count: mock.hitCount })),
    getMock: (id, now) => {
      const cached = cache.get(id);
      if (cached && cached.expiresAt > now) return { ...cached };
      return run(() => {
        const row = get.get(id, now);
        if (!row) {
          cache.delete(id);
          return null;
        }
        const mock = toMock(row);
        remember(mock);
        return { ...mock };
      });
    },
    listMocks: (owner, page, now) =>
      run(() => ({ total: count.get(owner, now)!.n, items: list.all(owner, now, page.limit, page.offset).map(toMock) })),
    updateMock: (id, patch, now) =>
      run(() => {
        cache.delete(id);
        const mock = update(id, patch, now);
        if (mock) remember({ ...mock });
        return mock;
      }),
    deleteMock: (id) =>
      run(() => {
        cache.delete(id);
        return remove.run(id).changes === 1;
      }),
    recordMockHit: (id, now) =>
      new Promise((resolve, reject) => {
        if (pendingHits.length === 0) setImmediate(flushHits);
        pendingHits.push({ id, now, resolve, reject });
      }),
  };
}
