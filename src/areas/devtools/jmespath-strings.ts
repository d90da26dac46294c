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

import { spend, type Budget } from './jmespath-budget.js';

type StringFunction = (args: unknown[]) => unknown;

/** The running evaluation's step budget (evaluation is synchronous: one at a time). */
let budget: Budget = { left: Infinity };

/**
 * Charge these functions' work to `current` from now on: a scan of a long string costs steps
 * (one per 64 UTF-16 units), so a projection calling them on a megabyte string for each of many
 * elements stops at the evaluation's step bound instead of running for minutes.
 */
export function chargeStringWorkTo(current: Budget): void {
  budget = current;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** The string's characters: its UTF-16 units when it has no surrogate (then they are its code points), else its code points. */
function characters(text: string): string | string[] {
  spend(budget, Math.ceil(text.length / 64));
  return SURROGATE.test(text) ? Array.from(text) : text;
}

const codePoints = (text: string): string[] => {
  const chars = characters(text);
  return typeof chars === 'string' ? chars.split('') : chars;
};

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
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new Error('invalid-value: expecting a non-negative integer.');
  return value;
}

/** `find_first` / `find_last`: code-point offset of `search` within [start, end) of the subject, or null. */
function find(last: boolean): StringFunction {
  return ([subject, search, start, end]) => {
    const text = subject as string;
    const needle = search as string;
    if (text === '' || needle === '') return null;
    // A needle that starts with a lone low surrogate or ends with a lone high one would match inside a character.
    if (/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(needle)) return null;
    const chars = characters(text);
    const from = Math.max(ensureInteger(start ?? 0), 0);
    const to = Math.min(ensureInteger(end ?? chars.length), chars.length);
    const window = typeof chars === 'string' ? chars.slice(from, to) : chars.slice(from, to).join('');
    const at = last ? window.lastIndexOf(needle) : window.indexOf(needle);
    return at < 0 ? null : from + (typeof chars === 'string' ? at : codePointOffset(window, at));
  };
}

/** `pad_left` / `pad_right`: the subject widened to `width` code points with one padding code point (default a space). */
function pad(name: string, left: boolean): StringFunction {
  return ([subject, width, padding]) => {
    const fill = padding === undefined || padding === '' ? ' ' : (padding as string);
    if (codePoints(fill).length > 1) throw new Error(`invalid value, ${name} expects its 'pad' parameter to be a valid string with a single codepoint`);
    const missing = ensureNonNegativeInteger(width) - characters(subject as string).length;
    if (missing <= 0) return subject;
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
  spend(budget, Math.ceil(text.length / 64));
  let out = '';
  let pos = 0;
  for (let n = 0; n < limit; n++) {
    const at = text.indexOf(search, pos);
    if (at < 0) break;
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
  const pieces = sep === '' ? codePoints(text) : (spend(budget, Math.ceil(text.length / 64)), text.split(sep));
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
