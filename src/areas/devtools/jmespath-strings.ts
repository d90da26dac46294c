/**
 * The JMESPath Community string functions, counting in Unicode code points as JMESPath defines
 * strings (and as `length`, `reverse` and slices already count). The library's versions work on
 * UTF-16 code units: they cut astral characters in half (`split('😀', '')`), report offsets and
 * widths that disagree with `length`, and refuse a single astral padding character. The rules
 * otherwise follow the community specification, which models them on Python's `str` methods:
 * `find_first`/`find_last` as `find`/`rfind` (a negative start counts as 0), `replace` and
 * `split` with a count as `replace`/`split` with a maximum, `trim*` as `strip` (default:
 * whitespace). Argument types and counts are checked by the runtime before these run.
 */

import { chargeBuilt, chargeScan } from './jmespath-budget.js';

type StringFunction = (args: unknown[]) => unknown;

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * The string's characters: its UTF-16 units when it has no surrogate (then they are its code
 * points), else an array of its code points (charged as built: one string per character).
 */
function characters(text: string): string | string[] {
  chargeScan(text.length);
  if (!SURROGATE.test(text)) return text;
  chargeBuilt(text.length);
  return Array.from(text);
}

const codePoints = (text: string): string[] => {
  const chars = characters(text);
  return typeof chars === 'string' ? chars.split('') : chars;
};

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Whether UTF-16 offset `at` of `text` falls between two code points (not inside a surrogate pair). */
function onBoundary(text: string, at: number): boolean {
  return at <= 0 || at >= text.length || !(isHigh(text.charCodeAt(at - 1)) && isLow(text.charCodeAt(at)));
}

/**
 * UTF-16 offsets of the non-overlapping occurrences of `needle` (not empty) in `text`, left to
 * right, at most `limit`: only matches that start and end between code points, so half of an
 * emoji never matches the half it spells.
 */
function occurrences(text: string, needle: string, limit = Infinity): number[] {
  const found: number[] = [];
  const checkEdges = SURROGATE.test(needle) || SURROGATE.test(text);
  for (let at = text.indexOf(needle); at >= 0 && found.length < limit;) {
    if (!checkEdges || (onBoundary(text, at) && onBoundary(text, at + needle.length))) {
      found.push(at);
      at = text.indexOf(needle, at + needle.length);
    } else at = text.indexOf(needle, at + 1);
  }
  return found;
}

