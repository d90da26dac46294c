import type { Faker } from '@faker-js/faker';
import RandExpImport from 'randexp';
import { syntaxReason } from '../regex-syntax.js';
import { countGroups } from '../regex-unicode.js';
import { type FieldType, OptionError } from './field-type.js';

/** Longest string a `regex` field may produce, in code points. */
export const MAX_REGEX_OUTPUT = 1000;

// randexp is CommonJS whose module.exports is the class itself (its typings say `default`).
const RandExp = ((RandExpImport as unknown as { default?: unknown }).default ?? RandExpImport) as typeof RandExpImport.default;
type RandExpInstance = InstanceType<typeof RandExp>;

// ret token types (randexp's parser): the subset we inspect.
const ROOT = 0,
  GROUP = 1,
  SET = 3,
  REPETITION = 5,
  REFERENCE = 6;
interface Token {
  type: number;
  /** Where randexp stores a remembered group's text (it numbers groups as it first generates them). */
  groupNumber?: number;
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

// Read at a position (sticky): `(?<name>` or `(?P<name>`, `(?P=name)`, `\k<name>`.
const NAMED_GROUP = /\(\?P?<(?![=!])([^>]*)>/y;
const PYTHON_REFERENCE = /\(\?P=([^)]*)\)/y;
const NAMED_REFERENCE = /\\k<([^>]*)>/y;

function readAt(sticky: RegExp, pattern: string, at: number): RegExpExecArray | null {
  sticky.lastIndex = at;
  return sticky.exec(pattern);
}

/**
 * Rewrite named groups outside character classes. Without `numbers`, only Python's spellings change:
 * `(?P<name>…)` → `(?<name>…)`, `(?P=name)` → `\k<name>`. With `numbers` (name → group number), named
 * groups become plain ones and references to them `(?:\N)`, which randexp can generate: its parser
 * reads `\k<name>` as letters and leaves named groups out of its count for `\N`.
 */
function rewriteNamedGroups(pattern: string, numbers?: Map<string, number>): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    const reference = inClass ? null : readAt(c === '\\' ? NAMED_REFERENCE : PYTHON_REFERENCE, pattern, i);
    const group = inClass || reference ? null : readAt(NAMED_GROUP, pattern, i);
    if (reference) {
      const number = numbers?.get(reference[1]);
      out += number ? `(?:\\${number})` : `\\k<${reference[1]}>`;
      i += reference[0].length - 1;
    } else if (group) {
      out += numbers ? '(' : `(?<${group[1]}>`;
      i += group[0].length - 1;
    } else if (c === '\\') {
      out += pattern.slice(i, i + 2);
      i++;
    } else {
      out += c;
      if (c === '[') inClass = true;
      else if (c === ']') inClass = false;
    }
  }
  return out;
}

/**
 * The pattern in JavaScript syntax, and what randexp generates from: the same, or when a named group
 * is referred to, the form {@link rewriteNamedGroups} gives with group numbers. `numbered` when the
 * pattern has a back-reference: randexp must then number groups in pattern order, as references
 * count them (it numbers them as it first generates them, so `(a)?(b)\2` or `(?<n>x)\1` went wrong).
 */
function resolveNamedReferences(pattern: string): { source: string; generator: string; numbered: boolean } {
  const source = rewriteNamedGroups(pattern);
  const numbers = new Map<string, number>();
  let count = 0;
  let referred = false;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      referred ||= !inClass && /[k1-9]/.test(source[i + 1] ?? '');
      i++;
    } else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(' && source[i + 1] !== '?') count++;
    else if (c === '(') {
      const name = readAt(NAMED_GROUP, source, i)?.[1];
      if (name !== undefined) numbers.set(name, ++count);
    }
  }
  if (!referred) return { source, generator: source, numbered: false };
  // Back-references need groups numbered as the pattern numbers them (named ones included).
  return { source, generator: dropForwardReferences(numbers.size === 0 ? source : rewriteNamedGroups(source, numbers)), numbered: true };
}

