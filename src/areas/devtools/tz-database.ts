import table from './tz-abbreviations.json' with { type: 'json' };

/**
 * A zone's history as eras: `[start, offset, abbreviation, offset, abbreviation, ...]`, where
 * `start` is the first Unix second of the era (`null`: since the beginning of time) and each
 * offset (seconds east of UTC) has one abbreviation within the era. The last era goes on forever.
 */
type TzEra = readonly [start: number | null, ...pairs: (number | string)[]];

/**
 * tz-abbreviations.json, written by scripts/generate-tz-abbreviations.ts: %Z as the tz database
 * (C strftime, Python's zoneinfo) names it, by zone and era
 * (`"Asia/Tokyo": [[null, 33539, "LMT", 32400, "JST", 36000, "JDT"]]`), and the links whose
 * history is another zone's (`"Japan": "Asia/Tokyo"`).
 */
interface TzAbbreviations {
  tzdata: string;
  zones: Readonly<Record<string, readonly TzEra[]>>;
  links: Readonly<Record<string, string>>;
}

// JSON infers eras as plain arrays; the generator writes exactly the tuples TzEra describes.
const { zones: eraTable, links } = table as unknown as TzAbbreviations;

interface TzZone {
  /** The name as the tz database spells it (`America/New_York`, `US/Eastern`). */
  name: string;
  eras: readonly TzEra[];
}

/** Every tz database name, links included, by its lower-case spelling (zone names are accepted in any case). */
const zones = new Map<string, TzZone>([
  ...Object.entries(eraTable).map(([name, eras]) => [name.toLowerCase(), { name, eras }] as const),
  ...Object.entries(links).map(([name, target]) => [name.toLowerCase(), { name, eras: eraTable[target]! }] as const),
]);

/**
 * A zone name as the tz database spells it, the name itself kept (a link stays a link, unlike
 * `Intl`, which answers `Asia/Calcutta` for `asia/kolkata`); `undefined` for a name it lacks.
 *
 * @example
 *   spellZoneName('europe/berlin') // 'Europe/Berlin'
 *   spellZoneName('us/eastern') // 'US/Eastern'
 */
export function spellZoneName(name: string): string | undefined {
  return zones.get(name.toLowerCase())?.name;
}

/** tzdata's name for an offset without letters: `+04`, `+0530`, `-003645` (zic's `%z`). */
export function numericAbbreviation(offsetSeconds: number): string {
  const abs = Math.abs(offsetSeconds);
  const [h, m, s] = [Math.floor(abs / 3600), Math.floor(abs / 60) % 60, abs % 60].map((n) => String(n).padStart(2, '0'));
  return `${offsetSeconds < 0 ? '-' : '+'}${h}${m === '00' && s === '00' ? '' : m}${s === '00' ? '' : s}`;
}

/** The abbreviation era `era` gives `offsetSeconds`, if it has one. */
function nameIn(era: TzEra, offsetSeconds: number): string | undefined {
  for (let i = 1; i < era.length; i += 2) if (era[i] === offsetSeconds) return era[i + 1] as string;
  return undefined;
}

/**
 * The tz database's abbreviation (what C strftime and Python's zoneinfo print for `%Z`) for the
 * offset a zone has at an instant: the era holding the instant names it. An offset that era lacks
 * (ICU's tzdata moved a transition, or is a release apart) takes the name of the nearest era that
 * has it, else the numeric form. `undefined` for a zone the table does not know.
 *
 * @example
 *   findTzAbbreviation('Europe/London', Date.UTC(2026, 6, 15) / 1000, 3600) // 'BST'
 *   findTzAbbreviation('America/New_York', Date.UTC(1943, 0, 1) / 1000, -14400) // 'EWT'
 */
export function findTzAbbreviation(zoneName: string, epochSeconds: number, offsetSeconds: number): string | undefined {
  const eras = zones.get(zoneName.toLowerCase())?.eras;
  if (eras === undefined) return undefined;
  // The last era starting at or before the instant (the first starts with time itself).
  let lo = 0;
  let hi = eras.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if ((eras[mid]![0] ?? -Infinity) <= epochSeconds) lo = mid;
    else hi = mid - 1;
  }
  for (let distance = 0; distance < eras.length; distance++) {
    const name =
      (lo - distance >= 0 ? nameIn(eras[lo - distance]!, offsetSeconds) : undefined) ??
      (lo + distance < eras.length ? nameIn(eras[lo + distance]!, offsetSeconds) : undefined);
    if (name !== undefined) return name;
  }
  return numericAbbreviation(offsetSeconds);
}
