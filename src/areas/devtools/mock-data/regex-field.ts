import type { Faker } from '@faker-js/faker';
import RandExpImport from 'randexp';
import { type FieldType, OptionError } from './field-type.js';

/** Longest string a `regex` field may produce, in code points. */
export const MAX_REGEX_OUTPUT = 1000;

// randexp is CommonJS whose module.exports is the class itself (its typings say `default`).
const RandExp = ((RandExpImport as unknown as { default?: unknown }).default ?? RandExpImport) as typeof RandExpImport.default;
type RandExpInstance = InstanceType<typeof RandExp>;

// ret token types (randexp's parser): the subset we inspect.
const ROOT = 0, GROUP = 1, SET = 3, REPETITION = 5, REFERENCE = 6;
interface Token {
  type: number;
  stack?: Token[];
  options?: Token[][];
  remember?: boolean;
  followedBy?: boolean;
  notFollowedBy?: boolean;
  min?: number;
  max?: number;
  value?: Token | number;
  not?: boolean;
  set?: Token[];
}

/**
 * Rewrite `\uXXXX` and `\xXX` escapes, which randexp's parser does not know, as the character
 * itself (escaped when it is regex syntax).
 */
function inlineHexEscapes(pattern: string): string {
  return pattern.replace(/\\(\\)|\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})/g, (all, backslash, u, x) => {
    if (backslash) return all;
    const char = String.fromCharCode(parseInt(u ?? x, 16));
    return /[\\^$.*+?()[\]{}|/-]/.test(char) ? `\\${char}` : char;
  });
}

/**
 * Cap every repetition at `min + maxRepeat` and return the longest output the tokens can produce.
 * Lookarounds are refused: randexp ignores them, so its output would not match.
 */
function capTokens(token: Token, maxRepeat: number, groups: number[]): number {
  switch (token.type) {
    case ROOT:
    case GROUP: {
      if (token.followedBy || token.notFollowedBy) throw new OptionError('pattern', 'lookaheads and lookbehinds are not supported');
      const index = token.type === GROUP && token.remember ? groups.push(0) - 1 : -1;
      const sum = (stack: Token[]) => stack.reduce((n, t) => n + capTokens(t, maxRepeat, groups), 0);
      const longest = token.options ? Math.max(0, ...token.options.map(sum)) : sum(token.stack ?? []);
      if (index >= 0) groups[index] = longest;
      return longest;
    }
    case REPETITION: {
      token.max = Math.min(token.max as number, (token.min as number) + maxRepeat);
      return token.max * capTokens(token.value as Token, maxRepeat, groups);
    }
    case REFERENCE:
      return groups[(token.value as number) - 1] ?? 0;
    case SET:
      return 1;
    default:
      return token.type === 2 ? 0 : 1; // POSITION produces nothing, CHAR one character
  }
}

/**
 * A randexp generator for `pattern` drawing from the request's seeded faker, with repetition
 * capped and output bounded. Throws {@link OptionError} for an invalid or unsupported pattern.
 *
 * @example
 *   const gen = createRegexGenerator(faker, '[A-Z]{2}-\\d{4}', 10);
 *   gen(); // "QK-0381"
 */
export function createRegexGenerator(faker: Faker, pattern: string, maxRepeat: number): () => string {
  try {
    new RegExp(pattern);
  } catch (err) {
    throw new OptionError('pattern', `is not a valid regular expression: ${(err as Error).message}`);
  }
  let gen: RandExpInstance;
  try {
    gen = new RandExp(inlineHexEscapes(pattern));
  } catch (err) {
    throw new OptionError('pattern', `uses syntax the generator does not support: ${(err as Error).message}`);
  }
  const longest = capTokens((gen as unknown as { tokens: Token }).tokens, maxRepeat, []);
  if (longest > MAX_REGEX_OUTPUT) {
    throw new OptionError('pattern', `can produce strings of up to ${longest} characters; the limit is ${MAX_REGEX_OUTPUT} (reduce fixed repetition counts such as {1000000})`);
  }
  gen.randInt = (a: number, b: number) => faker.number.int({ min: a, max: b });
  // Positive classes keep their non-ASCII members ([α-ω]); only `.` and negated classes use printable ASCII.
  const ascii = gen.defaultRange;
  const expand = gen._expand.bind(gen);
  gen._expand = (token: Parameters<RandExpInstance['_expand']>[0]) => {
    const t = token as unknown as Token;
    if (t.type !== SET || t.not) return expand(token);
    const range = ascii.clone().subtract(ascii);
    for (const member of t.set ?? []) range.add(gen._expand(member as never));
    return range;
  };
  return () => gen.gen();
}

/** The `regex` field type. */
export const REGEX_TYPE: FieldType = {
  name: 'regex',
  description:
    'String matching options.pattern (JavaScript syntax without the u flag: classes, quantifiers, alternation, groups, back-references; ' +
    `no lookarounds). Unbounded repetitions (*, +, {n,}) and ranges {n,m} produce at most min + max_repeat items; patterns that could ` +
    `produce more than ${MAX_REGEX_OUTPUT} characters are refused. "." and negated classes draw from printable ASCII.`,
  options: {
    pattern: { type: 'string', minLength: 1, maxLength: 500, description: 'Regular expression (required, up to 500 characters).' },
    max_repeat: { type: 'integer', minimum: 0, maximum: 100, default: 10, description: 'Extra repetitions allowed above a quantifier minimum (default 10).' },
  },
  required: ['pattern'],
  create: (f, o) => createRegexGenerator(f, o.pattern as string, o.max_repeat as number),
};
