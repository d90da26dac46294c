import { DateTime } from 'luxon';
import { isoDateTime } from '../src/areas/devtools/strftime.js';
const zones = Intl.supportedValuesOf('timeZone');
const re = /^([+-]\d{6}|\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{3}))?(Z|([+-])(\d\d):(\d\d)(?::(\d\d))?)$/;
function back(s: string): number {
  const m = re.exec(s); if (!m) return NaN;
  const d = new Date(0); d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3])); d.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6]), Number(m[7] ?? 0));
  const off = m[8] === 'Z' ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 3600 + Number(m[11]) * 60 + Number(m[12] ?? 0)) * 1000;
  return d.getTime() - off;
}
let bad = 0, diffLuxon = 0; const samples: string[] = [];
const instants: number[] = [];
for (const y of [-271820, -10000, -1, 0, 1, 100, 1000, 1700, 1800, 1850, 1880, 1900, 1920, 1950, 1970, 2000, 2026, 9999, 10000, 275759]) for (const ms of [0, 1, 999, 123456789, 15_000_000_000 + 7]) { const d = Date.UTC(2000, 0, 1) ; const dd = new Date(d); dd.setUTCFullYear(y); instants.push(dd.getTime() + ms); }
for (let i = 0; i < 3000; i++) instants.push(Math.floor((Math.random() - 0.7) * 1e13));
for (const z of zones) for (const ts of instants) {
  const dt = DateTime.fromMillis(ts, { zone: z }); if (!dt.isValid) continue;
  const s = isoDateTime(dt); const l = dt.toISO({ suppressMilliseconds: true });
  const b = back(s);
  if (b !== ts) { bad++; if (samples.length < 15) samples.push(`${z} ${ts} ${new Date(ts).toISOString?.()} -> ${s} (luxon ${l}) back-diff ${b - ts} ms offset=${dt.offset}`); }
  else if (l !== s && !/:\d\d:\d\d$/.test(s) && !/^[+-]\d{6}/.test(s)) { diffLuxon++; if (samples.length < 15) samples.push(`DIFF ${z} ${ts} ${s} vs ${l}`); }
}
console.log('bad', bad, 'diff', diffLuxon); console.log(samples.join('\n'));
