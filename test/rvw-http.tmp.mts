import { buildTestApp } from './helpers/app.js';
const t = await buildTestApp();
const post = (payload: unknown) => t.app.inject({ method: 'POST', url: '/v1/mock-data', headers: t.auth, payload: payload as object });
async function during(label: string, payload: any) {
  let done = false; let worst = 0;
  const started = performance.now();
  let last = performance.now();
  const iv = setInterval(() => { const now = performance.now(); worst = Math.max(worst, now - last); last = now; }, 2);
  await new Promise((r) => setTimeout(r, 20));
  const p = post(payload).finally(() => (done = true));
  const res = await p; await new Promise((r) => setTimeout(r, 10)); clearInterval(iv);
  console.log(label.padEnd(36), res.statusCode, 'bytes', res.body.length, 'total', (performance.now() - started).toFixed(0), 'ms, worst loop gap', worst.toFixed(0), 'ms', res.statusCode !== 200 ? res.body.slice(0, 200) : '');
}
const f = (n: number, type: string, options?: unknown) => Array.from({ length: n }, (_, i) => ({ name: `f${i}`, type, options }));
await post({ fields: f(1, 'name'), rows: 1 });
await during('constant 1M zeros x 4 rows', { fields: f(1, 'constant', { value: Array(1_000_000).fill(0) }), rows: 4 });
await during('constant 1M zeros x 4 rows csv', { fields: f(1, 'constant', { value: Array(1_000_000).fill(0) }), rows: 4, output_format: 'csv' });
await during('paragraph(20) 5x50', { fields: f(50, 'paragraph', { sentences: 20 }), rows: 5 });
await during('paragraph(20) 5x50 (2)', { fields: f(50, 'paragraph', { sentences: 20 }), rows: 5 });
await during('names 1000x50 (worker)', { fields: f(50, 'name'), rows: 1000 });
await during('words(50) 1000x50 json (worker)', { fields: f(50, 'words', { count: 50 }), rows: 1000 });
await during('constant 300k {} x 6 rows', { fields: f(1, 'constant', { value: Array.from({ length: 300_000 }, () => ({})) }), rows: 6 });
await during('constant 300k {} x 6 rows xml', { fields: f(1, 'constant', { value: Array.from({ length: 300_000 }, () => ({})) }), rows: 6, output_format: 'xml' });
await t.close();
