// Where a JMESPath error points: the API's `(at position N)` (code points), turned into the string
// index of the input and into a short window of the expression with a caret under the character.

/**
 * The 0-based code-point position an `invalid_expression` detail names, or null when it names none.
 *
 * @example
 *   errorPositionOf('Invalid JMESPath expression: Syntax error: expected Rbracket, got: EOF (at position 7).') // 7
 */
export function errorPositionOf(detail: string): number | null {
  const all = [...detail.matchAll(/\(at position (\d+)\)/g)];
  return all.length === 0 ? null : Number(all[all.length - 1][1]);
}

/**
 * The string index (UTF-16 units) of the code point at `position` in `text` (its length beyond the end).
 *
 * @example
 *   unitIndexOf('😀a', 1) // 2
 */
export function unitIndexOf(text: string, position: number): number {
  let unit = 0;
  for (let cp = 0; cp < position && unit < text.length; cp++) unit += (text.codePointAt(unit) ?? 0) > 0xffff ? 2 : 1;
  return unit;
}

export interface CaretWindow {
  /** The shown text before the character at fault, starting with `…` when the expression is cut. */
  before: string;
  /** The character at fault; a space at the end of the expression (a missing token). */
  at: string;
  /** The shown text after it, ending with `…` when cut. */
  after: string;
  /** How many characters precede the caret on its line: the code points of `before`. */
  column: number;
}

/**
 * The part of `expression` around `position` (code points) that fits `width` characters, the character at
 * fault apart, so that a caret line of `column` spaces and `^` points at it in a monospace font.
 *
 * @example
 *   caretWindow('a ~ b', 2) // { before: 'a ', at: '~', after: ' b', column: 2 }
 */
export function caretWindow(expression: string, position: number, width = 48): CaretWindow {
  const chars = Array.from(expression);
  const at = Math.min(Math.max(position, 0), chars.length);
  const start = Math.max(0, Math.min(at - Math.floor(width / 2), chars.length - width));
  const end = Math.min(chars.length, start + width);
  const before = (start > 0 ? '…' : '') + chars.slice(start, at).join('');
  const after = chars.slice(at + 1, end).join('') + (end < chars.length ? '…' : '');
  return { before, at: chars[at] ?? ' ', after, column: Array.from(before).length };
}
