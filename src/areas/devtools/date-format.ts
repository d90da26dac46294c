import { IANAZone } from 'luxon';
import { checkFields, invalidField } from '../../errors.js';
import { DEFAULT_OUTPUT_FORMAT } from './date-format-schema.js';
import { parseDate, parseDateWithFormat } from './date-parse.js';
import { checkStrftimeFormat, isoDateTime, strftime } from './strftime.js';
import { spellZoneName } from './tz-database.js';

export interface DateFormatInput {
  /** ISO 8601, RFC 2822, Unix timestamp (number or digit string; see `parseDate`) or plain English. */
  date: string | number;
  /** strftime output format; default `%Y-%m-%dT%H:%M:%S%z`. */
  outputFormat?: string;
  /** strftime format the input must match; auto-detection when absent. */
  inputFormat?: string;
  /** IANA zone a naive input is read in; default `UTC`. */
  fromTimezone?: string;
  /** IANA zone of the output; default `fromTimezone`. */
  toTimezone?: string;
  /** Epoch ms of "now" for relative expressions. */
  now: number;
}

export interface DateFormatOutput {
  formatted: string;
  /** ISO 8601 in the target zone, with its offset (`+00:00` for UTC); milliseconds only when not zero. */
  iso8601: string;
  /** Whole seconds since the epoch (floor). */
  timestamp: number;
  /** The target zone's IANA name as given, spelled as the tz database does (`europe/berlin` → `Europe/Berlin`). */
  timezone: string;
}

/** Zone names already checked (luxon's own check builds an Intl formatter every call). */
const knownZones = new Map<string, boolean>();
const ZONE_CACHE_SIZE = 1000;

function isValidZone(name: string): boolean {
  let valid = knownZones.get(name);
  if (valid === undefined) {
    valid = IANAZone.isValidZone(name);
    if (knownZones.size >= ZONE_CACHE_SIZE) knownZones.clear();
    knownZones.set(name, valid);
  }
  return valid;
}

/**
 * A valid zone name as the tz database spells it, the name itself kept: `us/eastern` is
 * `US/Eastern`, not `America/New_York`. `Intl` answers canonical names (`Asia/Calcutta` for
 * `Asia/Kolkata`), so it only spells names the tz database table lacks, and only when it keeps them.
 */
function spellZone(name: string): string {
  const spelled = spellZoneName(name);
  if (spelled !== undefined) return spelled;
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
}

/** An IANA zone by name (case-insensitive, `UTC` included); 422 on `field` otherwise. */
function resolveZone(name: string, field: string): IANAZone {
  if (!isValidZone(name)) throw invalidField(field, `"${name}" is not an IANA time zone name such as Europe/Berlin or UTC`);
  return IANAZone.create(name);
}

/**
 * Parse a date in whatever form the caller has, move it to the target zone (DST-correct through
 * luxon and the tz database) and print it with strftime.
 *
 * @example
 *   formatDate({ date: '2026-03-29T01:30:00Z', toTimezone: 'Europe/Berlin', outputFormat: '%H:%M %Z', now: Date.now() })
 *   // → { formatted: '03:30 CEST', iso8601: '2026-03-29T03:30:00+02:00', timestamp: 1774747800, timezone: 'Europe/Berlin' }
 */
export function formatDate(input: DateFormatInput): DateFormatOutput {
  const fromName = input.fromTimezone ?? 'UTC';
  const toName = input.toTimezone ?? fromName;
  // Every bad field at once, before the date is read (which needs the zone).
  const outputFormat = input.outputFormat ?? DEFAULT_OUTPUT_FORMAT;
  const [zone, ownTarget] = checkFields(
    () => resolveZone(fromName, 'from_timezone'),
    () => (input.toTimezone === undefined ? undefined : resolveZone(toName, 'to_timezone')),
    () => checkStrftimeFormat(outputFormat),
  );
  const target = ownTarget ?? zone;
  const options = { zone, now: input.now };
  const parsed =
    input.inputFormat === undefined ? parseDate(input.date, options) : parseDateWithFormat(String(input.date), input.inputFormat, options);
  const dt = parsed.dt.setZone(target);
  // An instant at the very end of JavaScript's range (±8.64e15 ms) has no local time beyond it in a zone ahead of (or behind) UTC.
  if (!dt.isValid)
    throw invalidField('date', `is too close to the end of the range of dates (±8.64e15 ms from 1970) to be shown in ${toName}`);
  return {
    formatted: strftime({ dt, microsecond: parsed.microsecond }, outputFormat),
    iso8601: isoDateTime(dt),
    timestamp: Math.floor(dt.toMillis() / 1000),
    timezone: spellZone(toName),
  };
}