/** Code points in the first `units` UTF-16 units of `text`. */
function codePointOffset(text: string, units: number): number {
  let count = 0;
  for (let i = 0; i < units; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point: skip the low half.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < units) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

function ensureInteger(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new Error('invalid-value: expecting an integer.');
  return value;
}

function ensureNonNegativeInteger(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new Error('invalid-value: expecting a non-negative integer.');
  return value;
}

/** `find_first` / `find_last`: code-point offset of `search` within [start, end) of the subject, or null. */
function find(last: boolean): StringFunction {
  return ([subject, search, start, end]) => {
    const text = subject as string;
    const needle = search as string;
    if (text === '' || needle === '') return null;
    const chars = characters(text);
    const from = Math.max(ensureInteger(start ?? 0), 0);
    const to = Math.min(ensureInteger(end ?? chars.length), chars.length);
    const window = typeof chars === 'string' ? chars.slice(from, to) : chars.slice(from, to).join('');
    const at = last ? lastOccurrence(window, needle) : (occurrences(window, needle, 1)[0] ?? -1);
    if (at < 0) return null;
    return from + (typeof chars === 'string' ? at : codePointOffset(window, at));
  };
}

/** The last offset where `needle` occurs between code points (overlapping occurrences count, as rfind), or -1. */
function lastOccurrence(window: string, needle: string): number {
  for (let at = window.lastIndexOf(needle); at >= 0; at = at === 0 ? -1 : window.lastIndexOf(needle, at - 1)) {
    if (onBoundary(window, at) && onBoundary(window, at + needle.length)) return at;
  }
  return -1;
}

/** `pad_left` / `pad_right`: the subject widened to `width` code points with one padding code point (default a space). */
function pad(name: string, left: boolean): StringFunction {
  return ([subject, width, padding]) => {
    const fill = padding === undefined || padding === '' ? ' ' : (padding as string);
    if (codePoints(fill).length > 1)
      throw new Error(`invalid value, ${name} expects its 'pad' parameter to be a valid string with a single codepoint`);
    const missing = ensureNonNegativeInteger(width) - characters(subject as string).length;
    if (missing <= 0) return subject;
    chargeBuilt(missing * fill.length);
    return left ? fill.repeat(missing) + (subject as string) : (subject as string) + fill.repeat(missing);
  };
}

/** `replace`: the first `count` (default all) non-overlapping occurrences, left to right; an empty `old` matches at every code-point boundary. */
const replace: StringFunction = ([subject, old, by, count]) => {
  const text = subject as string;
  const search = old as string;
  const limit = count === undefined ? Infinity : ensureNonNegativeInteger(count);
  if (limit === 0) return text;
  if (search === '') {
    const points = codePoints(text);
    let out = '';
    for (let i = 0; i <= points.length; i++) out += (i < limit ? (by as string) : '') + (points[i] ?? '');
    return out;
  }
  let out = '';
  let pos = 0;
  for (const at of occurrences(text, search, limit)) {
    out += text.slice(pos, at) + (by as string);
    pos = at + search.length;
  }
  return out + text.slice(pos);
};

/** `split`: at most `count` splits from the left; an empty separator splits into code points. */
const split: StringFunction = ([subject, separator, count]) => {
  const text = subject as string;
  const sep = separator as string;
  if (text === '' && sep === '') return [];
  const max = count === undefined || count === null ? Infinity : ensureNonNegativeInteger(count);
  let pieces: string[];
  if (sep === '') pieces = codePoints(text);
  else {
    chargeScan(text.length);
    pieces = [];
    let pos = 0;
    for (const at of occurrences(text, sep)) {
      pieces.push(text.slice(pos, at));
      pos = at + sep.length;
    }
    pieces.push(text.slice(pos));
  }
  // Each piece is a string the result holds: charged as 16 characters built.
  chargeBuilt(16 * pieces.length);
  if (max >= pieces.length - 1) return pieces;
  return [...pieces.slice(0, max), pieces.slice(max).join(sep)];
};

const WHITESPACE = /^[\s\x85]$/u;

/** `trim` / `trim_left` / `trim_right`: code points in `chars` (default: whitespace) removed from the chosen ends. */
function trim(left: boolean, right: boolean): StringFunction {
  return ([subject, chars]) => {
    const points = characters(subject as string);
    const set = chars === undefined || chars === '' ? undefined : new Set(codePoints(chars as string));
    const strip = (c: string | undefined) => c !== undefined && (set ? set.has(c) : WHITESPACE.test(c));
    let from = 0;
    let to = points.length;
    if (left) while (from < to && strip(points[from])) from++;
    if (right) while (to > from && strip(points[to - 1])) to--;
    return typeof points === 'string' ? points.slice(from, to) : points.slice(from, to).join('');
  };
}

/** The JSON number grammar (RFC 8259 §6), which `to_number` accepts in a string. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** `to_number`: a number as is; a string only when it is a JSON number a double can hold; anything else null. */
const toNumber: StringFunction = ([value]) => {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || !JSON_NUMBER.test(value)) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};

/** Function-table implementations by name (the runtime keeps each row's signature). */
export const CODE_POINT_FUNCTIONS: Record<string, StringFunction> = {
  find_first: find(false),
  find_last: find(true),
  pad_left: pad('pad_left', true),
  pad_right: pad('pad_right', false),
  replace,
  split,
  trim: trim(true, true),
  trim_left: trim(true, false),
  trim_right: trim(false, true),
  to_number: toNumber,
};
