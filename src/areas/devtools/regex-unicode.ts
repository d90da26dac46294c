/** Characters that keep their backslash in Unicode mode (the only identity escapes it allows). */
const SYNTAX = new Set('^$\\.*+?()[]{}|/');
const CLASS_SETS = new Set('dDwWsS');
const CONTROL_ESCAPES = new Set('fnrtv');
// Sticky, read at a position with `readAt` (slicing the source at every escape would be quadratic).
const HEX2 = /[0-9a-fA-F]{2}/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const BRACED_HEX = /\{[0-9a-fA-F]+\}/y;
const PROPERTY = /\{[^}]*\}/y;
const NAME = /<[^>]*>/y;
const DIGITS = /\d+/y;
const QUANTIFIER = /\{\d+(?:,\d*)?\}/y;
const LEGACY_OCTAL = /[0-3][0-7]{0,2}|[4-7][0-7]?/y;

/** The text `sticky` matches at `source[at]`, if any. */
function readAt(sticky: RegExp, source: string, at: number): string | undefined {
  sticky.lastIndex = at;
  return sticky.exec(source)?.[0];
}

interface GroupCount {
  count: number;
  named: boolean;
}

/** Capturing groups of a JavaScript pattern, and whether any is named (which makes `\k` a back-reference). */
export function countGroups(source: string): GroupCount {
  let count = 0;
  let named = false;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(' && source[i + 1] !== '?') count++;
    else if (c === '(' && source[i + 2] === '<' && source[i + 3] !== '=' && source[i + 3] !== '!') {
      count++;
      named = true;
    }
  }
  return { count, named };
}

const hexEscape = (code: number) => `\\x${code.toString(16).padStart(2, '0')}`;

/** A character written literally, escaped when Unicode mode would read it as syntax. */
function literal(char: string, inClass: boolean): string {
  return SYNTAX.has(char) || (inClass && char === '-') ? `\\${char}` : char;
}

interface Atom {
  text: string;
  /** Index just past the atom in the source. */
  next: number;
  /** A class escape (`\d`, `\p{…}`…): it cannot end a range. */
  set: boolean;
}

/**
 * The escape starting at `source[i] === '\\'`, rewritten for Unicode mode. Inside a character
 * class digits are never back-references.
 */
function translateEscape(source: string, i: number, groups: GroupCount, inClass: boolean): Atom {
  const c = source[i + 1];
  const at = i + 2;
  const atom = (text: string, next: number, set = false): Atom => ({ text, next, set });
  if (c === undefined) return atom('\\', at - 1); // the engine reports the dangling escape
  if (CLASS_SETS.has(c)) return atom(`\\${c}`, at, true);
  if (c === 'p' || c === 'P') {
    const braces = readAt(PROPERTY, source, at);
    return braces ? atom(`\\${c}${braces}`, at + braces.length, true) : atom(c, at);
  }
  // `\b` is a backspace inside a class; `\B` there is a legacy identity escape.
  if (SYNTAX.has(c) || CONTROL_ESCAPES.has(c) || c === 'b' || (c === 'B' && !inClass)) return atom(`\\${c}`, at);
  if (c === 'c') {
    const letter = source[at] ?? '';
    if (/^[a-zA-Z]$/.test(letter)) return atom(`\\c${letter}`, at + 1);
    // Inside a class the legacy syntax also takes a digit or `_`; anywhere else `\c` is a backslash.
    if (inClass && /^[0-9_]$/.test(letter)) return atom(hexEscape(letter.charCodeAt(0) % 32), at + 1);
    return atom('\\\\', at - 1);
  }
  if (c === 'x') {
    const hex = readAt(HEX2, source, at);
    return hex ? atom(`\\x${hex}`, at + 2) : atom('x', at);
  }
  if (c === 'u') {
    const hex = readAt(HEX4, source, at);
    if (hex) return atom(`\\u${hex}`, at + 4);
    const braced = readAt(BRACED_HEX, source, at);
    if (braced && parseInt(braced.slice(1, -1), 16) <= 0x10ffff) return atom(`\\u${braced}`, at + braced.length);
    return atom('u', at);
  }
  if (c === 'k') {
    // `\k<name>` stays a reference, to be refused when no group has that name (Python's `(?P=missing)`
    // included); any other `\k` is a letter unless named groups exist, when the engine rejects it.
    const name = inClass ? undefined : readAt(NAME, source, at);
    if (name) return atom(`\\k${name}`, at + name.length);
    return groups.named ? atom('\\k', at) : atom('k', at);
  }
  if (c >= '0' && c <= '9') {
    const digits = readAt(DIGITS, source, at - 1) as string;
    if (c === '0' && digits.length === 1) return atom('\\0', at);
    if (c !== '0' && !inClass && Number(digits) <= groups.count) return atom(`\\${digits}`, at - 1 + digits.length);
    // Not a back-reference: a legacy octal escape (`\12`), or `\8`/`\9` standing for the digit.
    const octal = readAt(LEGACY_OCTAL, source, at - 1);
    return octal ? atom(hexEscape(parseInt(octal, 8)), at - 1 + octal.length) : atom(hexEscape(c.charCodeAt(0)), at);
  }
  const char = String.fromCodePoint(source.codePointAt(i + 1) as number);
  return atom(literal(char, inClass), i + 1 + char.length);
}

