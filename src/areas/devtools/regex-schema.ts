import { availableParallelism } from 'node:os';
import { errorResponses } from '../../http/schemas.js';
import type { ExtractLimits } from './regex-extract.js';

/** Longest a pattern may run before its worker is stopped (the whole answer stays under 1 s). */
export const REGEX_TIMEOUT_MS = 500;

/**
 * Longest a request may wait for a worker and run, together, from the moment its pattern is
 * compiled: 200 ms short of the promised 1 s, which is what reading the request, answering and the
 * network take when dozens of patterns arrive at once on a small machine.
 */
export const REGEX_DEADLINE_MS = 800;

/**
 * The regex worker pool's shape (src/areas/devtools/regex-pool.ts): at most 3 patterns of one
 * caller run at once, and 4 threads stay warm from the first pattern on (a process that never runs one holds none), so a caller's burst of catastrophic patterns still
 * leaves one ready for the next caller; up to 4 threads per core (6..16) while patterns run.
 */
export const REGEX_POOL = {
  size: 4,
  maxThreads: Math.min(16, Math.max(6, 4 * availableParallelism())),
  perOwner: 3,
  maxQueue: 64,
  maxQueuePerOwner: 16,
  idleMs: 10_000,
} as const;

/** Bounds on what one call returns. */
export const REGEX_LIMITS: ExtractLimits = { maxMatches: 10_000, maxOutputChars: 8 * 1024 * 1024, maxOutputValues: 200_000 };

/** Longest regex-extract text, in bytes of UTF-8 (CONTRACT §3.5: 1 MiB). */
export const REGEX_TEXT_MAX_BYTES = 1024 * 1024;

/** Request body of `POST /v1/regex-extract`. */
export interface RegexExtractBody {
  pattern: string;
  text: string;
  flags: string;
}

const regexExtractBody = {
  type: 'object',
  required: ['pattern', 'text'],
  additionalProperties: false,
  description:
    'Matching is by Unicode code point whatever the flags, as in Python: `.`, `[^a]` and `[😀]` match a whole emoji, never half of ' +
    'a surrogate pair, and `start`/`end` count code points.',
  properties: {
    pattern: {
      type: 'string',
      maxLength: 10_000,
      description:
        'Regular expression (JavaScript syntax, Python group spellings accepted). Always run in Unicode mode: legacy spellings such as `\\-`, `\\:`, ' +
        'a lone `{` or `]` keep their literal meaning, and `\\u{…}`, `\\p{…}` have their Unicode meaning.',
    },
    text: { type: 'string', maxLength: 1_048_576, description: 'Text to search, up to 1 MiB.' },
    flags: {
      type: 'string',
      maxLength: 16,
      default: '',
      description:
        'Any of i, m, s, u, x; g accepted and ignored. Matching is by code point with or without u; u only makes a pattern Unicode mode ' +
        'cannot read (an unknown `\\p{…}` property) an error instead of being read with the legacy syntax.',
    },
  },
  examples: [{ pattern: '(?P<user>\\w+)@(?P<domain>[\\w.]+)', text: 'Mail ana@example.com or 😀 bo@test.org', flags: 'i' }],
} as const;

const matchSchema = {
  type: 'object',
  required: ['match', 'start', 'end', 'groups', 'named_groups'],
  properties: {
    match: { type: 'string' },
    start: { type: 'integer', description: 'Code point offset of the first character.' },
    end: { type: 'integer', description: 'Code point offset just past the last character.' },
    groups: { type: 'array', items: { type: ['string', 'null'] } },
    named_groups: { type: 'object', additionalProperties: { type: ['string', 'null'] } },
  },
} as const;

const regexExtractResponse = {
  type: 'object',
  required: ['pattern', 'match_count', 'matches', 'truncated'],
  properties: {
    pattern: { type: 'string' },
    match_count: { type: 'integer' },
    matches: { type: 'array', items: matchSchema },
    truncated: { type: 'boolean' },
  },
  examples: [
    {
      pattern: '(?P<user>\\w+)@(?P<domain>[\\w.]+)',
      match_count: 2,
      matches: [
        {
          match: 'ana@example.com',
          start: 5,
          end: 20,
          groups: ['ana', 'example.com'],
          named_groups: { user: 'ana', domain: 'example.com' },
        },
        { match: 'bo@test.org', start: 26, end: 37, groups: ['bo', 'test.org'], named_groups: { user: 'bo', domain: 'test.org' } },
      ],
      truncated: false,
    },
  ],
} as const;

/** `POST /v1/regex-extract`: the syntax, the limits and how the worker threads are shared. */
export const regexExtractSchema = {
  operationId: 'extractRegex',
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
};
