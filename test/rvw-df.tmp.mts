import { formatDate } from '../src/areas/devtools/date-format.js';
for (const date of [-62198755200, -62200000000.5, -64000000000, 253402300800, '1883-11-18T12:00:00.250Z', '1850-01-01T00:00:00.999Z', '1920-01-01T00:00:00Z']) {
  for (const to of ['UTC', 'America/New_York', 'Africa/Monrovia', 'Europe/Amsterdam']) {
    try { const r = formatDate({ date, outputFormat: '%Y|%y|%C|%G|%D|%F|%z|%Z', toTimezone: to } as any); console.log(date, to, r.formatted, r.iso8601, r.timestamp); } catch (e: any) { console.log(date, to, 'ERR', e.message); }
  }
}
