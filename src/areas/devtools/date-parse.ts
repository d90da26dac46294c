import * as chrono from 'chrono-node';
import { DateTime, FixedOffsetZone, Settings, type Zone } from 'luxon';
import { invalidField } from '../../errors.js';

/** An instant with microsecond precision. */
export interface ParsedDate {
  dt: DateTime;
  /** Sub-second part, 0..999999 (more precise than `dt`'s milliseconds when the input was). */
  microsecond: number;
}

export interface ParseOptions {
  /** Zone a naive input is read in, and "now" for natural language is taken in. */
  zone: Zone;
  /** Epoch ms of "now", for natural language. */
  now: number;
}

/**
 * strftime directive → luxon parse token (`fromFormat`), one row per directive `input_format`
 * accepts (`%p` and `%s` are read apart). The 12-hour `%I` and `%l` are read as luxon's 24-hour
 * `H`, and `%p` as the literal text AM or PM (see {@link FormatVariant}): `parseDateWithFormat`
 * checks the hour's digits (01-12) and applies `%p` itself, as POSIX strptime does (luxon's own
 * `a` turns 13 PM into 13:00 before the digits can be checked, and refuses `%H` with `%p`).
 */
const PARSE_TOKENS: Record<string, string> = {
  Y: 'yyyy',
  y: 'yy',
  m: 'M',
  d: 'd',
  e: 'd',
  H: 'H',
  k: 'H',
  I: 'H',
  l: 'H',
  M: 'm',
  S: 's',
  f: 'u',
  b: 'MMM',
  h: 'MMM',
  B: 'MMMM',
  a: 'EEE',
  A: 'EEEE',
  j: 'o',
  z: 'ZZ',
  Z: 'z',
};
/** Space-padded directives (` 5`), which may take the one leading space glibc's strptime skips. */
const SPACE_PADDED = 'ekl';
/** Space-padded directives of a format that may take that space (each one doubles the tries). */
const MAX_SPACE_PADDED = 3;
const ACCEPTED_DIRECTIVES = [...Object.keys(PARSE_TOKENS), 'p', 's'].map((k) => `%${k}`).join(' ');

/** POSIX strptime's `%y` (and Python's): 69-99 are 1969-1999, 00-68 are 2000-2068. luxon's own cutoff is 60. */
const POSIX_TWO_DIGIT_CUTOFF = 68;

/** Run a luxon parse with POSIX centuries for two-digit years (luxon reads the setting when it parses). */
function withPosixCenturies<T>(parse: () => T): T {
  const previous = Settings.twoDigitCutoffYear;
  Settings.twoDigitCutoffYear = POSIX_TWO_DIGIT_CUTOFF;
  try {
    return parse();
  } finally {
    Settings.twoDigitCutoffYear = previous;
  }
}

/** A UTC offset of 24 hours or more (`+25:00`) names no time: RFC 3339 and ISO 8601 hours stop at 23. */
function withinOffsetRange(dt: DateTime): DateTime {
  if (Math.abs(dt.offset) >= 24 * 60) throw bad(`has a UTC offset beyond ±23:59 (${dt.toFormat('ZZ')})`);
  return dt;
}

/** Unix time as a string: optionally signed digits, optionally a fraction; group 1 = the whole part. */
const UNIX_TIME = /^[+-]?(\d+)(?:\.\d{1,6})?$/;
/** Digit strings that stay ISO 8601 dates: a year (`2024`) and a basic calendar date (`20240315`). */
const ISO_DIGITS = /^(?:\d{4}|\d{8})$/;
/** ISO 8601 in shape: a year of 4 digits, or the expanded ±YYYYYY that iso8601 output uses beyond 0000-9999. */
const ISO_LIKE = /^(?:[+-]\d{6}|[+-]?\d{4})(?:-\d|\d{4}|-W|$)/;
const FRACTION = /\d[T ]?\d{2}:?\d{2}:?\d{2}[.,](\d{1,9})/;

const bad = (message: string) => invalidField('date', message);

/**
 * Why Luxon refused a date, in the request's terms: its "can't be parsed as format yyyy'-'M" names
 * its own tokens (null: the caller says which format did not match), and "you specified 30 (of type
 * number) as a day, which is invalid" becomes "day 30 is out of range".
 */
