// Preloaded into a spawned service (NODE_OPTIONS="--expose-gc --import <this file>") by the
// resource-bounds test: on SIGUSR2 it runs a full garbage collection and prints the live JS heap,
// so the test can tell retained memory from garbage not yet collected.
import { writeSync } from 'node:fs';

process.on('SIGUSR2', () => {
  globalThis.gc();
  globalThis.gc();
  const { heapUsed, external } = process.memoryUsage();
  writeSync(2, `heap-probe ${JSON.stringify({ heapUsed, external })}\n`);
});
