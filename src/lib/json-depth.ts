/** Deepest JSON the service reads (CONTRACT §0: deeper request bodies are a 422), from a body or from inside a field (a JWT segment, a JWK in text). */
export const MAX_JSON_DEPTH = 1000;

/**
 * Deepest nesting of arrays/objects in JSON text, scanning outside strings only. Stops early
 * once `limit` is passed, so hostile input costs one linear pass at most.
 */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) max = depth;
      if (max > limit) return max;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/**
 * Deepest nesting of arrays and objects in a value (a parsed body, a compiled expression's tree),
 * without recursion, so a value too deep for the call stack is measured too; stops once past `limit`.
 *
 * @example
 *   valueDepth({ a: [1, { b: 2 }] }) // 3
 */
export function valueDepth(value: unknown, limit = Number.MAX_SAFE_INTEGER): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > max) max = depth;
    if (max > limit) return max;
    for (const child of Array.isArray(item) ? item : Object.values(item))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return max;
}
