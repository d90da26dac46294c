import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { exited, freePort } from '../helpers/processes.js';

const PRELOAD = ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', '--import', './test/helpers/tick-feedback.mjs'];

/**
 * The states of the four property definitions of nextTick's queue entry literal, from V8's print of
 * its feedback (the only %DebugPrint in the output).
 */
function entryFeedback(output: string): string[] {
  return [...output.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((m) => m[1]!);
}

/**
 * A file for a child's stdout. V8 prints through C's stdio, which loses output on a pipe (Node makes
 * its end non-blocking); a file takes all of it, complete once the child has exited.
 */
function stdoutFile(): { fd: number; read: () => string } {
  const path = join(mkdtempSync(join(tmpdir(), 'devutil-tick-out-')), 'stdout');
  return { fd: openSync(path, 'w'), read: () => readFileSync(path, 'utf8') };
}

/**
 * Idle full collections before the print. With eight, a plain node process under load (two CPU-bound
 * processes beside it) still had monomorphic definitions in 3 runs of 10; with 24, in none of 12.
 */
const IDLE_COLLECTIONS = '24';

/** Node with the preload and TICK_FEEDBACK_NOW: the feedback after idle collections, pinned or not. */
function feedbackOfPlainNode(pin: boolean): { status: number | null; stderr: string; stdout: string } {
  const out = stdoutFile();
  const run = spawnSync(process.execPath, [...PRELOAD, '-e', ''], {
    env: { ...process.env, TICK_FEEDBACK_NOW: '1', TICK_FEEDBACK_PIN: pin ? '1' : '0', TICK_FEEDBACK_ROUNDS: IDLE_COLLECTIONS },
    stdio: ['ignore', out.fd, 'pipe'],
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stderr: run.stderr, stdout: out.read() };
}

describe('process.nextTick after idle full collections', () => {
  it('without a kept tick object, the queue entry literal goes megamorphic (what the service guards against)', () => {
    // The control depends on V8's timing (whether a tick entry happens to be alive at a collection):
    // any of three processes going megamorphic shows what the pin prevents.
    const seen: string[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const run = feedbackOfPlainNode(false);
      assert.equal(run.status, 0, run.stderr);
      const states = entryFeedback(run.stdout);
      assert.equal(states.length, 4, run.stdout.slice(0, 4000));
      if (states.includes('MEGAMORPHIC')) return;
      seen.push(states.join(' '));
    }
    assert.fail(`expected a megamorphic definition in one of three processes: ${seen.join(' | ')}`);
  });

  it('with pinTickObjectShape, every property definition stays monomorphic', () => {
    const run = feedbackOfPlainNode(true);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(entryFeedback(run.stdout), ['MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC']);
  });

  it('devutil serve keeps one: after serving mocks and 24 idle full collections, nextTick is still monomorphic', async () => {
    const port = await freePort();
    const stdout = stdoutFile();
    const child = spawn(process.execPath, [...PRELOAD, 'src/cli/main.ts', 'serve'], {
      env: { ...process.env, LOG_LEVEL: 'warn', PORT: String(port), DATA_DIR: mkdtempSync(join(tmpdir(), 'devutil-tick-')), TICK_FEEDBACK_ROUNDS: IDLE_COLLECTIONS },
      stdio: ['ignore', stdout.fd, 'pipe'],
    });
    let errors = '';
    child.stderr!.on('data', (c) => (errors += c));
    const url = `http://127.0.0.1:${port}`;
    try {
      for (let i = 0; ; i++) {
        assert.ok(i < 900 && child.exitCode === null, errors);
        if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const key = /API key: (dk_\w{32})/.exec(stdout.read())![1]!;
      const created = await fetch(`${url}/v1/mocks`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ body: '{"ok":true}' }),
      });
      assert.equal(created.status, 201);
      const mockUrl = ((await created.json()) as { url: string }).url;
      for (let i = 0; i < 200; i++) assert.equal((await fetch(mockUrl)).status, 200);
      child.kill('SIGUSR2');
      for (let i = 0; !stdout.read().includes('TICK-FEEDBACK-DONE'); i++) {
        assert.ok(i < 300, errors);
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal((await fetch(mockUrl)).status, 200);
    } finally {
      child.kill('SIGTERM');
    }
    // Exiting flushes V8's print.
    assert.equal(await exited(child), 0, errors);
    assert.deepEqual(entryFeedback(stdout.read()), ['MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC']);
  });
});
