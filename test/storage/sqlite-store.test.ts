import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { MAX_ID_SEQUENCE } from '../../src/lib/ids.js';
import { EVICTION_RUN_ROWS, GROUP_COMMIT_BUSY, GROUP_COMMIT_MAX_WAIT_TURNS, GROUP_COMMIT_ROWS } from '../../src/storage/sqlite/bins.js';
import { createSqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import { CHECKPOINT_INTERVAL_MS } from '../../src/storage/sqlite/checkpointer.js';
import { openDatabase, PAGE_SIZE, WAL_AUTOCHECKPOINT_BYTES } from '../../src/storage/sqlite/database.js';
import { HIT_FLUSH_MS } from '../../src/storage/sqlite/mocks.js';
import { binRecord, capturedRequest, mockRecord, runStoreSuite } from './store-suite.js';

runStoreSuite('sqlite (in memory)', async () => createSqliteStore({ dataDir: ':memory:' }));
// On a file, as `npm start` runs it: WAL, the checkpointer thread, a connection that outlives the
// suite's writes (one instance: SQLite's pubsub is in-process, so the suite's peer is the store itself).
runStoreSuite('sqlite (file)', async () => createSqliteStore({ dataDir: mkdtempSync(join(tmpdir(), 'devutil-suite-')) }));

it('sqlite: credit usage counted in memory is on disk after close and after the flush interval', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'devutil-usage-'));
  const first = createSqliteStore({ dataDir: dir });
  for (let i = 0; i < 5; i++) await first.usage.reserveCredits('key_a', '2026-11', 1, 10);
  await first.usage.refundCredits('key_a', '2026-11', 1);
  await first.close();
  const second = createSqliteStore({ dataDir: dir });
  assert.equal(await second.usage.creditsUsed('key_a', '2026-11'), 4);
  await second.usage.reserveCredits('key_a', '2026-11', 3, 10);
  await new Promise((r) => setTimeout(r, 1200));
  const reader = createSqliteStore({ dataDir: dir }); // another connection sees the flushed usage
  assert.equal(await reader.usage.creditsUsed('key_a', '2026-11'), 7);
  await reader.close();
  await second.close();
});

it('sqlite: mock hits counted in memory are in the rows before any read, after the flush interval and after close', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'devutil-hits-'));
  const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
  const first = createSqliteStore({ dataDir: dir });
  const mock = mockRecord('key_hits', { createdAt: T0, expiresAt: T0 + 3_600_000 });
  await first.mocks.createMock(mock);
  for (let i = 1; i <= 3; i++) assert.equal(await first.mocks.recordMockHit(mock.id, T0), i, 'counted in memory, each with its own count');
  assert.equal(
    (await first.mocks.listMocks('key_hits', { limit: 10, offset: 0 }, T0)).items[0].hitCount,
    3,
    'a list reads the rows: they hold every hit',
  );
  assert.equal(await first.mocks.recordMockHit(mock.id, T0), 4);
  assert.equal((await first.mocks.updateMock(mock.id, { statusCode: 202 }, T0))!.hitCount, 4, 'a patch keeps the count');
  assert.equal(await first.mocks.recordMockHit(mock.id, T0), 5);
  await new Promise((r) => setTimeout(r, HIT_FLUSH_MS + 200));
  const reader = createSqliteStore({ dataDir: dir }); // another connection sees the flushed hits
  assert.equal((await reader.mocks.getMock(mock.id, T0))!.hitCount, 5);
  await reader.close();
  assert.equal(await first.mocks.recordMockHit(mock.id, T0), 6);
  assert.equal(await first.mocks.recordMockHit('mock_missing', T0), null);
  await first.close();
  const second = createSqliteStore({ dataDir: dir });
  assert.equal((await second.mocks.getMock(mock.id, T0))!.hitCount, 6, 'close writes the last hits');
  assert.equal(await second.mocks.deleteMock(mock.id), true);
  await second.close();
});

it('sqlite: the checkpointer worker copies committed pages into the database file long before the automatic checkpoint', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'devutil-checkpoint-'));
  const file = join(dir, 'devutil.db');
  const store = createSqliteStore({ dataDir: dir });
  const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
  const bin = binRecord('key_ckpt', { createdAt: T0, expiresAt: T0 + 3_600_000 });
  await store.bins.createBin(bin);
  const sizeBefore = statSync(file).size;
  // 400 captures of 2 KB: about 800 KB, far below the automatic checkpoint's threshold.
  const body = Buffer.alloc(2048, 'x');
  const counts = await Promise.all(
    Array.from({ length: 400 }, (_, i) =>
      store.bins.captureRequest(capturedRequest(bin.id, { body, timestamp: T0 + i }), { maxRequests: 1000, now: T0 }),
    ),
  );
  assert.equal(counts.at(-1)!.count, 400);
  assert.ok(400 * 2048 < WAL_AUTOCHECKPOINT_BYTES / 10, 'the test stays far below the automatic checkpoint');
  const grown = sizeBefore + 400 * 2048;
  for (let waited = 0; statSync(file).size < grown && waited < 5000; waited += CHECKPOINT_INTERVAL_MS) {
    await new Promise((r) => setTimeout(r, CHECKPOINT_INTERVAL_MS));
  }
  assert.ok(
    statSync(file).size >= grown,
    `the database file grew from ${sizeBefore} to ${statSync(file).size} bytes (expected >= ${grown})`,
  );
  await store.close();
  const reopened = createSqliteStore({ dataDir: dir });
  assert.equal((await reopened.bins.listRequests(bin.id, { limit: 1, offset: 0 })).total, 400);
  await reopened.close();
});

