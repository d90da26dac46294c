// The regex page's logic: the text cut into plain and matched pieces from the API's code-point
// offsets, and the flags string the toggles edit.

/** One match as `POST /v1/regex-extract` answers it; `start`/`end` count code points. */
export interface RegexMatch {
  match: string;
  start: number;
  end: number;
  groups: (string | null)[];
  named_groups: Record<string, string | null>;
}

/** A piece of the text: outside every match (`match` null) or the whole of match number `match` (possibly empty). */
export interface TextSegment {
  text: string;
  match: number | null;
}

/**
 * The text as consecutive pieces, each match its own piece, from code-point offsets (a JavaScript
 * string counts UTF-16 units: an emoji is two). Matches come in order and do not overlap; one that
 * starts before the previous one ends is left out.
 *
 * @example
 *   segmentsOf('😀 ab', [{ start: 2, end: 4 }])
 *   // [{ text: '😀 ', match: null }, { text: 'ab', match: 0 }]
 */
export function segmentsOf(text: string, matches: readonly { start: number; end: number }[]): TextSegment[] {
  const segments: TextSegment[] = [];
  let unit = 0;
  let codePoint = 0;
  const unitAt = (target: number) => {
    while (codePoint < target && unit < text.length) {
      unit += (text.codePointAt(unit) ?? 0) > 0xffff ? 2 : 1;
      codePoint++;
    }
    return unit;
  };
  let done = 0;
  let doneCodePoint = 0;
  matches.forEach((m, index) => {
    if (m.start < doneCodePoint || m.end < m.start) return;
    const from = unitAt(m.start);
    const to = unitAt(m.end);
    if (from > done) segments.push({ text: text.slice(done, from), match: null });
    segments.push({ text: text.slice(from, to), match: index });
    done = to;
    doneCodePoint = m.end;
  });
  if (done < text.length) segments.push({ text: text.slice(done), match: null });
  return segments;
}

/** The flags the API takes, in the order the toggles show them (`g` is accepted and ignored, so not offered). */
export const REGEX_FLAGS = [
  { flag: 'i', label: 'ignore case' },
  { flag: 'm', label: 'multi-line' },
  { flag: 's', label: 'dot matches newline' },
  { flag: 'u', label: 'strict Unicode' },
  { flag: 'x', label: 'verbose' },
] as const;

/**
 * `flags` with `flag` switched on or off; the toggled flags in the toggles' order, then any other letters as they were.
 *
 * @example
 *   toggleFlag('i', 'm') // 'im'
 *   toggleFlag('mi', 'i') // 'm'
 */
export function toggleFlag(flags: string, flag: string): string {
  const on = !flags.includes(flag);
  const known = REGEX_FLAGS.map((f) => f.flag).filter((f) => (f === flag ? on : flags.includes(f)));
  const others = Array.from(flags).filter((c) => !REGEX_FLAGS.some((f) => f.flag === c));
  return known.join('') + others.join('');
}
