/**
 * Strings by Unicode code point (not UTF-16 unit: U+1F600 sorts after U+FFFD).
 *
 * @example
 *   compareCodePoints('\u{1F600}', '\uFFFD') // 1
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}