it('sqlite: a new database has 16 KiB pages; one made with 4 KiB pages keeps them; both checkpoint after 16 MiB of WAL', async () => {
  assert.equal(PAGE_SIZE, 16384);
  const fresh = mkdtempSync(join(tmpdir(), 'devutil-pages-'));
  const store = createSqliteStore({ dataDir: fresh });
  await store.close();
  const older = mkdtempSync(join(tmpdir(), 'devutil-pages-'));
  const made = new Database(join(older, 'devutil.db'));
  made.pragma('page_size = 4096');
  made.pragma('journal_mode = WAL');
  made.close();
  const reopened = createSqliteStore({ dataDir: older });
  await reopened.close();
  for (const [dir, pageSize] of [
    [fresh, PAGE_SIZE],
    [older, 4096],
  ] as const) {
    const db = new Database(join(dir, 'devutil.db'));
    assert.equal(db.pragma('page_size', { simple: true }), pageSize);
    assert.equal((db.pragma('user_version', { simple: true }) as number) > 0, true, 'migrated');
    db.close();
  }
  // The bound each connection is given, in its file's pages.
  for (const [dir, pages] of [
    [fresh, 1024],
    [older, 4096],
  ] as const) {
    const db = openDatabase({ filename: join(dir, 'devutil.db'), synchronous: 'NORMAL' });
    assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), pages);
    assert.equal(pages * (db.pragma('page_size', { simple: true }) as number), WAL_AUTOCHECKPOINT_BYTES);
    db.close();
  }
});

it("sqlite: retention hides a bin's oldest requests at once and deletes their rows in runs of EVICTION_RUN_ROWS", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'devutil-retention-'));
  const store = createSqliteStore({ dataDir: dir });
  const now = Date.UTC(2026, 10, 21, 10, 0, 0);
  const bin = binRecord('key_retention', { createdAt: now, expiresAt: now + 3_600_000 });
  await store.bins.createBin(bin);
  const reader = new Database(join(dir, 'devutil.db'), { readonly: true });
  const rowsOnDisk = () => (reader.prepare('SELECT COUNT(*) AS n FROM captured_requests WHERE bin_id = ?').get(bin.id) as { n: number }).n;
  const ids: string[] = [];
  const captureOne = async () => {
    const captured = await store.bins.captureRequest(capturedRequest(bin.id), { maxRequests: 10, now });
    ids.push(captured!.id);
    assert.equal(captured!.count, ids.length);
  };
  // One capture per group commit: 10 retained, then EVICTION_RUN_ROWS - 1 pushed out but not yet deleted.
  for (let i = 0; i < 10 + EVICTION_RUN_ROWS - 1; i++) await captureOne();
  assert.equal(rowsOnDisk(), 10 + EVICTION_RUN_ROWS - 1, 'rows pushed out wait for a full run');
  const page = await store.bins.listRequests(bin.id, { limit: 200, offset: 0 });
  assert.equal(page.total, 10);
  assert.deepEqual(
    page.items.map((r) => r.id),
    ids.slice(-10).reverse(),
  );
  assert.deepEqual(
    (await store.bins.listRequests(bin.id, { limit: 5, offset: 8 })).items.map((r) => r.id),
    [ids.at(-9), ids.at(-10)],
  );
  assert.equal(await store.bins.getRequest(bin.id, ids.at(-11)!), null, 'a request pushed out is gone for readers before its row is');
  assert.equal(await store.bins.getRequest(bin.id, ids[0]), null);
  assert.equal((await store.bins.getRequest(bin.id, ids.at(-10)!))!.id, ids.at(-10));
  // The capture that completes the run deletes it whole.
  await captureOne();
  assert.equal(rowsOnDisk(), 10);
  assert.equal((await store.bins.listRequests(bin.id, { limit: 200, offset: 0 })).total, 10);
  assert.equal((await store.bins.getBin(bin.id, now))!.requestCount, 10 + EVICTION_RUN_ROWS);
  for (let i = 0; i < 5; i++) await captureOne();
  assert.equal(rowsOnDisk(), 15);
  // A larger cap later does not bring back the rows a smaller one pushed out.
  const later = await store.bins.captureRequest(capturedRequest(bin.id), { maxRequests: 1000, now });
  ids.push(later!.id);
  assert.equal(later!.count, ids.length);
  assert.equal(rowsOnDisk(), 16);
  assert.equal((await store.bins.listRequests(bin.id, { limit: 200, offset: 0 })).total, 11);
  // Clearing counts the retained requests only, and deletes the waiting rows with them.
  assert.equal(await store.bins.clearRequests(bin.id), 11);
  assert.equal(rowsOnDisk(), 0);
  await captureOne();
  assert.deepEqual(
    (await store.bins.listRequests(bin.id, { limit: 200, offset: 0 })).items.map((r) => r.id),
    [ids.at(-1)],
  );
  reader.close();
  await store.close();
});

