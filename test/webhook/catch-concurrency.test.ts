import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createSqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import { buildTestApp } from '../helpers/app.js';

/** A fetch response body as loosely typed JSON (tests assert its shape). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function jsonOf(res: Response): Promise<any> {
  return res.json();
}

describe('catch: concurrency', () => {
  it('1000 concurrent captures to one bin over a real socket are all stored and counted exactly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'devutil-catch-'));
    const t = await buildTestApp({ env: { AREAS: 'webhook' }, store: createSqliteStore({ dataDir: dir }) });
    try {
      const binId = (await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} })).json().bin.bin_id;
      // All 1000 connections arrive at once: a backlog above Node's default 511 keeps the kernel from resetting some.
      const base = await t.app.listen({ port: 0, host: '127.0.0.1', backlog: 2048 });
      const acks = await Promise.all(
        Array.from({ length: 1000 }, async (_, i) => {
          const res = await fetch(`${base}/v1/catch/${binId}/c/${i}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ i }),
          });
          assert.equal(res.status, 200);
          return { i, requestId: (await jsonOf(res)).request_id as string };
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
