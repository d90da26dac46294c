/** The strftime format of an answer whose request names none. */
export const DEFAULT_OUTPUT_FORMAT = '%Y-%m-%dT%H:%M:%S%z';

const zoneSchema = { type: 'string', minLength: 1, maxLength: 64 } as const;

/** Route description: how `date` is read and `%Z` printed (the decisions CONTRACT §3.7 leaves open). */
const DATE_FORMAT_DESCRIPTION = [
  'Auto-detected input (without `input_format`): a Unix timestamp, as a JSON number or a string of digits (optionally signed, a string with up to 6 fraction digits), is seconds (0, 86400, -86400, "1772953200.25", 100000000000), or milliseconds when it has 13 digits before any fraction, sign aside (1772953200123, "1772953200123"); 14 or more digits → 422. Numbers and strings follow the same rule, except that exactly 4 or 8 unsigned digits in a string stay ISO 8601 dates: the year "2024" (2024-01-01) and the basic date "20240315" (send such timestamps as JSON numbers). Then ISO 8601 (also with a space instead of `T`), RFC 2822, HTTP dates, and plain English through chrono ("next friday 5pm", "yesterday", "in 2 hours"), relative to now in `from_timezone`. English must be understood as a whole: "yesterday at 25:00" → 422.',
  'A date without a time of day is 00:00 in `from_timezone`, in English as in ISO 8601: "2024-03-15", "15 March 2024", "March 15, 2024", "03/15/2024", "next monday", "last friday", "end of month". Expressions counted from now keep its time of day, as GNU `date -d` does: "now", "today", "tomorrow", "yesterday", "in 3 days", "next week", "2 weeks ago" ("tomorrow midnight" or "tomorrow 00:00" for the start of the day). Parts of the day have their usual hour: "this morning" 06:00, "noon", "tonight" 22:00. Weekdays: "friday" and "this friday" are the coming one (today if it is Friday), judged by the date in `from_timezone`, "next friday" the Friday of next week, "last friday" the most recent one before today. "last night" is yesterday at 22:00. A month and day without a year ("Mar 15") is the closest such date to now, so asked in November it is next March. The answer never depends on the time zone of the machine the service runs on.',
  'A naive input is read in `from_timezone` (default UTC); a skipped local time (DST gap) moves forward, a repeated one means the first. `to_timezone` defaults to `from_timezone`. Unknown zone, impossible date (`2026-02-30`) or empty date → 422.',
  '`input_format` (strftime, whole input must match) accepts %Y %y %m %d %e %H %k %I %l %M %S %f %p %b %h %B %a %A %j %z %Z (IANA name) %s %%. As POSIX strptime reads them: %y 69-99 is 1969-1999 and 00-68 is 2000-2068; %I (and %l) take 01-12, and with %p (AM/PM, any case) 12 AM is 00, 1 PM is 13 and 12 PM is 12 (without %p the hour is an AM one: 12 is 00, as strptime reads it); %p next to %H is ignored; the space-padded %e %k %l also take a leading space (" 5", as glibc\'s strptime skips it); %s (Unix seconds, optionally signed) stands alone, with literal text around it only. A UTC offset of 24 hours or more, in any input, is a 422. At most 12 directives. Directives that read the same characters may follow each other (`%Y%m%d%H%M%S`); a format whose directives could split a date more than a million ways (`%f%j` repeated, `%Z%p` repeated) is matched on a worker thread, and a match still running after 1 s is stopped: 422 on `input_format`.',
  "`output_format` (default `%Y-%m-%dT%H:%M:%S%z`, C locale names): %a %A %b %B %c %C %d %D %e %f (microseconds) %F %g %G %h %H %I %j %k %l %m %M %n %p %P %r %R %s %S %t %T %u %U %V %w %W %x %X %y %Y %z %Z %%; `%-d` style drops padding; an unknown directive → 422. %G/%g/%V are the ISO 8601 week-based year (with/without century) and week. `%Z` is the tz database abbreviation, as C strftime and Python's zoneinfo print it, for any period of the zone's history: EST/EDT, CET/CEST, GMT/BST (London), GMT/IST (Dublin), AEST/AEDT, IST (Kolkata), IST/IDT (Jerusalem), JST, KST, CST (Shanghai), MSK, WIB, UTC, EWT in New York during the war, LMT before standard time; `+04` style where tzdata has no letters (Asia/Dubai `+04`, Asia/Singapore `+08`, Africa/Casablanca `+01`/`+00`). `%z` is `+hhmm` (`+hhmmss` for local mean time before standard time).",
  "`iso8601` is in the target zone with its offset (`+00:00` for UTC), milliseconds only when not zero, an offset with seconds (local mean time before standard zones: America/New_York before 1883 is `-04:56:02`) with its seconds, as Java and Temporal write it, and a year outside 0000-9999 with a sign and six digits (`-000001`); `%Y` writes year -1 as `-0001`; `timestamp` is whole seconds (floor); `timezone` echoes the target zone's name as given, spelled as the tz database does (`europe/berlin` → `Europe/Berlin`, `us/eastern` → `US/Eastern`: an old name stays, it is not replaced by the one it links to).",
].join('\n\n');

/** Request body of `POST /v1/date-format`. */
export interface DateFormatBody {
  date: string | number;
  output_format?: string;
  input_format?: string;
  from_timezone?: string;
  to_timezone?: string;
}

const dateFormatBody = {
  type: 'object',
  required: ['date'],
  additionalProperties: false,
  properties: {
    date: {
      type: ['string', 'number'],
      maxLength: 256,
      description:
        'ISO 8601, RFC 2822, Unix timestamp (a number or a digit string: seconds, 13 digits milliseconds; but strings of 4 and 8 digits are ISO 8601 dates), or plain English. No time of day means 00:00.',
    },
    output_format: { type: 'string', maxLength: 1024, default: DEFAULT_OUTPUT_FORMAT, description: 'strftime directives.' },
    input_format: {
      type: 'string',
      minLength: 1,
      maxLength: 256,
      description: 'strftime format the date must match; auto-detection when absent.',
    },
    from_timezone: { ...zoneSchema, default: 'UTC', description: 'IANA zone a naive input is read in.' },
    to_timezone: { ...zoneSchema, description: 'IANA zone of the output; default from_timezone.' },
  },
  examples: [
    { date: '2026-03-08 01:30:00', from_timezone: 'America/New_York', to_timezone: 'Europe/Berlin', output_format: '%A %d %B %Y %H:%M %Z' },
  ],
} as const;

const dateFormatResponse = {
  type: 'object',
  required: ['formatted', 'iso8601', 'timestamp', 'timezone'],
  properties: {
    formatted: { type: 'string' },
    iso8601: { type: 'string' },
    timestamp: { type: 'integer', description: 'Whole seconds since the epoch.' },
    timezone: { type: 'string' },
  },
  examples: [
    { formatted: 'Sunday 08 March 2026 07:30 CET', iso8601: '2026-03-08T07:30:00+01:00', timestamp: 1772951400, timezone: 'Europe/Berlin' },
  ],
} as const;

/** `POST /v1/date-format`. */
export const dateFormatSchema = {
  operationId: 'formatDate',
  summary: 'Parse a date in any common form and print it with strftime in an IANA zone',
  description: DATE_FORMAT_DESCRIPTION,
  body: dateFormatBody,
  response: { 200: dateFormatResponse },
};
