import type { DateTime } from 'luxon';
import { invalidField } from '../../errors.js';
import { findTzAbbreviation, numericAbbreviation } from './tz-database.js';

/** A moment to format: luxon carries milliseconds, `microsecond` the full sub-second part. */
export interface StrftimeMoment {
  dt: DateTime;
  /** 0..999999 */
  microsecond: number;
}

type Directive = (m: StrftimeMoment) => string;

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
// English locales whose CLDR data name a zone's abbreviation (EST, CET, AEDT, IST, ...).
const ABBREVIATION_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'en-NZ', 'en-CA', 'en-ZA', 'en-IE', 'en-SG'];
/**
 * Formatters by lower-case zone name (bounded by the zones, whatever the spelling). Only the
 * formatters are kept, not their answers: one offset can have different names at different times.
 */
const cldrFormatters = new Map<string, Intl.DateTimeFormat[]>();

/** `n` in at least `width` digits, a minus sign in front of them (year -1 with %Y is "-0001", as ISO 8601 writes it). */
const pad = (n: number, width = 2, fill = '0') => (n < 0 ? `-${String(-n).padStart(width, fill)}` : String(n).padStart(width, fill));
/** 0 = Sunday, as C's `tm_wday`. */
const weekday = (dt: DateTime) => dt.weekday % 7;
const hour12 = (dt: DateTime) => (dt.hour % 12 === 0 ? 12 : dt.hour % 12);