function whyInvalid(dt: DateTime): string | null {
  const explanation = dt.invalidExplanation ?? dt.invalidReason ?? 'invalid input';
  if (/can't be parsed as format /.test(explanation)) return null;
  const unit = /^you specified (.+) \(of type \w+\) as an? (\w+), which is invalid$/.exec(explanation);
  if (unit) return `${unit[2]} ${unit[1]} is out of range${unit[2] === 'day' ? ' for its month' : ''}`;
  return explanation;
}

function checked(dt: DateTime, what: string): DateTime {
  if (!dt.isValid) throw bad(`is not a valid ${what}: ${whyInvalid(dt) ?? 'it cannot be read'}`);
  return dt;
}

/** A naive wall-clock time that happens twice (DST end) means the first one, as Python's fold=0. */
function earliest(dt: DateTime): DateTime {
  return dt.getPossibleOffsets().reduce((a, b) => (b.toMillis() < a.toMillis() ? b : a));
}

/** Digits before the fraction of a Unix timestamp that make it milliseconds (CONTRACT §3.7); fewer are seconds. */
const MILLISECOND_DIGITS = 13;

/**
 * A Unix timestamp whose whole part has `digits` digits (sign aside): 13 are milliseconds, fewer
 * are seconds, more are a 422 (as seconds they would be past the ±8.64e12 s JavaScript dates reach).
 */
function fromUnixTime(value: number, digits: number): ParsedDate {
  if (digits > MILLISECOND_DIGITS) {
    throw bad(`is a Unix timestamp of ${digits} digits: timestamps are seconds (up to 12 digits) or milliseconds (13 digits)`);
  }
  return fromSeconds(digits === MILLISECOND_DIGITS ? value / 1000 : value);
}

/** Digits of the whole part of a number, sign aside (`1772953200123.5` → 13; `0.5` → 1). */
function wholeDigits(value: number): number {
  const whole = Math.trunc(Math.abs(value));
  let digits = 1;
  for (let bound = 10; whole >= bound; bound *= 10) digits++;
  return digits;
}

/** Epoch seconds (possibly fractional) → instant with microseconds. */
function fromSeconds(seconds: number): ParsedDate {
  const whole = Math.floor(seconds);
  const microsecond = Math.min(999999, Math.round((seconds - whole) * 1e6));
  const dt = checked(DateTime.fromMillis(whole * 1000 + Math.floor(microsecond / 1000), { zone: 'UTC' }), 'timestamp');
  return { dt, microsecond };
}

/** Sub-second digits as written in an ISO/SQL string, so `%f` keeps all six. */
function microsecondOf(text: string, dt: DateTime): number {
  const digits = FRACTION.exec(text)?.[1];
  return digits ? Number(digits.slice(0, 6).padEnd(6, '0')) : dt.millisecond * 1000;
}

/**
 * What each directive's part of the parser's regular expression matches: the characters it can
 * take and how many ways it can end (lengths, or names): `%m` is 1-2 digits (2 ways), `%f` 1-9
 * digits, `%B` one of 12 month names, `%Z` 1 to 256 characters of a zone name.
 */
const DIRECTIVE_SHAPES: Record<string, { chars: RegExp; ways: number }> = (() => {
  const digits = /[0-9]/;
  const letters = /[a-z]/i;
  const shapes: Record<string, { chars: RegExp; ways: number }> = {
    Y: { chars: digits, ways: 1 },
    y: { chars: digits, ways: 3 },
    f: { chars: digits, ways: 9 },
    j: { chars: digits, ways: 3 },
    p: { chars: letters, ways: 2 },
    b: { chars: letters, ways: 12 },
    h: { chars: letters, ways: 12 },
    B: { chars: letters, ways: 12 },
    a: { chars: letters, ways: 7 },
    A: { chars: letters, ways: 7 },
    z: { chars: /[0-9+:-]/, ways: 4 },
    Z: { chars: /[a-z_+,./-]/i, ways: 256 },
  };
  for (const d of 'mdHIMS') shapes[d] = { chars: digits, ways: 2 };
  for (const d of SPACE_PADDED) shapes[d] = { chars: /[0-9 ]/, ways: 2 };
  return shapes;
})();

/** Two shapes can take the same character (the letters and symbols a directive may match). */
const SAMPLE_CHARS = [...'0123456789abcdefghijklmnopqrstuvwxyz_+,./:-'];
const overlap = (a: RegExp, b: RegExp) => SAMPLE_CHARS.some((c) => a.test(c) && b.test(c));

/**
 * How many ways the parser's regular expression may try to split an input among the directives of
 * `format` before it gives up: the product of the directives' ways within each run of directives
 * that can take each other's characters (adjacent, or separated only by literal text the first one
 * can also take), the largest run counting, times the tries with and without a leading space for
 * space-padded directives (`%e %k %l`, at most {@link MAX_SPACE_PADDED} of them). `%d/%m/%Y` is 2;
 * `%Y%m%d%H%M%S` 32; `%f%j` repeated six times 27^6, which backtracks for seconds on a 60-digit
 * input that does not match.
 *
 * @example
 *   inputFormatWays('%d/%m/%Y %H:%M') // 2
 */
export function inputFormatWays(format: string): number {
  let worst = 1;
  let run = 1;
  let last: { chars: RegExp } | null = null;
  for (let i = 0; i < format.length; i++) {
    const letter = format[i + 1];
    const shape = format[i] === '%' && letter !== undefined ? DIRECTIVE_SHAPES[letter] : undefined;
    if (shape && Object.hasOwn(DIRECTIVE_SHAPES, letter!)) {
      run = last !== null && overlap(last.chars, shape.chars) ? run * shape.ways : shape.ways;
      last = shape;
      worst = Math.max(worst, run);
      i++;
      continue;
    }
    const char = format[i] === '%' && letter === '%' ? (i++, '%') : format[i]!;
    // Literal text the last directive cannot take ends its run.
    if (last !== null && !last.chars.test(char)) {
      last = null;
      run = 1;
    }
  }
  return worst * 2 ** spacePaddedCount(format);
}

/** The directive letters of a format, in order (`%%` is literal text). */
function directiveLetters(format: string): string[] {
  return [...format.matchAll(/%(.)/gs)].map((m) => m[1]!).filter((letter) => letter !== '%');
}

/** How many space-padded directives of `format` may take a leading space. */
function spacePaddedCount(format: string): number {
  return Math.min(MAX_SPACE_PADDED, directiveLetters(format).filter((letter) => SPACE_PADDED.includes(letter)).length);
}

/** Most directives an `input_format` may hold. */
export const MAX_INPUT_DIRECTIVES = 12;

/**
 * One way to read an input_format: `spaced` (bit i) puts a space before the i-th space-padded
 * directive (`%e`), for an input that has one there (`Nov  5`); `meridiem` is what `%p` reads
 * (AM or PM, in any case).
 */
interface FormatVariant {
  spaced: number;
  meridiem: 'AM' | 'PM';
}

/** strftime `input_format` → luxon format string; literal text is quoted. */
function toLuxonFormat(format: string, input: string, variant: FormatVariant): string {
  // Python's %z takes +hhmm and +hh:mm; luxon needs a different token for each.
  const tokens = { ...PARSE_TOKENS, z: /[+-]\d\d:\d\d/.test(input) ? 'ZZ' : 'ZZZ' };
  if (format.includes("'")) throw invalidField('input_format', 'must not contain a single quote');
  // Adjacent variable-width numeric fields make the parser's regex backtrack: each one doubles the
  // ways to split a run of digits (28 directives took seconds). No date needs more than 12.
  const directives = (format.replace(/%%/g, '').match(/%/g) ?? []).length;
  if (directives > MAX_INPUT_DIRECTIVES)
    throw invalidField('input_format', `must hold at most ${MAX_INPUT_DIRECTIVES} directives (it has ${directives})`);
  let out = '';
  let literal = '';
  let padded = 0;
  const flush = () => {
    if (literal) out += `'${literal}'`;
    literal = '';
  };
  for (let i = 0; i < format.length; i++) {
    const letter = format[i + 1];
    if (format[i] !== '%') literal += format[i];
    else if (letter === '%') {
      literal += '%';
      i++;
    } else if (letter === 'p') {
      literal += variant.meridiem;
      i++;
    } else if (letter !== undefined && Object.hasOwn(tokens, letter)) {
      if (SPACE_PADDED.includes(letter) && variant.spaced & (1 << padded++)) literal += ' ';
      flush();
      out += tokens[letter as keyof typeof tokens];
      i++;
    } else throw invalidField('input_format', `has a directive "%${letter ?? ''}" that cannot be parsed; accepted: ${ACCEPTED_DIRECTIVES}`);
  }
  flush();
  return out;
}

/** chrono's stand-in when nothing set a time: its ParsingComponents start at an implied 12:00:00.000. */
function hasPlaceholderTime(c: chrono.ParsedComponents): boolean {
  return !c.isCertain('hour') && c.get('hour') === 12 && c.get('minute') === 0 && c.get('second') === 0 && c.get('millisecond') === 0;
}

type MergeResults = (between: string, current: chrono.ParsingResult, next: chrono.ParsingResult) => chrono.ParsingResult;
type InnerExtract = (context: unknown, match: RegExpMatchArray) => unknown;

/** Run `merge` with chrono's bare-Date references taken in the zone of offset `offsetMinutes`. */
function inZone<T>(offsetMinutes: number | null, merge: () => T): T {
  const fromDate = chrono.ReferenceWithTimezone.fromDate;
  chrono.ReferenceWithTimezone.fromDate = (date: Date) => new chrono.ReferenceWithTimezone(date, offsetMinutes ?? undefined);
  try {
    return merge();
  } finally {
    chrono.ReferenceWithTimezone.fromDate = fromDate;
  }
}

/**
 * chrono's casual English parser, its two "duration before/after a date" refiners ("the day after
 * tomorrow", "3 days before 5 March", "5 March + 2 days") anchored in the request's zone. chrono
 * 2.10.3 rebuilds their reference from a bare Date, which it reads in the host's zone, so the
 * answer depended on the machine's TZ (and could land on the wrong day).
 *
 * Its weekday parser reads a bare weekday ("thursday", "on thursday 5pm") as "this thursday",
 * the coming one (today if it is Thursday) in the request's zone; chrono's own is the closest one,
 * which on a Friday is yesterday.
 */
const parser = ((): chrono.Chrono => {
  const casual = chrono.casual.clone();
  const weekdays = casual.parsers.findIndex((p) => p.constructor.name === 'ENWeekdayParser');
  if (weekdays < 0) throw new Error('chrono-node changed: its weekday parser was not found');
  // A copy: clone() shares the parser objects with chrono.casual.
  const weekdayParser = Object.create(casual.parsers[weekdays]!) as { innerExtract: InnerExtract };
  const extract = weekdayParser.innerExtract.bind(weekdayParser);
  // Its groups: 1 "this/last/past/next" before the weekday, 2 the weekday, 3 "... week" after it.
  weekdayParser.innerExtract = (context, match) => {
    if (match[1] === undefined && match[3] === undefined) match[1] = 'this';
    return extract(context, match);
  };
  casual.parsers[weekdays] = weekdayParser as unknown as (typeof casual.parsers)[number];
  const anchored = casual.refiners.filter((r) => /^ENMergeRelative(FollowBy|After)DateRefiner$/.test(r.constructor.name));
  if (anchored.length !== 2) throw new Error('chrono-node changed: its relative-date refiners were not found');
  for (const refiner of anchored) {
    // clone() shares the refiner objects with chrono.casual: patch a copy of each, not the original.
    const own = Object.create(refiner) as { mergeResults: MergeResults };
    const merge = own.mergeResults.bind(own);
    own.mergeResults = (between, current, next) => inZone(current.reference.timezoneOffset ?? null, () => merge(between, current, next));
    casual.refiners[casual.refiners.indexOf(refiner)] = own as unknown as (typeof casual.refiners)[number];
  }
  return casual;
})();

/**
 * "last night" read as "yesterday" (chrono 2.10.3 reads it from the host's clock, before or after
 * 06:00 there, and answers a midnight): alone it is yesterday at 22:00 ("tonight" is today at
 * 22:00); with a time ("last night at 11pm") it is that time yesterday.
 */
const LAST_NIGHT = /\blast\s*night\b/gi;
const ONLY_LAST_NIGHT = /^\s*last\s*night\s*$/i;

function withoutLastNight(text: string): string {
  return ONLY_LAST_NIGHT.test(text) ? 'yesterday 10pm' : text.replace(LAST_NIGHT, 'yesterday');
}

function parseWithChrono(text: string, options: ParseOptions): chrono.ParsedResult[] {
  return parser.parse(text, { instant: new Date(options.now), timezone: options.zone.offset(options.now) });
}

/**
 * True for a date that names no time of day ("15 March 2024", "next monday"), false for one that
 * copies the time of "now" ("tomorrow", "in 3 days") or implies its own ("tonight" = 22:00).
 */
function namesNoTime(text: string, result: chrono.ParsedResult, options: ParseOptions): boolean {
  if (!hasPlaceholderTime(result.start)) return false;
  // "tomorrow" read at exactly 12:00:00.000 looks the same: read 1 ms earlier, only it changes.
  const [earlier] = parseWithChrono(text, { ...options, now: options.now - 1 });
  return earlier !== undefined && hasPlaceholderTime(earlier.start);
}

/**
 * Natural language through chrono, with "now" and the wall clock taken in the request's zone. A
 * date without a time of day is midnight, as ISO `2026-03-15` is; chrono would say noon.
 */
function parseNaturalLanguage(input: string, options: ParseOptions): DateTime {
  const text = withoutLastNight(input);
  const results = parseWithChrono(text, options);
  const [result] = results;
  // Partial matches ("yesterday" out of "yesterday at 25:00") would silently drop what the user said.
  if (results.length !== 1 || result.index !== 0 || result.text.length !== text.length) {
    throw bad(`"${input}" is not a date in a recognised format (ISO 8601, RFC 2822, Unix timestamp or plain English)`);
  }
  const c = result.start;
  const hour = namesNoTime(text, result, options) ? 0 : c.get('hour');
  const fields = {
    year: c.get('year'),
    month: c.get('month'),
    day: c.get('day'),
    hour,
    minute: c.get('minute'),
    second: c.get('second'),
    millisecond: c.get('millisecond'),
  };
  // A certain offset is a stated zone ("5pm EST") or an exact duration ("in 2 hours"); calendar
  // steps ("in 3 weeks") only imply one and keep the wall-clock time across DST instead.
  const offset = c.get('timezoneOffset');
  if (offset !== null && c.isCertain('timezoneOffset'))
    return checked(DateTime.fromObject(fields as object, { zone: FixedOffsetZone.instance(offset) }), 'date');
  return earliest(checked(DateTime.fromObject(fields as object, { zone: options.zone }), 'date'));
}

/**
 * Read a date the way the request gives it: a Unix timestamp as a number or a string of digits
 * (optionally signed or with a fraction): seconds, or milliseconds when its whole part has 13
 * digits, 14 or more a 422; but the strings of 4 and 8 digits are the ISO 8601 year and basic
 * date. Then ISO 8601 (also with a space), RFC 2822 / HTTP dates, then plain English via chrono
 * ("next friday 5pm"). A naive input is read in `options.zone`; an input with an offset keeps it.
 * Anything else throws 422 on `date`.
 *
 * @example
 *   parseDate('2026-03-08 02:30', { zone: IANAZone.create('America/New_York'), now: Date.now() }).dt.toISO()
 *   // → '2026-03-08T03:30:00.000-04:00' (the skipped hour moves forward)
 */
export function parseDate(input: string | number, options: ParseOptions): ParsedDate {
  if (typeof input === 'number') return fromUnixTime(input, wholeDigits(input));
  const text = input.trim();
  if (text === '') throw bad('must not be empty');
  const unix = ISO_DIGITS.test(text) ? null : UNIX_TIME.exec(text);
  if (unix) return fromUnixTime(Number(text), unix[1].length);
  const zoneOptions = { zone: options.zone, setZone: true };
  if (ISO_LIKE.test(text)) {
    const iso = DateTime.fromISO(text, zoneOptions);
    const dt = iso.isValid ? iso : DateTime.fromSQL(text, zoneOptions);
    // Shaped like ISO 8601 but impossible (2026-02-30): say why rather than guess with chrono.
    if (!dt.isValid) checked(iso, 'ISO 8601 date');
    return { dt: earliest(withinOffsetRange(dt)), microsecond: microsecondOf(text, dt) };
  }
  // RFC 2822 §3.3 (and §4.3) also names UTC "UT", which luxon does not know.
  const rfc2822 = text.replace(/\sUT$/, ' GMT');
  for (const dt of [DateTime.fromRFC2822(rfc2822, zoneOptions), DateTime.fromHTTP(text, zoneOptions)]) {
    if (dt.isValid) return { dt: earliest(withinOffsetRange(dt)), microsecond: dt.millisecond * 1000 };
  }
  const dt = parseNaturalLanguage(text, options);
  return { dt, microsecond: dt.millisecond * 1000 };
}

/**
 * `input_format` with `%s`: Unix seconds, with literal text around them only (the seconds name
 * the instant; no other field could add to it).
 */
function parseUnixWithFormat(input: string, format: string): ParsedDate {
  let pattern = '';
  let seen = false;
  for (let i = 0; i < format.length; i++) {
    const letter = format[i + 1];
    if (format[i] !== '%') pattern += format[i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (letter === '%') {
      pattern += '%';
      i++;
    } else if (letter === 's' && !seen) {
      pattern += '([+-]?\\d{1,15})';
      seen = true;
      i++;
    } else
      throw invalidField(
        'input_format',
        `combines %s (Unix seconds) with "%${letter ?? ''}": %s stands alone, with literal text around it`,
      );
  }
  const match = new RegExp(`^${pattern}$`).exec(input);
  if (!match) throw bad(`does not match input_format "${format}"`);
  return fromSeconds(Number(match[1]));
}

/**
 * Parse with an explicit strftime `input_format` (`%d/%m/%Y %H:%M`); the whole input must match.
 * `%y` follows POSIX (69-99 → 19xx, 00-68 → 20xx); `%I` (and `%l`) take 1-12 only, with `%p`
 * read as POSIX does (12 AM is 00:00, 2 PM 14:00); `%e %k %l` may start with a space; `%s` is Unix seconds.
 *
 * @example
 *   parseDateWithFormat('08/03/2026 17:07', '%d/%m/%Y %H:%M', { zone: IANAZone.create('UTC'), now: 0 }).dt.toISO()
 *   // → '2026-03-08T17:07:00.000Z'
 */
export function parseDateWithFormat(input: string, format: string, options: ParseOptions): ParsedDate {
  if (/(?:^|[^%])(?:%%)*%s/.test(format)) return parseUnixWithFormat(input, format);
  const letters = directiveLetters(format);
  const luxonOptions = { zone: options.zone, setZone: true, locale: 'en-US' };
  // The first variant is the one whose failure is explained: AM first unless the input says PM.
  const meridiems: FormatVariant['meridiem'][] = letters.includes('p') ? (/pm/i.test(input) ? ['PM', 'AM'] : ['AM', 'PM']) : ['AM'];
  let dt: DateTime | undefined;
  let luxonFormat = '';
  let variant: FormatVariant | undefined;
  for (let spaced = 0; spaced < 2 ** spacePaddedCount(format) && !dt?.isValid; spaced++) {
    for (const meridiem of meridiems) {
      const tried = toLuxonFormat(format, input, { spaced, meridiem });
      const attempt = withPosixCenturies(() => DateTime.fromFormat(input, tried, luxonOptions));
      if (dt === undefined || attempt.isValid) {
        dt = attempt;
        luxonFormat = tried;
        variant = { spaced, meridiem };
      }
      if (attempt.isValid) break;
    }
  }
  if (!dt?.isValid || variant === undefined) {
    const why = dt === undefined ? null : whyInvalid(dt);
    throw bad(`does not match input_format "${format}"${why === null ? '' : `: ${why}`}`);
  }
  const twelveHour = letters.find((letter) => letter === 'I' || letter === 'l');
  const needsRaw = letters.includes('f') || twelveHour !== undefined;
  const raw = needsRaw
    ? (withPosixCenturies(() => DateTime.fromFormatExplain(input, luxonFormat, luxonOptions)).matches as { u?: string; H?: number })
    : {};
  if (twelveHour !== undefined && raw.H !== undefined) {
    // The digits as written (before a DST gap moved the hour): 13 or 00 is no 12-hour clock time.
    if (raw.H < 1 || raw.H > 12) throw bad(`has hour ${pad2(raw.H)} for %${twelveHour}, which takes 01-12`);
    // As POSIX strptime (glibc, Python) applies %p: 12 AM is 00, 12 PM is 12, 1-11 PM are 13-23; without %p the hour is AM (12 is 00).
    dt = dt.set({ hour: (raw.H % 12) + (letters.includes('p') && variant.meridiem === 'PM' ? 12 : 0) });
  }
  // luxon keeps milliseconds only; the raw %f digits give the full microseconds.
  const microsecond = raw.u ? Number(raw.u.slice(0, 6).padEnd(6, '0')) : dt.millisecond * 1000;
  return { dt: earliest(withinOffsetRange(dt)), microsecond };
}

const pad2 = (n: number) => String(n).padStart(2, '0');
