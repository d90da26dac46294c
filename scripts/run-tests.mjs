#!/usr/bin/env node
// Runs every test/**/*.test.ts with node's test runner (TypeScript through tsx), in two passes:
// most files two at a time, then the timing-sensitive ones (event-loop latency, regex deadlines,
// slow clients, crash recovery, timing comparisons, large mock-data draws, date formats matched on a worker) one at a time so that no other test file
// competes with them for the machine's cores. Ends with one combined "N passed, N failed" line.
// Usage: node scripts/run-tests.mjs [path-filter ...]
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SERIAL =
  /(event-loop|regex-extract|slow-clients|crash|keys|aes|mock-serve|resource-bounds|mock-data-workers|date-format-workers)\.test\.ts$/;

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

function runPass(files, concurrency) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-timeout=300000', '--test-reporter=spec', ...files],
      { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' } },
    );
    const counts = { pass: 0, fail: 0, cancelled: 0, skipped: 0 };
    // All of it: the spec reporter lists the failures again after its counts, however long they are.
    const output = [];
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      output.push(chunk);
    });
    child.on('exit', (code) => {
      const tail = Buffer.concat(output).toString('utf8');
      for (const key of Object.keys(counts)) {
        const all = [...tail.matchAll(new RegExp(`^ℹ ${key} (\\d+)$`, 'gm'))];
        if (all.length > 0) counts[key] = Number(all[all.length - 1][1]);
      }
      resolve({ code: code ?? 1, counts });
    });
  });
}

const filters = process.argv.slice(2);
const files = find('test')
  .sort()
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const passes = [
  [files.filter((f) => !SERIAL.test(f)), 2],
  [files.filter((f) => SERIAL.test(f)), 1],
].filter(([list]) => list.length > 0);
const total = { pass: 0, fail: 0, cancelled: 0, skipped: 0 };
let exitCode = 0;
for (const [list, concurrency] of passes) {
  const { code, counts } = await runPass(list, concurrency);
  if (code !== 0) exitCode = code;
  for (const key of Object.keys(total)) total[key] += counts[key];
}
// A test cancelled (its suite's `before` hook failed, or its file timed out) did not pass: it counts as failed.
console.log(`\ntests: ${total.pass} passed, ${total.fail + total.cancelled} failed, ${total.skipped} skipped`);
process.exit(exitCode);