/** `+hhmm` (or `+hh:mm`), with seconds when the offset has them (local mean time before 1900), as Python's %z. */
function formatOffset(minutes: number, colon: boolean): string {
  const abs = Math.round(Math.abs(minutes) * 60);
  const separator = colon ? ':' : '';
  const seconds = abs % 60 === 0 ? '' : `${separator}${pad(abs % 60)}`;
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 3600))}${separator}${pad(Math.floor(abs / 60) % 60)}${seconds}`;
}

/**
 * The zone's English CLDR short name at an instant (`EST`, `CEST`, `IST`), or `+04` style when no
 * English locale has one (CLDR says `GMT+4`): for zones ICU knows and the tz database table does not.
 */
function findCldrAbbreviation(zoneName: string, epochMs: number, offsetMinutes: number): string {
  const key = zoneName.toLowerCase();
  let formatters = cldrFormatters.get(key);
  if (formatters === undefined) {
    formatters = ABBREVIATION_LOCALES.map((locale) => new Intl.DateTimeFormat(locale, { timeZone: zoneName, timeZoneName: 'short' }));
    cldrFormatters.set(key, formatters);
  }
  const names = formatters.map((f) => f.formatToParts(epochMs).find((p) => p.type === 'timeZoneName')?.value ?? '');
  return names.find((n) => n !== '' && !/^(GMT|UTC)[+\-\u2212]/.test(n)) ?? numericAbbreviation(Math.round(offsetMinutes * 60));
}

/**
 * The zone abbreviation as tzdata-based strftime (and Python's zoneinfo) prints it, for any period
 * of the zone's history: `EST`, `CEST`, `BST`, `JST`, `IST`/`IDT` in Jerusalem, `+04` in Dubai,
 * `LMT` before standard time, `UTC`; `UTC+02:00` for a fixed offset.
 */
function zoneAbbreviation(dt: DateTime): string {
  if (dt.zone.type !== 'iana') return dt.offset === 0 ? 'UTC' : `UTC${formatOffset(dt.offset, true)}`;
  const zoneName = dt.zoneName ?? 'UTC';
  return (
    findTzAbbreviation(zoneName, Math.floor(dt.toMillis() / 1000), Math.round(dt.offset * 60)) ??
    findCldrAbbreviation(zoneName, dt.toMillis(), dt.offset)
  );
}

/** One row per supported directive (C99/POSIX, plus `%f` and common glibc extensions). */
const DIRECTIVES: Record<string, Directive> = {
  a: ({ dt }) => DAYS[weekday(dt)].slice(0, 3),
  A: ({ dt }) => DAYS[weekday(dt)],
  b: ({ dt }) => MONTHS[dt.month - 1].slice(0, 3),
  B: ({ dt }) => MONTHS[dt.month - 1],
  c: (m) => strftime(m, '%a %b %e %H:%M:%S %Y'),
  // Negative centuries unpadded, as glibc writes them (year -1 is century -1).
  C: ({ dt }) => (dt.year < 0 ? String(Math.floor(dt.year / 100)) : pad(Math.floor(dt.year / 100))),
  d: ({ dt }) => pad(dt.day),
  D: (m) => strftime(m, '%m/%d/%y'),
  e: ({ dt }) => pad(dt.day, 2, ' '),
  f: ({ microsecond }) => pad(microsecond, 6),
  F: (m) => strftime(m, '%Y-%m-%d'),
  // ISO 8601 week-based year (the year %V's week belongs to), and without its century as %y.
  g: ({ dt }) => pad(((dt.weekYear % 100) + 100) % 100),
  G: ({ dt }) => pad(dt.weekYear, 4),
  h: ({ dt }) => MONTHS[dt.month - 1].slice(0, 3),
  H: ({ dt }) => pad(dt.hour),
  I: ({ dt }) => pad(hour12(dt)),
  j: ({ dt }) => pad(dt.ordinal, 3),
  k: ({ dt }) => pad(dt.hour, 2, ' '),
  l: ({ dt }) => pad(hour12(dt), 2, ' '),
  m: ({ dt }) => pad(dt.month),
  M: ({ dt }) => pad(dt.minute),
  n: () => '\n',
  p: ({ dt }) => (dt.hour < 12 ? 'AM' : 'PM'),
  P: ({ dt }) => (dt.hour < 12 ? 'am' : 'pm'),
  r: (m) => strftime(m, '%I:%M:%S %p'),
  R: (m) => strftime(m, '%H:%M'),
  s: ({ dt }) => String(Math.floor(dt.toMillis() / 1000)),
  S: ({ dt }) => pad(dt.second),
  t: () => '\t',
  T: (m) => strftime(m, '%H:%M:%S'),
  u: ({ dt }) => String(dt.weekday),
  U: ({ dt }) => pad(Math.floor((dt.ordinal - 1 + 7 - weekday(dt)) / 7)),
  V: ({ dt }) => pad(dt.weekNumber),
  w: ({ dt }) => String(weekday(dt)),
  W: ({ dt }) => pad(Math.floor((dt.ordinal - 1 + 7 - ((weekday(dt) + 6) % 7)) / 7)),
  x: (m) => strftime(m, '%m/%d/%y'),
  X: (m) => strftime(m, '%H:%M:%S'),
  y: ({ dt }) => pad(((dt.year % 100) + 100) % 100),
  Y: ({ dt }) => pad(dt.year, 4),
  z: ({ dt }) => formatOffset(dt.offset, false),
  Z: ({ dt }) => zoneAbbreviation(dt),
  '%': () => '%',
};

/** The directive letters `strftime` understands, for documentation. */
export const STRFTIME_DIRECTIVES = Object.keys(DIRECTIVES);

/**
 * C `strftime` in the C locale (English names) over a luxon moment. `%-d` style (glibc) drops
 * the padding of a numeric directive. An unknown directive throws a 422 on `output_format`.
 *
 * @example
 *   strftime({ dt: DateTime.fromISO('2026-03-08T03:00:00', { zone: 'America/New_York' }), microsecond: 0 }, '%a %H:%M %Z')
 *   // → 'Sun 03:00 EDT'
 */
export function strftime(moment: StrftimeMoment, format: string): string {
  return render(format, moment);
}

/** Throw the 422 {@link strftime} would for `format`, without a moment to print. */
/**
 * ISO 8601 extended date-time in the moment's own offset, milliseconds only when present. Years
 * outside 0000-9999 take a sign and six digits (ISO 8601 expanded, as luxon and JavaScript write
 * them). An offset with seconds (local mean time, before zones were standardised) keeps them,
 * `-04:56:02`, as Java and Temporal write it: the local time and the offset then still give the instant.
 *
 * @example
 *   isoDateTime(DateTime.fromISO('1883-11-18T12:00:00', { zone: 'America/New_York' })) // '1883-11-18T12:00:00-04:56:02'
 */
export function isoDateTime(dt: DateTime): string {
  const year = dt.year >= 0 && dt.year <= 9999 ? pad(dt.year, 4) : `${dt.year < 0 ? '-' : '+'}${pad(Math.abs(dt.year), 6)}`;
  const millis = dt.millisecond === 0 ? '' : `.${pad(dt.millisecond, 3)}`;
  return `${year}-${pad(dt.month)}-${pad(dt.day)}T${pad(dt.hour)}:${pad(dt.minute)}:${pad(dt.second)}${millis}${formatOffset(dt.offset, true)}`;
}

export function checkStrftimeFormat(format: string): void {
  render(format, undefined);
}

/**
 * What the `-` flag (`%-d`) writes: the number without its padding, every leading zero or space
 * (year 5 under %-Y is "5", not "05"), a sign kept in front (year -1 is "-1"). An offset (%z) has
 * no padding to drop and is written as it is.
 */
function unpad(text: string, letter: string): string {
  return letter === 'z' ? text : text.replace(/^(-?)[0 ]+(?=.)/, '$1');
}

function render(format: string, moment: StrftimeMoment | undefined): string {
  let out = '';
  for (let i = 0; i < format.length; i++) {
    if (format[i] !== '%') {
      out += format[i];
      continue;
    }
    const unpadded = format[i + 1] === '-';
    const letter = format[unpadded ? i + 2 : i + 1];
    const directive = letter === undefined ? undefined : DIRECTIVES[letter];
    if (!directive || !Object.hasOwn(DIRECTIVES, letter)) {
      throw invalidField('output_format', `has an unsupported directive "%${unpadded ? '-' : ''}${letter ?? ''}"`);
    }
    const text = moment === undefined ? '' : directive(moment);
    out += unpadded ? unpad(text, letter!) : text;
    i += unpadded ? 2 : 1;
  }
  return out;
}
