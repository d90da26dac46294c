import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { buildTestApp } from '../helpers/app.js';

const threads = () => readdirSync('/proc/self/task').length;

async function waitUntil(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(20)) if (check()) return true;
  return check();
}

describe('crypto worker threads', () => {
  it(
    'start with the first task that needs one and stop when the app closes',
    { skip: !existsSync('/proc/self/task') && 'no /proc/self/task' },
    async () => {
      const t = await buildTestApp();
      let before: number;
      let during: number;
      try {
        before = threads();
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/auth/password-strength',
          headers: t.auth,
          payload: { password: 'correct horse battery staple' },
        });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().strength, 'very_strong');
        during = threads();
        assert.ok(during > before, `threads ${before} -> ${during}: the estimator ran on a worker thread`);
      } finally {
        await t.close();
      }
      assert.ok(await waitUntil(() => threads() <= before, 5000), `threads ${before} -> ${during} -> ${threads()} after app.close()`);
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
