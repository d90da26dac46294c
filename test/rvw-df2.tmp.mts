import { formatDate } from '../src/areas/devtools/date-format.js';
for (const date of [8640000000000000, '8640000000000000', 8640000000000, -8640000000000000, -8640000000000, '+275760-09-13T00:00:00Z', '275760-09-13T00:00:00Z', '275760-09-12T20:00:00']) {
  for (const to of ['Asia/Kolkata', 'America/New_York']) {
    try { const r = formatDate({ date, toTimezone: to } as any); console.log(JSON.stringify(date), to, JSON.stringify(r)); } catch (e: any) { console.log(JSON.stringify(date), to, 'ERR', e.code, e.message.slice(0, 100)); }
  }
}
