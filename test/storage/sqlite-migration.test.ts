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
    assert.deepEqual((await store.bins.listRequests('bin_a', page)).items.map((r) => r.id), ['req_a5', 'req_a4', 'req_a3']);
    assert.deepEqual((await store.bins.listRequests('bin_b', page)).items.map((r) => r.id), ['req_b1']);
    assert.equal((await store.bins.getRequest('bin_a', 'req_a4'))!.body.toString(), '4');

    // New captures continue the bin's sequence; the cap of 3 evicts the oldest.
    const capture = (id: string) =>
      store.bins.captureRequest(
        { id, binId: 'bin_a', method: 'GET', path: '/v1/catch/bin_a', queryString: '', headers: {}, body: Buffer.alloc(0), contentType: '', sourceIp: '127.0.0.1', timestamp: T0 + 10 },
        { maxRequests: 3, now: T0 + 10 },
      );
    assert.equal(await capture('req_a6'), 6);
    const after = await store.bins.listRequests('bin_a', page);
    assert.deepEqual(after.items.map((r) => r.id), ['req_a6', 'req_a5', 'req_a4']);
    assert.equal(after.total, 3);
  } finally {
    await store.close();
  }
  const reopened = new Database(join(dir, 'devutil.db'), { readonly: true });
  assert.equal(reopened.pragma('user_version', { simple: true }), MIGRATIONS.length);
  assert.equal(reopened.pragma('integrity_check', { simple: true }), 'ok');
  // Version 3: no index on the random request id, one on the bin that carries it.
  const indexes = reopened.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'captured_requests'").all();
  assert.deepEqual(indexes, [{ name: 'captured_requests_by_bin', sql: 'CREATE INDEX captured_requests_by_bin ON captured_requests (bin_id, bin_seq, id)' }]);
  reopened.close();
});
