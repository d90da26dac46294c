import { buildTestApp } from './helpers/app.js';
const t = await buildTestApp();
const go = async (label: string, data: unknown, n: number) => {
  const payload = JSON.stringify({ data, expression: '[' + Array(n).fill('@').join(',') + ']' });
  const s = performance.now();
  const res = await t.app.inject({ method: 'POST', url: '/v1/json-transform', headers: { ...t.auth, 'content-type': 'application/json' }, payload });
  console.log(label, 'req', payload.length, '->', res.statusCode, 'resp bytes', res.rawPayload.length, (performance.now() - s).toFixed(0), 'ms', res.statusCode !== 200 ? res.body.slice(0, 120) : '');
};
await go('numbers 80k x24', Array(80_000).fill(-1.2345678901234567e-300), 24);
await go('euro 680k x49', '€'.repeat(680_000), 49);
await t.close();