/** One member of a character class (a character, an escape or a class escape). */
function classAtom(source: string, i: number, groups: GroupCount): Atom {
  if (source[i] === '\\') return translateEscape(source, i, groups, true);
  const char = String.fromCodePoint(source.codePointAt(i) as number);
  return { text: char, next: i + char.length, set: false };
}

/**
 * The class opening at `source[start] === '['`, rewritten for Unicode mode: a `-` next to a class
 * escape (`[\w-.]`), which the legacy syntax reads as a literal dash, is escaped.
 */
function translateClass(source: string, start: number, groups: GroupCount): { text: string; next: number } {
  let i = start + 1;
  let text = '[';
  if (source[i] === '^') {
    text += '^';
    i++;
  }
  let previous: Atom | null = null;
  let rangeEnded = false;
  while (i < source.length && source[i] !== ']') {
    if (source[i] === '-' && previous && !rangeEnded && i + 1 < source.length && source[i + 1] !== ']') {
      const end = classAtom(source, i + 1, groups);
      text += (previous.set || end.set ? '\\-' : '-') + end.text;
      previous = end;
      rangeEnded = true;
      i = end.next;
      continue;
    }
    previous = classAtom(source, i, groups);
    rangeEnded = false;
    text += previous.text;
    i = previous.next;
  }
  return { text: i < source.length ? `${text}]` : text, next: i + 1 };
}

/**
 * Rewrite a JavaScript pattern written for the legacy (non-`u`) syntax so that it means the same in
 * Unicode mode, where matching is by code point: identity escapes of characters that are not syntax
 * (`\-`, `\:`, `\"`, `\q`) become the character, lone `{`, `}` and `]` are escaped, `\N` beyond the
 * group count becomes the legacy octal escape, an incomplete `\x`, `\u` or `\c` becomes its letters,
 * `\k` not followed by `<name>` and without named groups becomes `k`, a quantified lookahead gets a
 * group around it, and a `-` next to a class escape inside a class is escaped. `\u{…}` and `\p{…}`
 * keep their Unicode-mode meaning. A pattern already valid in Unicode mode is returned unchanged.
 *
 * @example
 *   toUnicodeSource('\\d+\\-\\d+ {x}') // → '\\d+-\\d+ \\{x\\}'
 */
export function toUnicodeSource(source: string): string {
  const groups = countGroups(source);
  const open: { at: number; lookahead: boolean }[] = [];
  let out = '';
  for (let i = 0; i < source.length;) {
    const c = source[i];
    if (c === '\\') {
      const escape = translateEscape(source, i, groups, false);
      out += escape.text;
      i = escape.next;
    } else if (c === '[') {
      const cls = translateClass(source, i, groups);
      out += cls.text;
      i = cls.next;
    } else if (c === '{') {
      const quantifier = readAt(QUANTIFIER, source, i);
      out += quantifier ?? '\\{';
      i += quantifier?.length ?? 1;
    } else if (c === '}' || c === ']') {
      out += `\\${c}`;
      i++;
    } else if (c === '(') {
      open.push({ at: out.length, lookahead: source[i + 1] === '?' && (source[i + 2] === '=' || source[i + 2] === '!') });
      out += c;
      i++;
    } else if (c === ')') {
      const group = open.pop();
      out += c;
      i++;
      // Unicode mode refuses `(?=a)*`; `(?:(?=a))*` means the same.
      const next = source[i];
      if (group?.lookahead && (next === '*' || next === '+' || next === '?' || readAt(QUANTIFIER, source, i))) {
        out = `${out.slice(0, group.at)}(?:${out.slice(group.at)})`;
      }
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
