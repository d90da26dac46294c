import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { afterEach, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { DevutilError } from '../../src/errors.js';
import { createWorkerPool, type WorkerPool, type WorkerPoolOptions } from '../../src/workers/pool.js';
import type { BusyJob } from '../helpers/busy-job-worker.js';

type Result = { spun: number; thread: number };

// The worker module is resolved next to the URL given, so its own URL names it.
const BUSY_WORKER = { from: new URL('../helpers/busy-job-worker.ts', import.meta.url).href, module: 'busy-job-worker' };

function pool(options: Partial<WorkerPoolOptions<string>> = {}): WorkerPool<BusyJob, Result, string> {
  return createWorkerPool<BusyJob, Result, string>({
    name: 'test',
    worker: BUSY_WORKER,
    maxThreads: 2,
    maxQueue: 8,
    limitsMs: { run: 2000, later: 2000 },
    errors: {
      timedOut: (phase, meta) => new DevutilError('validation_error', `stopped in ${phase} (${meta})`),
      outOfMemory: () => new DevutilError('validation_error', 'out of memory'),
      busy: (reason) => new DevutilError('rate_limited', `busy: ${reason}`),
    },
    ...options,
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('worker pool (src/workers/pool.ts)', () => {
  let p: WorkerPool<BusyJob, Result, string> | undefined;
  afterEach(async () => {
    await p?.close();
    p = undefined;
  });

  it('starts workers only as jobs need them, up to maxThreads, and answers each job', async () => {
    p = pool({ maxThreads: 2 });
    assert.equal(p.workers(), 0);
    assert.equal((await p.run({ spin: 1 }, 'a')).spun, 1);
    assert.equal(p.workers(), 1);
    const three = await Promise.all([p.run({ spin: 50 }, 'a'), p.run({ spin: 50 }, 'b'), p.run({ spin: 50 }, 'c')]);
    assert.deepEqual(
      three.map((r) => r.spun),
      [50, 50, 50],
    );
    assert.equal(p.workers(), 2);
  });

  it('a job past its limit fails with the error for its phase; the worker is replaced', async () => {
    p = pool({ maxThreads: 1, limitsMs: { run: 400, later: 800 } });
    await assert.rejects(p.run({ spin: 3000 }, 'm1'), { code: 'validation_error', message: 'stopped in run (m1)' });
    // A reported phase restarts the clock with that phase's limit: 300 ms + 300 ms fits 400 + 800, not 400.
    assert.equal((await p.run({ spin: 300, phase: 'later' }, 'm2')).spun, 300);
    await assert.rejects(p.run({ spin: 3000, phase: 'later' }, 'm3'), { message: 'stopped in run (m3)' });
    assert.equal((await p.run({ spin: 1 }, 'm4')).spun, 1);
  });

  it("errors keep their code, message and field errors; other failures take the handler's error", async () => {
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

  it('a worker that exits under a job (not out of memory) is a 500; the next job gets a new worker', async () => {
    p = pool({ maxThreads: 1 });
    const first = await p.run({ spin: 1 }, '');
    await assert.rejects(p.run({ spin: 1, fail: 'exit' }, ''), { code: 'internal_error', status: 500 });
    const next = await p.run({ spin: 1 }, '');
    assert.notEqual(next.thread, first.thread);
  });

  it('a worker past its memory limit fails its job with the out-of-memory error', async () => {
    p = pool({ maxThreads: 1, worker: { ...BUSY_WORKER, resourceLimits: { maxOldGenerationSizeMb: 32 } } });
    await assert.rejects(p.run({ spin: 1, fail: 'memory' }, ''), { code: 'validation_error', message: 'out of memory' });
    assert.equal((await p.run({ spin: 1 }, '')).spun, 1);
  });

  it('refuses past maxQueue with its busy error, and everything waiting when closed', async () => {
    p = pool({ maxThreads: 1, maxQueue: 1 });
    await p.run({ spin: 1 }, ''); // the worker is up: the next job runs at once
    const running = p.run({ spin: 300 }, '');
    await sleep(50);
    const waiting = p.run({ spin: 1 }, '');
    await assert.rejects(p.run({ spin: 1 }, ''), { code: 'rate_limited', message: 'busy: queue' });
    const closed = p.close();
    await assert.rejects(running, { code: 'internal_error' });
    await assert.rejects(waiting, { code: 'internal_error' });
    await closed;
    await assert.rejects(p.run({ spin: 1 }, ''), { code: 'internal_error' });
  });

  it('stops workers idle for idleMs and starts them again for the next job', async () => {
    p = pool({ maxThreads: 2, idleMs: 150 });
    await Promise.all([p.run({ spin: 20 }, ''), p.run({ spin: 20 }, '')]);
    assert.equal(p.workers(), 2);
    // A worker still starting under load (the jobs may both have run on the first) stops idleMs after it is ready.
    for (const end = Date.now() + 5000; p.workers() > 0 && Date.now() < end;) await sleep(20);
    assert.equal(p.workers(), 0);
    assert.equal((await p.run({ spin: 1 }, '')).spun, 1);
    assert.equal(p.workers(), 1);
  });

  it('with fairness, one caller runs at most perCaller jobs at once: a free worker stays for another caller', async () => {
    p = pool({ maxThreads: 3, fairness: { perCaller: 2, maxQueuePerCaller: 4 } });
    // Three workers up (under load one may finish its job before the third has started: run them again).
    for (let i = 0; i < 5 && p.workers() < 3; i++) await Promise.all(['x', 'y', 'z'].map((caller) => p!.run({ spin: 300 }, '', caller)));
    assert.equal(p.workers(), 3);
    const order: string[] = [];
    const job = (caller: string, name: string, spin: number) => p!.run({ spin }, '', caller).then(() => order.push(name));
    const jobs = ['a1', 'a2', 'a3', 'a4'].map((name) => job('a', name, 1000));
    await sleep(20);
    jobs.push(job('b', 'b1', 1));
    await Promise.all(jobs);
    // Caller a's third and fourth jobs waited for its own first two, though a worker was free: b1 ran on it at once.
    assert.equal(order[0], 'b1');
    assert.deepEqual(order.slice(3).sort(), ['a3', 'a4']);
  });

  it('with a deadline, a job still running then is answered at it and keeps its thread; one that never started is busy', async () => {
    p = pool({ maxThreads: 1, limitsMs: { run: 5000 }, deadlineMs: 300 });
    const { thread } = await p.run({ spin: 1 }, '');
    const started = Date.now();
    const slow = p.run({ spin: 800 }, 'slow');
    const late = p.run({ spin: 1 }, 'late');
    await assert.rejects(slow, { message: 'stopped in run (slow)' });
    assert.ok(Date.now() - started < 700, `answered after ${Date.now() - started} ms`);
    await assert.rejects(late, { code: 'rate_limited', message: 'busy: deadline' });
    // Once the slow job is done the same thread takes the next one: it was not terminated.
    await sleep(2000 - (Date.now() - started));
    assert.equal((await p.run({ spin: 1 }, '')).thread, thread);
  });

  it('a job in progress keeps the process alive; an idle pool does not', async () => {
    const script = `
      import { createWorkerPool } from ${JSON.stringify(new URL('../../src/workers/pool.ts', import.meta.url).href)};
      const pool = createWorkerPool({ name: 'test', worker: ${JSON.stringify(BUSY_WORKER)}, maxThreads: 1, maxQueue: 1 });
      pool.run({ spin: 200 }).then((r) => console.log('answered', r.spun));
    `;
    const started = Date.now();
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      timeout: 30_000,
    });
    assert.equal(stdout.trim(), 'answered 200');
    assert.ok(Date.now() - started < 30_000);
  });
});
