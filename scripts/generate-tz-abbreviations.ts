// Writes src/areas/devtools/tz-abbreviations.json: the tz database's abbreviations (what C strftime
// and Python's zoneinfo print for %Z) for every zone and every period of its history, read from the
// compiled tzdata files Python's zoneinfo reads (/usr/share/zoneinfo, RFC 8536 TZif).
//
// Each zone's history is cut into eras within which an offset always has the same abbreviation
// (New York: LMT/EST/EDT until 1942, EWT in the war, ...), so %Z needs only the instant's era and
// the offset luxon (ICU) gives, and stays right when ICU and the system's tzdata move a transition
// by a release. Zones with the same history as the zone they link to are written as links.
// Run again after a tzdata update: node --import tsx scripts/generate-tz-abbreviations.ts
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const ZONEINFO = process.env.ZONEINFO ?? '/usr/share/zoneinfo';
const OUT = new URL('../src/areas/devtools/tz-abbreviations.json', import.meta.url);

interface Period {
  start: number | null;
  offset: number;
  abbreviation: string;
  fromRule?: boolean;
}
type Era = [start: number | null, ...pairs: (number | string)[]];

/** Transitions, local time types and footer of a TZif file (its 64-bit part, RFC 8536 §3). */
function readTzif(path: string): Period[] {
  const data = readFileSync(path);
  if (data.toString('latin1', 0, 4) !== 'TZif') throw new Error(`${path}: not a TZif file`);
  const counts = (at: number) => [0, 1, 2, 3, 4, 5].map((i) => data.readUInt32BE(at + 20 + i * 4));
  const [isut, isstd, leap, time, type, chars] = counts(0);
  if (data[4] === 0) throw new Error(`${path}: version 1 TZif has no 64-bit data`);
  const v2 = 44 + time * 5 + type * 6 + chars + leap * 8 + isstd + isut;
  const [isut2, isstd2, leap2, time2, type2, chars2] = counts(v2);
  let at = v2 + 44;
  const times = Array.from({ length: time2 }, (_, i) => Number(data.readBigInt64BE(at + i * 8)));
  at += time2 * 8;
  const indexes = [...data.subarray(at, at + time2)];
  at += time2;
  const types = Array.from({ length: type2 }, (_, i) => ({ offset: data.readInt32BE(at + i * 6), abbrIndex: data[at + i * 6 + 5]! }));
  at += type2 * 6;
  const abbreviations = data.toString('latin1', at, at + chars2);
  at += chars2 + leap2 * 12 + isstd2 + isut2;
  const footer = data.toString('latin1', at).split('\n')[1] ?? '';
  const name = (i: number) => abbreviations.slice(i, abbreviations.indexOf('\0', i));
  // Before the first transition, time type 0 (RFC 8536 §3.2).
  const periods: Period[] = [{ start: null, offset: types[0]!.offset, abbreviation: name(types[0]!.abbrIndex) }];
  times.forEach((t, i) => {
    const ti = types[indexes[i]!]!;
    periods.push({ start: t, offset: ti.offset, abbreviation: name(ti.abbrIndex) });
  });
  // After the last transition, the footer's POSIX TZ rule: its standard and daylight names and offsets.
  for (const [abbreviation, offset] of readFooter(footer)) {
    periods.push({ start: times.length > 0 ? times[times.length - 1]! : null, offset, abbreviation, fromRule: true });
  }
  return periods;
}

/** `EST5EDT,M3.2.0,M11.1.0` → [['EST', -18000], ['EDT', -14400]]; `<+0330>-3:30` → [['+0330', 12600]]. */
function readFooter(footer: string): [string, number][] {
  const match = /^(<[^>]+>|[A-Za-z]+)([+-]?[\d:]+)(?:(<[^>]+>|[A-Za-z]+)([+-]?[\d:]+)?)?(?:,.*)?$/.exec(footer);
  if (!match) {
    if (footer !== '') throw new Error(`unreadable TZ rule "${footer}"`);
    return [];
  }
  const seconds = (text: string) => {
    const [h, m = '0', s = '0'] = text.replace(/^[+-]/, '').split(':');
    return (text.startsWith('-') ? 1 : -1) * (Number(h) * 3600 + Number(m) * 60 + Number(s)); // POSIX counts west
  };
  const unquote = (n: string) => n.replace(/^<|>$/g, '');
  const std = seconds(match[2]!);
  const out: [string, number][] = [[unquote(match[1]!), std]];
  if (match[3]) out.push([unquote(match[3]), match[4] ? seconds(match[4]) : std + 3600]);
  return out;
}

/** Cut the periods into eras in which each offset has one abbreviation. */
function toEras(periods: Period[]): Era[] {
  const eras: { start: number | null; names: Map<number, string> }[] = [];
  for (const p of periods) {
    const current = eras[eras.length - 1];
    const known = current?.names.get(p.offset);
    if (current === undefined || (known !== undefined && known !== p.abbreviation)) {
      // The rule names what the last transitions already use; anything else needs a look.
      if (p.fromRule) throw new Error(`the TZ rule's ${p.abbreviation} (${p.offset} s) differs from the last transitions' ${known}`);
      eras.push({ start: p.start, names: new Map([[p.offset, p.abbreviation]]) });
    } else {
      current.names.set(p.offset, p.abbreviation);
    }
  }
  return eras.map((e) => [e.start, ...[...e.names].flat()]);
}

const names: string[] = JSON.parse(
  execFileSync('python3', ['-c', 'import json, zoneinfo; print(json.dumps(sorted(zoneinfo.available_timezones())))'], { encoding: 'utf8' }),
);
const zi = readFileSync(`${ZONEINFO}/tzdata.zi`, 'utf8');
const version = /^# version (\S+)/.exec(zi)?.[1] ?? 'unknown';
const linkTargets = new Map([...zi.matchAll(/^L (\S+) (\S+)$/gm)].map((m) => [m[2]!, m[1]!]));

const eras = new Map<string, string>();
for (const name of names) {
  if (name === 'localtime') continue; // the machine's own zone, not a tz database name
  eras.set(name, JSON.stringify(toEras(readTzif(`${ZONEINFO}/${name}`))));
}
const zoneRows: string[] = [];
const linkRows: string[] = [];
for (const [name, json] of eras) {
  const target = linkTargets.get(name);
  if (target !== undefined && eras.get(target) === json) linkRows.push(`    ${JSON.stringify(name)}: ${JSON.stringify(target)}`);
  else zoneRows.push(`    ${JSON.stringify(name)}: ${json}`);
}

// One zone a line, so a tzdata update reads as a diff of the zones it changed.
writeFileSync(
  OUT,
  `{
  "generated": "by scripts/generate-tz-abbreviations.ts; do not edit by hand",
  "tzdata": ${JSON.stringify(version)},
  "zones": {
${zoneRows.join(',\n')}
  },
  "links": {
${linkRows.join(',\n')}
  }
}
`,
);
console.log(`${zoneRows.length} zones and ${linkRows.length} links written to ${OUT.pathname}`);
