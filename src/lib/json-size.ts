/**
 * Characters the JSON text of `value` would take, counting up to `limit` only (iterative, so deep
 * nesting costs no stack, and stopping early, so a huge value costs no more than the limit).
 *
 * @example
 *   estimateJsonChars({ a: [1, 'x'] }, 1000) // → 20 (an upper estimate: the text is 13)
 */
export function estimateJsonChars(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && total <= limit) {
    const v = stack.pop();
    if (typeof v === 'string') total += v.length + 2;
    else if (v === null || typeof v !== 'object') total += 8;
    else if (Array.isArray(v)) {
      total += 2 + v.length;
      for (const item of v) stack.push(item);
    } else {
      for (const [key, item] of Object.entries(v)) {
        total += key.length + 4;
        stack.push(item);
      }
    }
  }
  return total;
}
