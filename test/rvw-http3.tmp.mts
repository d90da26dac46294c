import { buildTestApp } from './helpers/app.js';
const t = await buildTestApp();
for (const [date, tz] of [[8640000000000000, 'Asia/Kolkata'], [-8640000000000000, 'America/New_York']]) {
  const res = await t.app.inject({ method: 'POST', url: '/v1/date-format', headers: t.auth, payload: { date, to_timezone: tz } });
  console.log(res.statusCode, res.body);
}
await t.close();
