import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { buildTestApp } from '../helpers/app.js';
import { threadCount, waitUntil } from '../helpers/threads.js';

describe('crypto worker threads', () => {
  it(
    'start with the first task that needs one and stop when the app closes',
    { skip: !existsSync('/proc/self/task') && 'no /proc/self/task' },
    async () => {
      // Node starts some threads lazily, once per process: a first app lets them start, so the app
      // measured next owns every thread it adds.
      const warm = await buildTestApp();
      await warm.app.inject({ method: 'POST', url: '/v1/auth/password-strength', headers: warm.auth, payload: { password: 'warm up' } });
      await warm.close();

      const beforeApp = threadCount();
      const t = await buildTestApp();
      let before: number;
      let during: number;
      try {
        before = threadCount();
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/auth/password-strength',
          headers: t.auth,
          payload: { password: 'correct horse battery staple' },
        });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().strength, 'very_strong');
        during = threadCount();
        assert.ok(during > before, `threads ${before} -> ${during}: the estimator ran on a worker thread`);
      } finally {
        await t.close();
      }
      assert.ok(
        await waitUntil(() => threadCount() <= beforeApp, 5000),
        `threads ${beforeApp} (before the app) -> ${during} -> ${threadCount()} after app.close()`,
      );
    },
  );

  it('belong to their app: closing one app leaves another app in the process its own', async () => {
    const [a, b] = await Promise.all([buildTestApp(), buildTestApp()]);
    const estimate = (t: typeof a) =>
      t.app.inject({ method: 'POST', url: '/v1/auth/password-strength', headers: t.auth, payload: { password: 'password123' } });
    try {
      assert.equal((await estimate(a)).statusCode, 200);
      assert.equal((await estimate(b)).statusCode, 200);
      await a.close();
      const res = await estimate(b);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().strength, 'very_weak');
    } finally {
      await b.close();
    }
  });
});
