import { compareCodePoints } from './code-points.js';

/** Rank of each JSON type in the mixed-type order of CONTRACT §3.8. */
function rankOf(value: unknown): number {
  if (value === null) return 0;
  if (typeof value === 'boolean') return 1;
  if (typeof value === 'number') return 2;
  if (typeof value === 'string') return 3;
  return Array.isArray(value) ? 4 : 5;
}

/**
 * Canonical text of a JSON value: object keys sorted by code point, so two values are deeply
 * equal exactly when their canonical texts are equal, whatever their key order.
 *
 * @example
 *   canonicalKey({ b: 1, a: [2] }) === canonicalKey({ a: [2], b: 1 }) // true
 */
export function canonicalKey(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalKey).join(',')}]`;
  const keys = Object.keys(value).sort(compareCodePoints);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalKey((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/**
 * Total order on JSON values: null < boolean < number < string < array < object; false < true;
 * numbers numerically; strings by code point; arrays element by element (a prefix first);
 * objects by their canonical text.
 *
 * @example
 *   [3, 'a', null, true].sort(compareValues) // [null, true, 3, 'a']
 */
export function compareValues(a: unknown, b: unknown): number {
  const ra = rankOf(a);
  const rb = rankOf(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return 0;
    case 1:
    case 2:
      return a === b ? 0 : (a as number) < (b as number) ? -1 : 1;
    case 3:
      return compareCodePoints(a as string, b as string);
    case 4: {
      const x = a as unknown[];
      const y = b as unknown[];
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const c = compareValues(x[i], y[i]);
        if (c !== 0) return c;
      }
      return x.length - y.length === 0 ? 0 : x.length < y.length ? -1 : 1;
    }
    default:
      return compareCodePoints(canonicalKey(a), canonicalKey(b));
  }
}

/** Marker for "the element has no value at this key". */
export const MISSING: unique symbol = Symbol('missing');

/**
 * Value at `key` in an element: the own property named exactly `key` if there is one, else the
 * dotted path (`address.city`, `items.0.sku`: numeric segments index arrays). Only own
 * properties count, so `constructor` or `__proto__` are found only when present as data.
 *
 * @example
 *   readKey({ a: { b: 2 } }, 'a.b') // 2
 */
export function readKey(element: unknown, key: string): unknown {
  if (element !== null && typeof element === 'object' && !Array.isArray(element) && Object.hasOwn(element, key)) {
    return (element as Record<string, unknown>)[key];
  }
  let current: unknown = element;
  for (const segment of key.split('.')) {
    if (current === null || typeof current !== 'object') return MISSING;
    if (Array.isArray(current) ? !/^\d+$/.test(segment) || Number(segment) >= current.length : !Object.hasOwn(current, segment))
      return MISSING;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}
