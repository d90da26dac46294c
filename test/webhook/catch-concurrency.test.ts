import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createSqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import { buildTestApp, listenOnLoopback } from '../helpers/app.js';

describe('catch: concurrency', () => {
  it('1000 concurrent captures to one bin over a real socket are all stored and counted exactly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'devutil-catch-'));
    const t = await buildTestApp({ env: { AREAS: 'webhook' }, store: createSqliteStore({ dataDir: dir }) });
    try {
      const binId = (await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} })).json().bin.bin_id;
      const base = await listenOnLoopback(t.app);
      const acks = await Promise.all(
        Array.from({ length: 1000 }, async (_, i) => {
          const res = await fetch(`${base}/v1/catch/${binId}/c/${i}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ i }),
          });
          assert.equal(res.status, 200);
          return { i, requestId: (await res.json()).request_id as string };
        }),
      );
      assert.equal(new Set(acks.map((a) => a.requestId)).size, 1000);
      const bin = (await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}`, headers: t.auth })).json().bin;
      assert.equal(bin.request_count, 1000);
      const list = (await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests?limit=1`, headers: t.auth })).json();
      assert.equal(list.total, 1000);
      for (const { i, requestId } of acks) {
        const stored = await t.store.bins.getRequest(binId, requestId);
        assert.ok(stored, `request ${i} stored`);
        assert.equal(stored.body.toString(), JSON.stringify({ i }));
        assert.equal(stored.path, `/v1/catch/${binId}/c/${i}`);
      }
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
