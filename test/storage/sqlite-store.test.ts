import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { createSqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import { runStoreSuite } from './store-suite.js';

runStoreSuite('sqlite (in memory)', async () => createSqliteStore({ dataDir: ':memory:' }));


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
