// The strftime directives POST /v1/date-format prints (its OpenAPI description lists them), with
// what each means in the C locale the API uses; the cheat sheet asks the API for every example in one
// call, the directives joined by a separator no directive prints.

/** One directive of the cheat sheet. */
export interface Directive {
  directive: string;
  meaning: string;
}

export const DIRECTIVES: Directive[] = [
  { directive: '%Y', meaning: 'Year with century' },
  { directive: '%y', meaning: 'Year without century (00-99)' },
  { directive: '%C', meaning: 'Century (year / 100, 00-99)' },
  { directive: '%G', meaning: 'ISO 8601 week-based year' },
  { directive: '%g', meaning: 'ISO 8601 week-based year without century' },
  { directive: '%m', meaning: 'Month (01-12)' },
  { directive: '%B', meaning: 'Month name' },
  { directive: '%b', meaning: 'Abbreviated month name' },
  { directive: '%h', meaning: 'Abbreviated month name (same as %b)' },
  { directive: '%d', meaning: 'Day of the month (01-31)' },
  { directive: '%e', meaning: 'Day of the month, space-padded ( 1-31)' },
  { directive: '%-d', meaning: 'Day of the month without padding (a - drops any padding)' },
  { directive: '%j', meaning: 'Day of the year (001-366)' },
  { directive: '%A', meaning: 'Weekday name' },
  { directive: '%a', meaning: 'Abbreviated weekday name' },
  { directive: '%u', meaning: 'Weekday, Monday is 1 (1-7)' },
  { directive: '%w', meaning: 'Weekday, Sunday is 0 (0-6)' },
  { directive: '%U', meaning: 'Week of the year, weeks start on Sunday (00-53)' },
  { directive: '%W', meaning: 'Week of the year, weeks start on Monday (00-53)' },
  { directive: '%V', meaning: 'ISO 8601 week number (01-53)' },
  { directive: '%H', meaning: 'Hour, 24-hour clock (00-23)' },
  { directive: '%k', meaning: 'Hour, 24-hour clock, space-padded ( 0-23)' },
  { directive: '%I', meaning: 'Hour, 12-hour clock (01-12)' },
  { directive: '%l', meaning: 'Hour, 12-hour clock, space-padded ( 1-12)' },
  { directive: '%p', meaning: 'AM or PM' },
  { directive: '%P', meaning: 'am or pm' },
  { directive: '%M', meaning: 'Minute (00-59)' },
  { directive: '%S', meaning: 'Second (00-60)' },
  { directive: '%f', meaning: 'Microseconds (000000-999999)' },
  { directive: '%s', meaning: 'Seconds since the Unix epoch' },
  { directive: '%z', meaning: 'UTC offset (+hhmm)' },
  { directive: '%Z', meaning: 'Time zone abbreviation' },
  { directive: '%F', meaning: 'ISO 8601 date (%Y-%m-%d)' },
  { directive: '%D', meaning: 'US date (%m/%d/%y)' },
  { directive: '%T', meaning: 'Time (%H:%M:%S)' },
  { directive: '%R', meaning: 'Hours and minutes (%H:%M)' },
  { directive: '%r', meaning: '12-hour time (%I:%M:%S %p)' },
  { directive: '%c', meaning: 'Date and time (C locale)' },
  { directive: '%x', meaning: 'Date (C locale)' },
  { directive: '%X', meaning: 'Time (C locale)' },
  { directive: '%n', meaning: 'A newline' },
  { directive: '%t', meaning: 'A tab' },
  { directive: '%%', meaning: 'A literal %' },
];

/** The unit separator: no directive prints it, and the API copies it through as literal text. */
const SEPARATOR = '\u001f';

/** The output format that prints every directive of the sheet, in order, in one call. */
export const ALL_DIRECTIVES_FORMAT = DIRECTIVES.map((d) => d.directive).join(SEPARATOR);

/**
 * The example of each directive from the API's `formatted` for {@link ALL_DIRECTIVES_FORMAT}, by
 * directive; null when the answer does not split into one part per directive.
 *
 * @example
 *   examplesOf(`2026${'\u001f'}26...`)?.get('%Y') // '2026'
 */
export function examplesOf(formatted: string): Map<string, string> | null {
  const parts = formatted.split(SEPARATOR);
  if (parts.length !== DIRECTIVES.length) return null;
  return new Map(DIRECTIVES.map((d, i) => [d.directive, parts[i]]));
}

/**
 * `text` with `insert` in place of the selection `start`..`end`, and the caret just after it.
 *
 * @example
 *   insertAt('%Y-', '%m', 3, 3) // { text: '%Y-%m', caret: 5 }
 */
export function insertAt(text: string, insert: string, start: number, end: number): { text: string; caret: number } {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { text: text.slice(0, from) + insert + text.slice(to), caret: from + insert.length };
}
