// Preload (node --allow-natives-syntax --expose-gc --import <this>) for the tick-object-shape test.
// On SIGUSR2 (or at once with TICK_FEEDBACK_NOW=1): TICK_FEEDBACK_ROUNDS (default 8) rounds of 20k process.nextTick calls, each
// followed by a full GC while no tick is queued (what V8's memory reducer does to an idle service),
// then 20k more calls, then V8's print of process.nextTick with its feedback on stdout, and
// TICK-FEEDBACK-DONE. V8 prints through C's buffered stdout, which loses output on a pipe (Node
// makes it non-blocking): give the process a file as stdout, complete once the process has exited.
const rounds = Number(process.env.TICK_FEEDBACK_ROUNDS ?? 8);

async function report() {
  for (let i = 0; i < rounds; i++) {
    for (let j = 0; j < 20000; j++) process.nextTick(() => {});
    await new Promise((resolve) => setTimeout(resolve, 5));
    globalThis.gc();
  }
  for (let j = 0; j < 20000; j++) process.nextTick(() => {});
  await new Promise((resolve) => setTimeout(resolve, 5));
  new Function('f', '%DebugPrint(f)')(process.nextTick);
  process.stdout.write('TICK-FEEDBACK-DONE\n');
}
process.on('SIGUSR2', () => void report());
if (process.env.TICK_FEEDBACK_NOW === '1') {
  if (process.env.TICK_FEEDBACK_PIN === '1') await (await import('../../src/tick-object-shape.ts')).pinTickObjectShape();
  await report();
}
