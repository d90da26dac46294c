import { buildTestApp } from './helpers/app.js';
const t = await buildTestApp();
const post = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, headers: t.auth, payload: payload as object });
for (const n of [29, 31]) {
  const started = performance.now();
  const res = await post('/v1/json-schema-validate', { data: 'ü'.repeat(n), schema: { format: 'idn-email' }, draft: '7' });
  console.log('idn-email', n, res.statusCode, res.body.slice(0, 120), (performance.now() - started).toFixed(0), 'ms');
}
await t.close();
