import { compile, tokenize } from '@jmespath-community/jmespath';

/** A lexing problem found before the library sees the expression, with its 0-based offset. */
export class JmespathLexError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'LexerError';
  }
}

const QUOTES: Record<string, string> = { "'": 'raw string literal', '"': 'quoted identifier', '`': 'JSON literal' };

/** Index of the quote closing the one at `start` (backslash escapes skipped), or the expression's length when none does. */
function closingQuote(expression: string, start: number): number {
  const quote = expression[start];
  let j = start + 1;
  while (j < expression.length && expression[j] !== quote) j += expression[j] === '\\' ? 2 : 1;
  return j;
}

/**
 * Scan the expression the way the lexer does (quotes, backslash escapes) and fail on an
 * unterminated quote, which the library accepts silently for raw strings, or on a character
 * no JMESPath token starts with. Returns the spans of raw string literals (`'...'`).
 *
 * @example
 *   scanExpression("a == 'x'") // → [{ start: 5, end: 8 }]
 */
export function scanExpression(expression: string): Array<{ start: number; end: number }> {
  const raw: Array<{ start: number; end: number }> = [];
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i]!;
    const kind = QUOTES[c];
    if (kind === undefined) {
      if (!/[\w \t\n\r.*@[\]{}(),:|&!<>=?+\-%/$×÷\u2212]/.test(c)) throw new JmespathLexError(`unknown character ${JSON.stringify(c)}`, i);
      continue;
    }
    const j = closingQuote(expression, i);
    if (j >= expression.length) throw new JmespathLexError(`unterminated ${kind}`, i);
    if (c === "'") raw.push({ start: i, end: j + 1 });
    i = j;
  }
  return raw;
}

/**
 * Spell as U+2212 every `-` that another `-` follows, outside quotes: the library's lexer reads
 * `-` followed by `-` as the start of a number and fails (`--a`, `a--b`), while JEP 16's grammar
 * makes it a minus sign applied to what follows. U+2212 is the lexer's other minus token, one
 * UTF-16 unit long, so every offset stays where it was.
 *
 * @example
 *   separateMinusSigns('a--b') // → 'a\u2212-b'
 */
export function separateMinusSigns(expression: string): string {
  if (!expression.includes('--')) return expression;
  let out = '';
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i]!;
    if (QUOTES[c] !== undefined) {
      const j = Math.min(closingQuote(expression, i), expression.length - 1);
      out += expression.slice(i, j + 1);
      i = j;
    } else out += c === '-' && expression[i + 1] === '-' ? '\u2212' : c;
  }
  return out;
}

/**
 * Where the calls of function `name` start in the expression (their names, outside quotes).
 *
 * @example
 *   functionCallPositions("a || nosuch('nosuch(') || nosuch(b)", 'nosuch') // → [5, 25]
 */
export function functionCallPositions(expression: string, name: string): number[] {
  const call = new RegExp(`^${name.replace(/[^\w]/g, '\\$&')}\\s*\\(`);
  const found: number[] = [];
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i]!;
    if (QUOTES[c] !== undefined) {
      i = closingQuote(expression, i);
    } else if ((i === 0 || !/\w/.test(expression[i - 1]!)) && call.test(expression.slice(i, i + name.length + 64))) {
      found.push(i);
    }
  }
  return found;
}

/**
 * Rewrite raw string literals as equivalent JSON literals, decoding them as the official
 * JMESPath specification (JEP 12) does: only `\'` is an escape, so `'\\'` is two backslashes.
 * The community library also unescapes `\\`, which breaks an official compliance case.
 *
 * @example
 *   rewriteRawStrings("'\\\\'") // → '`"\\\\\\\\"`' (a JSON literal holding two backslashes)
 */
export function rewriteRawStrings(expression: string, spans: Array<{ start: number; end: number }>): string {
  if (spans.length === 0 || !expression.includes('\\')) return expression;
  let out = '';
  let last = 0;
  for (const { start, end } of spans) {
    const value = expression.slice(start + 1, end - 1).replace(/\\'/g, "'");
    out += expression.slice(last, start) + '`' + JSON.stringify(value).replace(/`/g, '\\u0060') + '`';
    last = end;
  }
  return out + expression.slice(last);
}

/**
 * Offset of the token a parse error is about. The parser reads left to right, so a prefix that
 * stops before the bad token fails only for running out of input ("EOF") or parses, while every
 * prefix that contains it fails on it: binary search for the shortest such prefix.
 *
 * @example
 *   locateParseError('foo]]', {}) // → 3
 */
export function locateParseError(expression: string, options: { enable_legacy_literals?: boolean }): number {
  let tokens: Array<{ start: number }>;
  try {
    tokens = tokenize(expression, options);
  } catch {
    return expression.length;
  }
  const failsInside = (k: number): boolean => {
    const end = k + 1 < tokens.length ? tokens[k + 1]!.start : expression.length;
    try {
      compile(expression.slice(0, end), options);
      return false;
    } catch (err) {
      return !/EOF/.test((err as Error).message);
    }
  };
  let lo = 0;
  let hi = tokens.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (failsInside(mid)) {
      found = mid;
      hi = mid - 1;
    } else lo = mid + 1;
  }
  return found < 0 ? expression.length : tokens[found]!.start;
}
