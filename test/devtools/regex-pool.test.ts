import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { createRegexPool } from '../../src/areas/devtools/regex-pool.js';
import { compilePattern } from '../../src/areas/devtools/regex-syntax.js';
import { threadCount, waitUntil } from '../helpers/threads.js';

const LIMITS = { maxMatches: 10, maxOutputChars: 1000, maxOutputValues: 1000 };

describe('regex pool', () => {
  it(
    'starts extra threads for other owners while all are busy and stops them once idle',
    { skip: !existsSync('/proc/self/task') && 'no /proc/self/task' },
    async () => {
      // Limits of seconds: the threads started for the others must get their CPU in time on a loaded machine.
      const pool = createRegexPool({
        size: 1,
        maxThreads: 3,
        perOwner: 1,
        timeoutMs: 3000,
        deadlineMs: 3500,
        maxQueue: 8,
        maxQueuePerOwner: 4,
        idleMs: 200,
      });
      try {
        await pool.run(compilePattern('a', ''), 'a', LIMITS, 'warm');
        const warm = threadCount();
        let slowAnswered = false;
        const slow = assert.rejects(pool.run(compilePattern('(a+)+$', ''), `${'a'.repeat(30)}!`, LIMITS, 'attacker'), {
          code: 'regex_timeout',
        });
        void slow.finally(() => (slowAnswered = true));
        // The attacker holds the only warm thread for 3 s: the others' patterns run on threads started for them.
        const others = await Promise.all(['b', 'c'].map((owner) => pool.run(compilePattern(owner, ''), 'abc', LIMITS, owner)));
        assert.deepEqual(
          others.map((r) => r.matches.map((m) => m.match)),
          [['b'], ['c']],
        );
        assert.equal(slowAnswered, false);
        const grown = threadCount();
        await slow;
        assert.ok(await waitUntil(() => threadCount() <= warm, 3000), `threads ${warm} -> ${grown} -> ${threadCount()} after idling`);
        // The warm thread stays and still works.
        assert.deepEqual(
          (await pool.run(compilePattern('c', ''), 'abc', LIMITS, 'b')).matches.map((m) => m.match),
          ['c'],
        );
      } finally {
        await pool.close();
      }
    },
  );

  it(
    'a job answered at its request deadline keeps its thread when its pattern ends within its own time limit',
    { skip: !existsSync('/proc/self/task') && 'no /proc/self/task' },
    async () => {
      // Deadline 100 ms, time limit 60 s: a pattern of about 0.1-1 s of CPU is answered 422 at the deadline, then
      // finishes. The thread runs at nice 10, behind everything else on the machine: on a loaded one (CI running
      // other test files beside this one) its second of CPU took more than 8 s to get.
      const pool = createRegexPool({
        size: 1,
        maxThreads: 1,
        perOwner: 1,
        timeoutMs: 60_000,
        deadlineMs: 100,
        maxQueue: 8,
        maxQueuePerOwner: 4,
        idleMs: 60_000,
      });
      const taskIds = () => readdirSync('/proc/self/task').sort().join(',');
      try {
        await pool.run(compilePattern('a', ''), 'a', LIMITS, 'warm');
        const before = taskIds();
        const started = Date.now();
        await assert.rejects(pool.run(compilePattern('(a+)+$', ''), `${'a'.repeat(24)}!`, LIMITS, 'late'), { code: 'regex_timeout' });
        assert.ok(Date.now() - started < 1000, `answered after ${Date.now() - started} ms`);
        // Once the pattern is done the same thread takes the next job: no thread was terminated or started.
        let next: string[] = [];
        for (const end = Date.now() + 50_000; Date.now() < end; await sleep(50)) {
          try {
            next = (await pool.run(compilePattern('b', ''), 'abc', LIMITS, 'late')).matches.map((m) => m.match);
            break;
          } catch (err) {
            if ((err as { code?: string }).code !== 'rate_limited') throw err; // the thread is still busy
          }
        }
        assert.deepEqual(next, ['b']);
        assert.equal(taskIds(), before);
      } finally {
        await pool.close();
      }
    },
  );

  it(
    'close() also waits for a thread still being terminated after a timeout',
    { skip: !existsSync('/proc/self/task') && 'no /proc/self/task' },
    async () => {
      const baseline = threadCount();
      const pool = createRegexPool({
        size: 1,
        maxThreads: 2,
        perOwner: 1,
        timeoutMs: 100,
        deadlineMs: 900,
        maxQueue: 8,
        maxQueuePerOwner: 4,
        idleMs: 60_000,
      });
      await pool.run(compilePattern('a', ''), 'a', LIMITS, 'warm');
      await assert.rejects(pool.run(compilePattern('(a+)+$', ''), `${'a'.repeat(40)}!`, LIMITS, 'attacker'), { code: 'regex_timeout' });
      await pool.close();
      assert.equal(threadCount(), baseline);
    },
  );

  it('a job that never found a free thread is 429 rate_limited with Retry-After, not regex_timeout', async () => {
    const pool = createRegexPool({
      size: 1,
      maxThreads: 1,
      perOwner: 1,
      timeoutMs: 500,
      deadlineMs: 300,
      maxQueue: 8,
      maxQueuePerOwner: 4,
      idleMs: 200,
    });
    try {
      await pool.run(compilePattern('a', ''), 'a', LIMITS, 'warm');
      const slow = assert.rejects(pool.run(compilePattern('(a+)+$', ''), `${'a'.repeat(30)}!`, LIMITS, 'attacker'), {
        code: 'regex_timeout',
        status: 422,
      });
      await assert.rejects(pool.run(compilePattern('b', ''), 'abc', LIMITS, 'other'), {
        code: 'rate_limited',
        status: 429,
        headers: { 'retry-after': '1' },
      });
      await slow;
    } finally {
      await pool.close();
    }
  });

  it("one owner may not fill the queue: its jobs beyond maxQueuePerOwner are 429 at once, another owner's still run", async () => {
    // One thread, replaced after each of the two catastrophic jobs (a worker started under tsx on a busy
    // machine can take a few hundred ms): the other owner's job waits for both, so its deadline is long.
    const pool = createRegexPool({
      size: 1,
      maxThreads: 1,
      perOwner: 1,
      timeoutMs: 200,
      deadlineMs: 4000,
      maxQueue: 8,
      maxQueuePerOwner: 1,
      idleMs: 200,
    });
    try {
      await pool.run(compilePattern('a', ''), 'a', LIMITS, 'warm');
      const catastrophic = () => pool.run(compilePattern('(a+)+$', ''), `${'a'.repeat(30)}!`, LIMITS, 'attacker');
      const accepted = [catastrophic(), catastrophic()].map((job) => assert.rejects(job, { code: 'regex_timeout' }));
      await assert.rejects(catastrophic(), { code: 'rate_limited', status: 429 });
      assert.deepEqual(
        (await pool.run(compilePattern('b', ''), 'abc', LIMITS, 'other')).matches.map((m) => m.match),
        ['b'],
      );
      await Promise.all(accepted);
    } finally {
      await pool.close();
    }
  });

  it('a full queue still takes a new caller: the newest job of the caller with the most waiting gives way (429)', async () => {
    // A long deadline: every job that keeps its place runs (one thread, 200 ms each, replaced after each
    // timed-out job), whatever the machine's load.
    const pool = createRegexPool({
      size: 1,
      maxThreads: 1,
      perOwner: 1,
      timeoutMs: 200,
      deadlineMs: 6000,
      maxQueue: 4,
      maxQueuePerOwner: 2,
      idleMs: 200,
    });
    try {
      await pool.run(compilePattern('a', ''), 'a', LIMITS, 'warm');
      const catastrophic = (owner: string) => pool.run(compilePattern('(a+)+$', ''), `${'a'.repeat(30)}!`, LIMITS, owner);
      // a1 runs; a2, a3 and b1, b2 wait: the queue (4) is full with two callers of two each.
      const outcomes = ['a', 'a', 'a', 'b', 'b'].map((owner) =>
        catastrophic(owner).then(
          () => 'ok',
          (err: { code: string }) => err.code,
        ),
      );
      await sleep(20);
      // Another caller gets in: the newest job of a longest queue (a3) gives way with 429.
      const other = pool.run(compilePattern('b', ''), 'abc', LIMITS, 'c');
      // A caller with as many waiting as the longest does not push anyone out.
      await assert.rejects(catastrophic('b'), { code: 'rate_limited', status: 429 });
      const codes = await Promise.all(outcomes);
      assert.equal(codes.filter((c) => c === 'rate_limited').length, 1, codes.join(','));
      assert.equal(codes.filter((c) => c === 'regex_timeout').length, 4, codes.join(','));
      assert.deepEqual(
        (await other).matches.map((m) => m.match),
        ['b'],
      );
    } finally {
      await pool.close();
    }
  });
});
