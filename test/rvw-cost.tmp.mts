import { planMockData } from '../src/areas/devtools/mock-data/generate.js';
import { listFieldTypes } from '../src/areas/devtools/mock-data/field-types.js';
const f = (n: number, type: string, options?: unknown) => Array.from({ length: n }, (_, i) => ({ name: `f${i}`, type, options }));
function time(label: string, req: any) {
  const t0 = performance.now();
  const plan = planMockData(req);
  const t1 = performance.now();
  let err = '';
  try { const out = plan.run(); if (req.outputFormat !== 'csv') JSON.stringify(out.data); } catch (e: any) { err = e.code + ' ' + e.message.slice(0, 60); }
  const t2 = performance.now();
  console.log(label.padEnd(40), 'cost', plan.cost.toFixed(1).padStart(7), 'plan', (t1 - t0).toFixed(1), 'run+ser', (t2 - t1).toFixed(1), 'ms', err);
}
// warm
for (let i = 0; i < 3; i++) planMockData({ fields: f(50, 'paragraph', { sentences: 20 }), rows: 5 }).run();
const results: [string, number][] = [];
for (const t of listFieldTypes() as any[]) {
  if (['enum', 'constant', 'regex'].includes(t.name)) continue;
  planMockData({ fields: f(50, t.name), rows: 5, seed: 1 }).run();
  const t0 = performance.now();
  planMockData({ fields: f(50, t.name), rows: 5, seed: 2 }).run();
  results.push([t.name, performance.now() - t0]);
}
results.sort((a, b) => b[1] - a[1]);
console.log('slowest default types at cost 250:', results.slice(0, 8).map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join(', '));
time('paragraph(20) 5x50', { fields: f(50, 'paragraph', { sentences: 20 }), rows: 5, seed: 1 });
time('words(50) 5x50', { fields: f(50, 'words', { count: 50 }), rows: 5, seed: 1 });
time('sentence(50) 5x50', { fields: f(50, 'sentence', { words: 50 }), rows: 5, seed: 1 });
const bigObj = Array.from({ length: 150000 }, (_, i) => i % 10);
time('constant 300KB array x 33 rows', { fields: f(1, 'constant', { value: bigObj }), rows: 33, seed: 1 });
const bigStr = 'x'.repeat(1_500_000);
time('constant 1.5MB string x 6 rows', { fields: f(1, 'constant', { value: bigStr }), rows: 6, seed: 1 });
const bigObjs = Array.from({ length: 1000 }, (_, i) => Array.from({ length: 200 }, (_, j) => j));
time('enum 1000 x 200-arrays, 256 rows', { fields: f(1, 'enum', { values: bigObjs }), rows: 256, seed: 1 });
time('enum 1000 x 200-arrays, 50x5 rows', { fields: f(50, 'enum', { values: bigObjs }), rows: 5, seed: 1 });
time('enum 1000 x 200-arrays, 256 rows xml', { fields: f(1, 'enum', { values: bigObjs }), rows: 256, seed: 1, outputFormat: 'xml' });
time('regex deep 1 row x 50', { fields: f(50, 'regex', { pattern: '(((()*)*)*)*', max_repeat: 16 }), rows: 1 });

time('constant 1M-zero array x 4 rows', { fields: f(1, 'constant', { value: Array(1_000_000).fill(0) }), rows: 4, seed: 1 });
time('constant 650k {} x 4 rows', { fields: f(1, 'constant', { value: Array.from({length: 650_000}, () => ({})) }), rows: 4, seed: 1 });
time('constant 500k [[]] nested', { fields: f(1, 'constant', { value: Array.from({length: 400_000}, () => [[]]) }), rows: 3, seed: 1 });

