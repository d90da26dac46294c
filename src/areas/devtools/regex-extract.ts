import type { CompiledPattern } from './regex-syntax.js';

/** One match, offsets in Unicode code points. */
export interface RegexMatch {
  match: string;
  start: number;
  end: number;
  /** Numbered groups in order; `null` for a group that did not take part. */
  groups: (string | null)[];
  /** Named groups; `null` for one that did not take part. */
  namedGroups: Record<string, string | null>;
}

export interface ExtractResult {
  matches: RegexMatch[];
  /** True when more matches (or more output than the budget) existed than were returned. */
  truncated: boolean;
}

export interface ExtractLimits {
  /** Most matches returned. */
  maxMatches: number;
  /** Most characters of match and group text returned in total (bounds the response size). */
  maxOutputChars: number;
  /**
   * Most values returned in total: each match, each of its groups and named groups (a null one
   * too). Bounds what a pattern of many empty groups makes (`(x)?` a thousand times × 10000 matches
   * was 50 MB of nulls, built and serialised on the event loop).
   */
  maxOutputValues: number;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Width in UTF-16 units of the code point at `index` (1 past the end, so a final empty match ends the loop). */
function codePointWidth(text: string, index: number): number {
  return isHighSurrogate(text.charCodeAt(index)) && isLowSurrogate(text.charCodeAt(index + 1)) ? 2 : 1;
}

/** Converts increasing UTF-16 indexes to code point indexes in one pass over the text. */
function createCodePointCounter(text: string): (utf16Index: number) => number {
  let unit = 0;
  let point = 0;
  return (target) => {
    while (unit < target) {
      // A pair split by the target counts its halves separately (compilePattern keeps match bounds off
      // the middle of a pair, even for a pattern run in legacy mode; this is the safe reading if not).
      unit += unit + 1 < target ? codePointWidth(text, unit) : 1;
      point++;
    }
    return point;
  };
}

/** Null-prototype copy so a group named `__proto__` stays an ordinary key. */
function copyNamedGroups(groups: Record<string, string | undefined> | undefined): Record<string, string | null> {
  const out: Record<string, string | null> = Object.create(null);
  for (const [name, value] of Object.entries(groups ?? {})) out[name] = value ?? null;
  return out;
}

/**
 * Every non-overlapping match of a compiled pattern, as Python's `re.finditer` reports them:
 * an empty match advances the search by one code point. Runs synchronously, so callers put it
 * where a catastrophic pattern cannot stall anything (the regex worker).
 *
 * @example
 *   extractMatches({ source: '(\\d)(x)?', flags: 'g' }, '😀1', { maxMatches: 10, maxOutputChars: 1e6, maxOutputValues: 1e6 })
 *   // → { matches: [{ match: '1', start: 1, end: 2, groups: ['1', null], namedGroups: {} }], truncated: false }
 */
export function extractMatches(pattern: CompiledPattern, text: string, limits: ExtractLimits): ExtractResult {
  const re = new RegExp(pattern.source, pattern.flags);
  const toCodePoint = createCodePointCounter(text);
  const matches: RegexMatch[] = [];
  let budget = limits.maxOutputChars;
  let values = limits.maxOutputValues;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const groups = m.slice(1).map((g) => g ?? null);
    budget -= groups.reduce((sum, g) => sum + (g?.length ?? 0), m[0].length);
    values -= 1 + groups.length + (m.groups ? Object.keys(m.groups).length : 0);
    if (matches.length >= limits.maxMatches || budget < 0 || values < 0) return { matches, truncated: true };
    const start = toCodePoint(m.index);
    const end = toCodePoint(m.index + m[0].length);
    matches.push({ match: m[0], start, end, groups, namedGroups: copyNamedGroups(m.groups) });
    if (m[0] === '') re.lastIndex = m.index + codePointWidth(text, m.index);
  }
  return { matches, truncated: false };
}
