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
