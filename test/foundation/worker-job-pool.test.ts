import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { DevutilError } from '../../src/errors.js';
import { createJobPool, type JobPool } from '../../src/worker-job-pool.js';
import { startModuleWorker } from '../../src/worker-module.js';
import type { BusyJob } from '../helpers/busy-job-worker.js';

type Result = { spun: number };

function pool(options: { size?: number; idleMs?: number; maxQueue?: number; start?: number; later?: number } = {}): JobPool<BusyJob, Result, string> {
  return createJobPool<BusyJob, Result, string>({
    size: options.size ?? 2,
    idleMs: options.idleMs,
    maxQueue: options.maxQueue ?? 8,
    name: 'test',
    // The worker module is resolved next to the URL given, so its own URL names it.
    spawn: () => startModuleWorker(new URL('../helpers/busy-job-worker.ts', import.meta.url).href, 'busy-job-worker'),
    limitsMs: { start: options.start ?? 2000, later: options.later ?? 2000 },
    timedOut: (phase, meta) => new DevutilError('validation_error', `stopped in ${phase} (${meta})`),
    died: () => new DevutilError('validation_error', 'died'),
    busy: () => new DevutilError('rate_limited', 'busy'),
  });
}

describe('worker job pool (src/worker-job-pool.ts)', () => {
  let p: JobPool<BusyJob, Result, string> | undefined;
  afterEach(async () => {
    await p?.close();
    p = undefined;
  });

  it('starts workers only as jobs need them, up to size, and answers each job', async () => {
    p = pool({ size: 2 });
    assert.equal(p.workers(), 0);
    assert.deepEqual(await p.run({ spin: 1 }, 'a'), { spun: 1, thread: process.pid });
    assert.equal(p.workers(), 1);
    const three = await Promise.all([p.run({ spin: 50 }, 'a'), p.run({ spin: 50 }, 'b'), p.run({ spin: 50 }, 'c')]);
    assert.deepEqual(three.map((r) => r.spun), [50, 50, 50]);
    assert.equal(p.workers(), 2);
  });

  it('a job past its limit fails with the error for its phase; the worker is replaced', async () => {
    p = pool({ size: 1, start: 400, later: 800 });
    await assert.rejects(p.run({ spin: 3000 }, 'm1'), { code: 'validation_error', message: 'stopped in start (m1)' });
    // A reported phase restarts the clock with that phase's limit: 300 ms + 300 ms fits 400 + 800, not 400.
    assert.equal((await p.run({ spin: 300, phase: 'later' }, 'm2')).spun, 300);
    await assert.rejects(p.run({ spin: 3000, phase: 'later' }, 'm3'), { message: 'stopped in start (m3)' });
    assert.equal((await p.run({ spin: 1 }, 'm4')).spun, 1);
  });

  it('errors keep their code, message and field errors; other failures take the handler\'s error', async () => {
    p = pool();
    await assert.rejects(p.run({ spin: 1, fail: 'devutil' }, ''), (err: DevutilError) => {
      assert.equal(err.code, 'validation_error');
      assert.equal(err.message, 'Refused.');
      assert.deepEqual(err.errors, [{ path: 'spin', message: 'refused' }]);
      return true;
    });
    await assert.rejects(p.run({ spin: 1, fail: 'other' }, ''), (err: DevutilError) => {
      assert.deepEqual([err.code, err.message], ['internal_error', 'Unexpected.']);
      // The worker's own error comes along as the cause, for the log.
      assert.equal((err.cause as Error).message, 'boom');
      assert.match(String((err.cause as Error).stack), /TypeError: boom/);
      return true;
    });
  });

  it('refuses past maxQueue with its busy error, and everything waiting when closed', async () => {
    p = pool({ size: 1, maxQueue: 1 });
    await p.run({ spin: 1 }, ''); // the worker is up: the next job runs at once
    const running = p.run({ spin: 300 }, '');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const waiting = p.run({ spin: 1 }, '');
    await assert.rejects(p.run({ spin: 1 }, ''), { code: 'rate_limited' });
    const closed = p.close();
    await assert.rejects(running, { code: 'internal_error' });
    await assert.rejects(waiting, { code: 'internal_error' });
    await closed;
    await assert.rejects(p.run({ spin: 1 }, ''), { code: 'internal_error' });
  });

  it('stops workers idle for idleMs and starts them again for the next job', async () => {
    p = pool({ size: 2, idleMs: 150 });
    await Promise.all([p.run({ spin: 20 }, ''), p.run({ spin: 20 }, '')]);
    assert.equal(p.workers(), 2);
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.equal(p.workers(), 0);
    assert.equal((await p.run({ spin: 1 }, '')).spun, 1);
    assert.equal(p.workers(), 1);
  });
});
