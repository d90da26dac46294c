import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { MIGRATIONS } from '../../src/storage/sqlite/database.js';
import { createSqliteStore } from '../../src/storage/sqlite/sqlite-store.js';

const T0 = Date.UTC(2026, 10, 1);

it('sqlite: a version-1 database keeps its captured requests, their order and their retention after the upgrade', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'devutil-migrate-'));
  // A database as the first release left it: bin_a has captured 5 requests and kept its newest 3.
  const old = new Database(join(dir, 'devutil.db'));
  old.exec(MIGRATIONS[0]!);
  old.pragma('user_version = 1');
  old.prepare('INSERT INTO bins VALUES (?, ?, ?, ?, ?, ?)').run('bin_a', 'key_o', null, T0, T0 + 86_400_000, 5);
  old.prepare('INSERT INTO bins VALUES (?, ?, ?, ?, ?, ?)').run('bin_b', 'key_o', null, T0, T0 + 86_400_000, 1);
  old.prepare('INSERT INTO bins VALUES (?, ?, ?, ?, ?, ?)').run('bin_c', 'key_o', null, T0, T0 + 86_400_000, 4);
  const insert = old.prepare(
    `INSERT INTO captured_requests (id, bin_id, method, path, query_string, headers, body, content_type, content_length, source_ip, timestamp)
     VALUES (?, ?, 'POST', '/v1/catch/x', '', '{}', ?, '', 1, '127.0.0.1', ?)`,
  );
  insert.run('req_a3', 'bin_a', Buffer.from('3'), T0 + 3);
  insert.run('req_b1', 'bin_b', Buffer.from('1'), T0 + 4);
  insert.run('req_a4', 'bin_a', Buffer.from('4'), T0 + 5);
  insert.run('req_a5', 'bin_a', Buffer.from('5'), T0 + 6);
  old.close();

  const store = createSqliteStore({ dataDir: dir });
  try {
    const page = { limit: 10, offset: 0 };
    assert.deepEqual(
      (await store.bins.listRequests('bin_a', page)).items.map((r) => r.id),
      ['req_a5', 'req_a4', 'req_a3'],
    );
    assert.deepEqual(
      (await store.bins.listRequests('bin_b', page)).items.map((r) => r.id),
      ['req_b1'],
    );
    assert.equal((await store.bins.getRequest('bin_a', 'req_a4'))!.body.toString(), '4');

    // New captures continue the bin's sequence; the cap of 3 evicts the oldest.
    const capture = (binId: string) =>
      store.bins.captureRequest(
        {
          binId,
          method: 'GET',
          path: `/v1/catch/${binId}`,
          queryString: '',
          headers: {},
          body: Buffer.alloc(0),
          contentType: '',
          sourceIp: '127.0.0.1',
          timestamp: T0 + 10,
        },
        { maxRequests: 3, now: T0 + 10 },
      );
    const sixth = await capture('bin_a');
    assert.equal(sixth!.count, 6);
    assert.match(sixth!.id, /^req_000006[0-9A-Za-z]{22}[0-9a-f]{6}$/, 'new captures are named by their number in the bin');
    const after = await store.bins.listRequests('bin_a', page);
    assert.deepEqual(
      after.items.map((r) => r.id),
      [sixth!.id, 'req_a5', 'req_a4'],
    );
    assert.equal(after.total, 3);
    assert.equal((await store.bins.getRequest('bin_a', sixth!.id))!.id, sixth!.id);
    assert.equal(await store.bins.getRequest('bin_a', 'req_a3'), null, 'pushed out by the new capture');
    // A stream resumes after a retained id without a number; one pushed out can no longer be placed.
    const resumed = async (id: string) => (await store.bins.listRequestsAfter('bin_a', id, 10))?.map((r) => r.id);
    assert.deepEqual(await resumed('req_a4'), ['req_a5', sixth!.id]);
    assert.deepEqual(await resumed('req_a5'), [sixth!.id]);
    assert.equal(await resumed('req_a3'), undefined);
    assert.equal(await resumed('req_b1'), undefined, "another bin's");
    // bin_c was cleared before the upgrade (its count stayed at 4, with no rows): it lists none, then only what comes next.
    assert.equal((await store.bins.listRequests('bin_c', page)).total, 0);
    const fifth = await capture('bin_c');
    assert.equal(fifth!.count, 5);
    assert.deepEqual(
      (await store.bins.listRequests('bin_c', page)).items.map((r) => r.id),
      [fifth!.id],
    );
    assert.equal((await store.bins.listRequests('bin_c', page)).total, 1);
  } finally {
    await store.close();
  }
  const reopened = new Database(join(dir, 'devutil.db'), { readonly: true });
  assert.equal(reopened.pragma('user_version', { simple: true }), MIGRATIONS.length);
  assert.equal(reopened.pragma('integrity_check', { simple: true }), 'ok');
  // Version 6: no index on captured requests at all (a bin's requests are a range of rowids).
  const indexes = reopened.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'captured_requests'").all();
  assert.deepEqual(indexes, []);
  const keys = reopened
    .prepare(
      'SELECT b.key AS bin, c.key - b.key * 4294967296 AS seq FROM captured_requests c JOIN bins b ON b.id = c.bin_id ORDER BY c.key',
    )
    .all();
  assert.deepEqual(
    keys.map((k) => (k as { seq: number }).seq),
    [3, 4, 5, 6, 1, 5],
    'each request keyed by its bin and its number in it (3, pushed out, waits for a run of EVICTION_RUN_ROWS)',
  );
  reopened.close();
});
