/**
 * Whether two JSON values are the same JSON text: equal primitives, arrays of the same values,
 * objects with the same keys in the same order and the same values (iterative: deep nesting
 * costs no stack). Stops at the first difference.
 *
 * @example
 *   sameJson({ a: [1, 'x'] }, { a: [1, 'x'] }) // → true
 *   sameJson({ a: 1, b: 2 }, { b: 2, a: 1 }) // → false: their texts differ
 */
export function sameJson(a: unknown, b: unknown): boolean {
  const stack: unknown[] = [a, b];
  while (stack.length > 0) {
    const y = stack.pop();
    const x = stack.pop();
    if (x === y) continue;
    if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return false;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) stack.push(x[i], y[i]);
      continue;
    }
    if (Array.isArray(y)) return false;
    const xKeys = Object.keys(x);
    const yKeys = Object.keys(y);
    if (xKeys.length !== yKeys.length) return false;
    for (let i = 0; i < xKeys.length; i++) {
      const key = xKeys[i]!;
      if (key !== yKeys[i]) return false;
      stack.push((x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key]);
    }
  }
  return true;
}

/**
 * The last few values worked out from small JSON inputs, found again by {@link sameJson}: for a
 * request that repeats one of them, a comparison that stops at the first difference instead of
 * serializing the input to look it up by text. Each input is kept as a copy (its JSON round
 * trip), so nothing done to the request's objects afterwards changes what it matches.
 *
 * @example
 *   const recent = recentJson<string>(8);
 *   recent.remember({ type: 'string' }, 'compiled');
 *   recent.find({ type: 'string' }) // → 'compiled'
 */
export function recentJson<T>(size: number): { find(input: unknown): T | undefined; remember(input: unknown, value: T): void } {
  const entries: Array<{ input: unknown; value: T }> = [];
  return {
    find(input) {
      for (let i = 0; i < entries.length; i++) {
        const entry = entries[i]!;
        if (!sameJson(entry.input, input)) continue;
        // Most recent first, so a repeated input is found at once.
        if (i > 0) entries.unshift(...entries.splice(i, 1));
        return entry.value;
      }
      return undefined;
    },
    remember(input, value) {
      entries.unshift({ input: JSON.parse(JSON.stringify(input)) as unknown, value });
      if (entries.length > size) entries.pop();
    },
  };
}
