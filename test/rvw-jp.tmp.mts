import { buildTestApp } from './helpers/app.js';
const t = await buildTestApp();
const post = (payload: unknown) => t.app.inject({ method: 'POST', url: '/v1/json-transform', headers: t.auth, payload: JSON.stringify(payload) , });
const ctl = '\u0001'.repeat(340_000);
const body1 = JSON.stringify({ data: ctl, expression: '[' + Array(98).fill('@').join(',') + ']' });
console.log('request bytes', body1.length);
let s = performance.now();
let res = await t.app.inject({ method: 'POST', url: '/v1/json-transform', headers: { ...t.auth, 'content-type': 'application/json' }, payload: body1 });
console.log('ctl x98:', res.statusCode, 'response bytes', res.rawPayload.length, (performance.now() - s).toFixed(0), 'ms', res.statusCode !== 200 ? res.body.slice(0, 200) : '');
// Numbers: no chars counted
const nums = Array(100_000).fill(-1.2345678901234567e-300);
const body2 = JSON.stringify({ data: nums, expression: '[' + Array(19).fill('@').join(',') + ']' });
console.log('request bytes', body2.length);
s = performance.now();
res = await t.app.inject({ method: 'POST', url: '/v1/json-transform', headers: { ...t.auth, 'content-type': 'application/json' }, payload: body2 });
console.log('nums x19:', res.statusCode, 'response bytes', res.rawPayload.length, (performance.now() - s).toFixed(0), 'ms', res.statusCode !== 200 ? res.body.slice(0, 200) : '');
// ordinary: 1.5 MB of ascii repeated 20 times -> 30M chars passes; 23 times refused
const asc = 'a'.repeat(1_500_000);
for (const n of [21, 23]) {
  res = await t.app.inject({ method: 'POST', url: '/v1/json-transform', headers: { ...t.auth, 'content-type': 'application/json' }, payload: JSON.stringify({ data: asc, expression: '[' + Array(n).fill('@').join(',') + ']' }) });
  console.log('ascii x', n, res.statusCode, res.rawPayload.length, res.statusCode !== 200 ? res.body.slice(0, 200) : '');
}
await t.close();
