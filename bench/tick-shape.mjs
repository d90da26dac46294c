// process.nextTick after idle full collections, with and without the service's pinned tick object
// (src/tick-object-shape.ts). Each case runs in a fresh `node --expose-gc` process: eight rounds of
// 20k nextTick calls, each followed by a full GC while no tick is queued (as V8's memory reducer
// does in an idle service), then 1M nextTick calls are timed (best of 3 rounds).
// Run: npm run build && (cd bench && node tick-shape.mjs)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { writeResults } from './lib.mjs';

if (process.argv[2] === 'child') {
  const pin = process.argv[3] === 'pinned';
  if (pin) await (await import('../dist/src/tick-object-shape.js')).pinTickObjectShape();
  for (let i = 0; i < 8; i++) {
    for (let j = 0; j < 20000; j++) process.nextTick(() => {});
    await new Promise((resolve) => setTimeout(resolve, 5));
    globalThis.gc();
  }
  const noop = () => {};
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const start = process.hrtime.bigint();
    for (let k = 0; k < 100; k++) {
      for (let j = 0; j < 10000; j++) process.nextTick(noop);
      await new Promise((resolve) => setImmediate(resolve));
    }
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
  }
  console.log(JSON.stringify({ ms: best }));
} else {
  const self = fileURLToPath(import.meta.url);
  const rows = [];
  for (const mode of ['not pinned', 'pinned', 'not pinned', 'pinned', 'not pinned', 'pinned']) {
    const out = spawnSync(process.execPath, ['--expose-gc', self, 'child', mode === 'pinned' ? 'pinned' : 'plain'], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(out.stderr);
    const { ms } = JSON.parse(out.stdout);
    rows.push({ title: `1M process.nextTick after 8 idle full GCs, tick object ${mode}`, pinned: mode === 'pinned', ms: Math.round(ms * 10) / 10, ns_per_call: Math.round(ms) });
  }
  const mean = (pinned) => rows.filter((r) => r.pinned === pinned).reduce((sum, r, _, all) => sum + r.ms / all.length, 0);
  const [plain, pinned] = [mean(false), mean(true)];
  writeResults('tick-shape', {
    note: 'Fresh node --expose-gc process per row, best of 3 timed rounds in each.',
    rows,
    verdicts: [`nextTick: ${Math.round(plain)} ns per call without the pin, ${Math.round(pinned)} ns with it (${Math.round((plain / pinned) * 10) / 10}x)`],
  });
}