it('sqlite: under load, captures that keep coming over a few event-loop turns share one group commit; otherwise a capture commits in its own turn', async () => {
  const store = createSqliteStore({ dataDir: mkdtempSync(join(tmpdir(), 'devutil-group-')) });
  const now = Date.UTC(2026, 10, 21, 10, 0, 0);
  const bin = binRecord('key_group', { createdAt: now, expiresAt: now + 3_600_000 });
  await store.bins.createBin(bin);
  let turn = 0;
  let ticking = true;
  const tick = () => {
    turn++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    const resolvedAt: number[] = [];
    const captureNow = (i: number) =>
      store.bins.captureRequest(capturedRequest(bin.id), { maxRequests: 1000, now }).then(() => (resolvedAt[i] = turn));
    /** Whether what `send` starts has resolved by the end of the event-loop turn it was sent in. */
    const settlesInItsTurn = async (send: () => Promise<unknown>) => {
      let settled = false;
      const sentNow = send().then(() => (settled = true));
      await nextTurn(); // queued after the group commit's own callback
      const inTurn = settled;
      await sentNow;
      return inTurn;
    };
    // Idle: a lone capture commits in the turn it arrived (before the connection is read again).
    assert.equal(await settlesInItsTurn(() => captureNow(0)), true, 'a lone capture on an idle store');
    // A group of GROUP_COMMIT_ROWS commits in the turn it reaches that size, and marks the store busy.
    assert.equal(
      await settlesInItsTurn(() => Promise.all(Array.from({ length: GROUP_COMMIT_ROWS }, (_, i) => captureNow(i)))),
      true,
      'a full group',
    );
    // Busy: one capture in each of GROUP_COMMIT_MAX_WAIT_TURNS + 1 consecutive turns makes one group.
    resolvedAt.length = 0;
    const burst: Promise<unknown>[] = [];
    for (let i = 0; i <= GROUP_COMMIT_MAX_WAIT_TURNS; i++) {
      burst.push(captureNow(i));
      await nextTurn();
    }
    await Promise.all(burst);
    assert.equal(new Set(resolvedAt).size, 1, `resolved in turns ${resolvedAt.join(', ')}`);
    // That group was small (below GROUP_COMMIT_BUSY): the next capture commits in its own turn again.
    assert.ok(GROUP_COMMIT_MAX_WAIT_TURNS + 1 < GROUP_COMMIT_BUSY);
    assert.equal(await settlesInItsTurn(() => captureNow(0)), true, 'a lone capture after a small group');
    assert.equal((await store.bins.getBin(bin.id, now))!.requestCount, 1 + GROUP_COMMIT_ROWS + GROUP_COMMIT_MAX_WAIT_TURNS + 1 + 1);
  } finally {
    ticking = false;
    await store.close();
  }
});

it("sqlite: a bin takes at most MAX_ID_SEQUENCE captures (its requests' numbers fill 32 bits); past that a capture is 503 storage_unavailable and nothing changes", async () => {
  const store = createSqliteStore({ dataDir: ':memory:' });
  const now = Date.UTC(2026, 10, 21, 10, 0, 0);
  const full = binRecord('key_full', { createdAt: now, expiresAt: now + 3_600_000, requestCount: MAX_ID_SEQUENCE - 1 });
  await store.bins.createBin(full);
  const last = await store.bins.captureRequest(capturedRequest(full.id), { maxRequests: 10, now });
  assert.equal(last!.count, MAX_ID_SEQUENCE);
  assert.match(last!.id, /^req_4gfFC3[0-9A-Za-z]{22}[0-9a-f]{6}$/, '4294967295 in 6 base62 digits');
  assert.equal((await store.bins.getRequest(full.id, last!.id))!.id, last!.id);
  await assert.rejects(
    store.bins.captureRequest(capturedRequest(full.id), { maxRequests: 10, now }),
    (err: unknown) => (err as { code?: string }).code === 'storage_unavailable',
  );
  assert.equal((await store.bins.getBin(full.id, now))!.requestCount, MAX_ID_SEQUENCE);
  assert.deepEqual(
    (await store.bins.listRequests(full.id, { limit: 10, offset: 0 })).items.map((r) => r.id),
    [last!.id],
  );
  // Another bin in the same group commit is not held back by the full one.
  const other = binRecord('key_full', { createdAt: now, expiresAt: now + 3_600_000 });
  await store.bins.createBin(other);
  const [refused, taken] = await Promise.allSettled([
    store.bins.captureRequest(capturedRequest(full.id), { maxRequests: 10, now }),
    store.bins.captureRequest(capturedRequest(other.id), { maxRequests: 10, now }),
  ]);
  assert.equal(refused.status, 'rejected');
  assert.equal(taken.status === 'fulfilled' && taken.value!.count, 1);
  await store.close();
});
