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
await during('names 1000x50 (worker)', { fields: f(50, 'name'), rows: 1000 });
await during('constant 4500 zeros x1000 rows (worker)', { fields: f(1, 'constant', { value: Array(4500).fill(0) }), rows: 1000 });
await during('constant 4500 {} x1000 rows (worker)', { fields: f(1, 'constant', { value: Array.from({length: 3000}, () => ({})) }), rows: 1000 });
await during('constant 300k {} x 6 rows (inline)', { fields: f(1, 'constant', { value: Array.from({ length: 300_000 }, () => ({})) }), rows: 6 });
await t.close();