/**
 * A reference to a group that opens later in the pattern (`\1(a)`) matches the empty string in
 * JavaScript; randexp's parser reads it as an octal escape (U+0001), so it is dropped here.
 */
function dropForwardReferences(pattern: string): string {
  // `\N` past the pattern's last group is no reference at all (an octal or identity escape): kept.
  const total = countGroups(pattern).count;
  let out = '';
  let opened = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const number = inClass ? null : /^[1-9]\d*/.exec(pattern.slice(i + 1, i + 6));
      if (number && Number(number[0]) > opened && Number(number[0]) <= total) {
        out += '(?:)';
        i += number[0].length;
        continue;
      }
      out += pattern.slice(i, i + 2);
      i++;
      continue;
    }
    out += c;
    if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(' && pattern[i + 1] !== '?') opened++;
  }
  return out;
}

/** Number remembered groups in pattern order (randexp would number them as it first generates them). */
function numberGroups(token: Token, next = { number: 0 }): void {
  if (token.type === GROUP && token.remember) token.groupNumber = next.number++;
  for (const child of token.options?.flat() ?? token.stack ?? []) numberGroups(child, next);
  if (token.type === REPETITION) numberGroups(token.value as Token, next);
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

/** The fewest characters a string the pattern draws can have (a back-reference counted as none). */
function shortest(token: Token): number {
  switch (token.type) {
    case ROOT:
    case GROUP: {
      const sum = (stack: Token[]) => stack.reduce((n, t) => n + shortest(t), 0);
      return token.options ? Math.min(...token.options.map(sum)) : sum(token.stack ?? []);
    }
    case REPETITION:
      return (token.min as number) * shortest(token.value as Token);
    case REFERENCE:
      return 0;
    case SET:
      return 1;
    default:
      return token.type === 2 ? 0 : 1; // POSITION produces nothing, CHAR one character
  }
}

/** `(?<=` or `(?<!` not escaped (an even run of backslashes before it). */
const LOOKBEHIND = /(?<!\\)(?:\\\\)*\(\?<[=!]/;
/** `\p{` or `\P{` whose backslash is not itself escaped. */
const PROPERTY_ESCAPE = /(?<!\\)(?:\\\\)*\\[pP]\{/;

/** Most tokens one drawn string may visit: nested repetitions of groups that can match nothing produce no output yet cost this. */
const MAX_DRAW_STEPS = 100_000;

/** Tokens a draw visits at most once repetitions are capped (each repetition of a group visits it again). */
function drawSteps(token: Token): number {
  switch (token.type) {
    case ROOT:
    case GROUP: {
      const sum = (stack: Token[]) => stack.reduce((n, t) => n + drawSteps(t), 0);
      return 1 + (token.options ? Math.max(0, ...token.options.map(sum)) : sum(token.stack ?? []));
    }
    case REPETITION:
      return 1 + (token.max as number) * drawSteps(token.value as Token);
    default:
      return 1;
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
export function createRegexGenerator(
  faker: Faker,
  pattern: string,
  maxRepeat: number,
): (() => string) & { cost: number; minChars: number } {
  const { source, generator, numbered } = resolveNamedReferences(pattern);
  try {
    new RegExp(source);
  } catch (err) {
    throw new OptionError('pattern', `is not a valid regular expression: ${syntaxReason(err)}`);
  }
  // Said here in words: randexp's parser stops at `(?<=` with "Invalid capture group name", and
  // without the u flag `\p{L}` is the text "p{L}", never what was meant.
  if (LOOKBEHIND.test(source)) throw new OptionError('pattern', 'lookaheads and lookbehinds are not supported');
  if (PROPERTY_ESCAPE.test(source)) {
    throw new OptionError(
      'pattern',
      'uses a Unicode property escape (\\p{…}), which patterns here do not support (no u flag): use a class such as [A-Za-zÀ-ÿ]',
    );
  }
  let gen: RandExpInstance;
  try {
    gen = new RandExp(inlineHexEscapes(generator));
  } catch (err) {
    throw new OptionError('pattern', `uses syntax the generator does not support: ${(err as Error).message}`);
  }
  const tokens = (gen as unknown as { tokens: Token }).tokens;
  if (numbered) numberGroups(tokens);
  const longest = capTokens(tokens, maxRepeat, []);
  if (longest > MAX_REGEX_OUTPUT) {
    throw new OptionError(
      'pattern',
      `can produce strings of up to ${longest} characters; the limit is ${MAX_REGEX_OUTPUT} (reduce fixed repetition counts such as {1000000})`,
    );
  }
  const steps = drawSteps(tokens);
  if (steps > MAX_DRAW_STEPS) {
    throw new OptionError(
      'pattern',
      `nests repetitions so that one value could take ${steps > 1e15 ? 'more than 10^15' : steps} steps to draw; the limit is ${MAX_DRAW_STEPS} (such as ((a*)*)* with a high max_repeat)`,
    );
  }
  gen.randInt = (a: number, b: number) => faker.number.int({ min: a, max: b });
  // Positive classes keep their non-ASCII members ([α-ω]); only `.` and negated classes use printable ASCII.
  const ascii = gen.defaultRange;
  const expand = gen._expand.bind(gen);
  // randexp builds a class's character ranges again for every character it draws from it (most of a
  // regex field's time); a class's ranges never change, and nothing changes a range once built.
  const expanded = new Map<Token, ReturnType<RandExpInstance['_expand']>>();
  gen._expand = (token: Parameters<RandExpInstance['_expand']>[0]) => {
    const t = token as unknown as Token;
    if (t.type !== SET) return expand(token);
    let range = expanded.get(t);
    if (range) return range;
    if (t.not) range = expand(token);
    else {
      range = ascii.clone().subtract(ascii);
      for (const member of t.set ?? []) range.add(gen._expand(member as never));
    }
    expanded.set(t, range);
    return range;
  };
  if (hasEmptyClass(tokens, (t) => gen._expand(t as never).length === 0)) {
    throw new OptionError(
      'pattern',
      'has a character class with no character to draw from (such as [^\\s\\S]; negated classes draw from printable ASCII), so no matching string can be made',
    );
  }
  // A typical Faker call takes about as long as 4000 draw steps (0.2 ms at the step limit against 5-8 µs).
  return Object.assign(() => gen.gen(), { cost: 1 + steps / 4000, minChars: shortest(tokens) });
}

/** Whether a class in the pattern (outside other classes) holds no character at all. */
function hasEmptyClass(token: Token, isEmpty: (set: Token) => boolean): boolean {
  switch (token.type) {
    case ROOT:
    case GROUP:
      return (token.options ?? [token.stack ?? []]).some((stack) => stack.some((t) => hasEmptyClass(t, isEmpty)));
    case REPETITION:
      return hasEmptyClass(token.value as Token, isEmpty);
    case SET:
      return isEmpty(token);
    default:
      return false;
  }
}

/** The `regex` field type. */
export const REGEX_TYPE: FieldType = {
  name: 'regex',
  description:
    'String matching options.pattern (JavaScript syntax without the u flag: classes, quantifiers, alternation, groups, back-references ' +
    `\\1 and \\k<name>, Python's (?P<name>…) and (?P=name) accepted; no lookarounds). Unbounded repetitions (*, +, {n,}) and ` +
    `ranges {n,m} produce at most min + max_repeat items; patterns that could produce more than ${MAX_REGEX_OUTPUT} characters are ` +
    'refused. "." and negated classes draw from printable ASCII; a class left with no character to draw from ([^\\s\\S]) is refused.',
  options: {
    pattern: { type: 'string', minLength: 1, maxLength: 500, description: 'Regular expression (required, up to 500 characters).' },
    max_repeat: {
      type: 'integer',
      minimum: 0,
      maximum: 100,
      default: 10,
      description: 'Extra repetitions allowed above a quantifier minimum (default 10).',
    },
  },
  required: ['pattern'],
  create: (f, o) => createRegexGenerator(f, o.pattern as string, o.max_repeat as number),
};
