import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { invalidField } from '../../errors.js';
import { errorResponses } from '../../http/schemas.js';
import type { formatDate } from './date-format.js';
import { createDateFormatPool, INLINE_FORMAT_WAYS } from './date-format-pool.js';
import type { inputFormatWays } from './date-parse.js';
import { DATE_FORMAT_DESCRIPTION, dateFormatBody, dateFormatResponse } from './date-format-schema.js';
import { formatNumber, type NumberFormatType } from './number-format.js';
import { numberFormatBody, numberFormatResponse } from './number-format-schema.js';
import { createRegexPool } from './regex-pool.js';
import { REGEX_DEADLINE_MS, REGEX_LIMITS, REGEX_POOL, REGEX_TIMEOUT_MS, regexExtractBody, regexExtractResponse } from './regex-schema.js';
import { compilePattern } from './regex-syntax.js';
import { postTool } from '../../http/tool-route.js';

interface RegexBody { pattern: string; text: string; flags: string }
interface NumberBody { number: number; format_type: NumberFormatType; locale: string; currency?: string; decimals?: number }
interface DateBody { date: string | number; output_format?: string; input_format?: string; from_timezone?: string; to_timezone?: string }

/** Longest regex-extract text, in bytes of UTF-8 (CONTRACT §3.5: 1 MiB). */
const REGEX_TEXT_MAX_BYTES = 1024 * 1024;

interface DateTool { formatDate: typeof formatDate; inputFormatWays: typeof inputFormatWays }

// The date tool (chrono's grammars, luxon) loads on its first call, not at start: one import for
// every caller, however many arrive before it is done.
let dateTool: Promise<DateTool> | undefined;
const loadDateTool = (): Promise<DateTool> =>
  (dateTool ??= Promise.all([import('./date-format.js'), import('./date-parse.js')]).then(([f, p]) => ({ formatDate: f.formatDate, inputFormatWays: p.inputFormatWays })));

/** regex-extract, number-format and date-format (CONTRACT §3.5-3.7). */
export default async function formatRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const pool = createRegexPool({ ...REGEX_POOL, timeoutMs: REGEX_TIMEOUT_MS, deadlineMs: REGEX_DEADLINE_MS });
  // Warm when a real server starts; `inject()`-only apps start workers on their first regex.
  app.addHook('onListen', async () => pool.warm());
  app.addHook('onClose', async () => pool.close());
  const datePool = createDateFormatPool();
  app.addHook('onClose', () => datePool.close());

  postTool(app, '/v1/regex-extract', {
    area: 'devtools',
    schema: {
      summary: 'Every non-overlapping match of a regular expression, with groups',
      description: [
        'JavaScript regular expression syntax, plus Python spellings: `(?P<name>…)`, `(?P=name)`, `(?#comment)`, `\\A` and `\\Z` (start and end of the whole text) and a leading inline flag group such as `(?ix)`.',
        'Flags: `i` ignore case, `m` multi-line, `s` dot matches newline, `u` strict Unicode syntax (matching is always by code point; with `u` a pattern Unicode mode cannot read is a 422 instead of running in legacy mode), `x` verbose (unescaped whitespace and `#` comments outside character classes are ignored; `\\ ` and `\\#` stay literal); `g` is accepted and ignored; any other letter → 422.',
        '`start`/`end` count Unicode code points; an empty match advances the search by one code point. `groups` and `named_groups` hold null for a group that did not take part; `named_groups` is `{}` when the pattern names none.',
        `Text up to 1 MiB (${REGEX_TEXT_MAX_BYTES} bytes of UTF-8; a longer text → 422, a body over 2 MiB → 413). At most ${REGEX_LIMITS.maxMatches} matches, ${REGEX_LIMITS.maxOutputChars} characters of match and group text and ${REGEX_LIMITS.maxOutputValues} values (matches, groups and named groups, null ones included) are returned; \`truncated\` is true when more existed. \`match_count\` counts the returned matches.`,
        `Patterns run in a pool of worker threads (at most ${REGEX_POOL.maxThreads} at once, ${REGEX_POOL.perOwner} per key or anonymous address; a free thread goes to the waiting caller with the fewest running), so one caller's slow patterns do not delay others'. Every answer comes within 1 s: a pattern still running ${REGEX_TIMEOUT_MS} ms after it started, or ${REGEX_DEADLINE_MS} ms after the request arrived, is stopped and answers 422 \`regex_timeout\`. A request that found no free thread within ${REGEX_DEADLINE_MS} ms never ran: it answers 429 \`rate_limited\` with \`Retry-After: 1\`, as does one arriving while ${REGEX_POOL.maxQueue} patterns (${REGEX_POOL.maxQueuePerOwner} of the same caller) are waiting.`,
      ].join('\n\n'),
      body: regexExtractBody,
      response: { 200: regexExtractResponse, ...errorResponses('regex_timeout', 'rate_limited') },
    },
  }, async ({ pattern, text, flags }: RegexBody, caller) => {
    // The schema bounds characters; 1 MiB is bytes (a text of é is 2 bytes a character).
    if (Buffer.byteLength(text) > REGEX_TEXT_MAX_BYTES) throw invalidField('text', `must be at most 1 MiB (${REGEX_TEXT_MAX_BYTES} bytes of UTF-8)`);
    const result = await pool.run(compilePattern(pattern, flags), text, REGEX_LIMITS, caller);
    return {
      pattern,
      match_count: result.matches.length,
      matches: result.matches.map((m) => ({ match: m.match, start: m.start, end: m.end, groups: m.groups, named_groups: m.namedGroups })),
      truncated: result.truncated,
    };
  });

  postTool(app, '/v1/number-format', {
    area: 'devtools',
    schema: {
      summary: 'Format a number for a locale with CLDR data (decimal, currency, percent, scientific)',
      description: [
        '`locale` accepts `en_US` or `en-US` (default `en_US`); a locale the CLDR data does not have (no silent fallback to the language) → 422. The response echoes it as `ll_CC`.',
        '`percent` takes a ratio (0.85 → 85%). `scientific` uses the locale\'s notation (`1.235E3` in en_US). `currency` (ISO 4217, case-insensitive) is required for `currency` and validated whenever given.',
        '`decimals` (0..20) fixes the number of fraction digits; otherwise CLDR\'s default for the style applies (3 max for decimal and scientific, 0 for percent, the currency\'s minor unit).',
      ].join('\n\n'),
      body: numberFormatBody,
      response: { 200: numberFormatResponse },
    },
  }, (body: NumberBody) => {
    const out = formatNumber({ number: body.number, formatType: body.format_type, locale: body.locale, currency: body.currency, decimals: body.decimals });
    return { formatted: out.formatted, original: body.number, locale: out.locale, format_type: body.format_type };
  });

  postTool(app, '/v1/date-format', {
    area: 'devtools',
    schema: {
      summary: 'Parse a date in any common form and print it with strftime in an IANA zone',
      description: DATE_FORMAT_DESCRIPTION,
      body: dateFormatBody,
      response: { 200: dateFormatResponse },
    },
  }, async (b: DateBody) => {
    const input = {
      date: b.date, outputFormat: b.output_format, inputFormat: b.input_format,
      fromTimezone: b.from_timezone, toTimezone: b.to_timezone, now: ctx.now(),
    };
    const { formatDate, inputFormatWays } = await loadDateTool();
    // An input_format whose directives could split a date in very many ways is matched on a worker, under a time limit.
    return input.inputFormat !== undefined && inputFormatWays(input.inputFormat) > INLINE_FORMAT_WAYS ? datePool.run(input) : formatDate(input);
  });
}
