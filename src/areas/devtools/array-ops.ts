import { randomInt } from 'node:crypto';
import { DevutilError } from '../../errors.js';
import { canonicalKey, compareValues, MISSING, readKey } from './array-ops-compare.js';

/** Most elements the input arrays may hold together, and most a result may hold. */
export const MAX_ELEMENTS = 100_000;

export const ARRAY_OPERATIONS = [
  'sort',
  'deduplicate',
  'intersect',
  'diff',
  'union',
  'chunk',
  'flatten',
  'compact',
  'reverse',
  'sample',
] as const;
export type ArrayOperation = (typeof ARRAY_OPERATIONS)[number];

export interface ArrayOpsOptions {
  key?: string;
  reverse?: boolean;
  size?: number;
  depth?: number;
  seed?: number;
}

export interface ArrayOpsResult {
  result: unknown[];
  operation: ArrayOperation;
  count: number;
}

function invalid(path: string, message: string): DevutilError {
  return new DevutilError('validation_error', `${path} ${message}.`, { errors: [{ path, message }] });
}

/** First occurrence of each distinct value (deep equality), in order. */
function deduplicate(items: unknown[]): unknown[] {
  const seen = new Set<string>();
  return items.filter((v) => {
    const k = canonicalKey(v);
    return seen.has(k) ? false : (seen.add(k), true);
  });
}

/** The arrays one after the other, in a new array (holes read as undefined, as the JSON input has none). */
function concatAll(arrays: unknown[][]): unknown[] {
  const out: unknown[] = [];
  for (const arr of arrays) for (let i = 0; i < arr.length; i++) out.push(arr[i]);
  return out;
}

/** Stable sort of `items` (a fresh array, sorted in place) in the mixed-type order, or by `key` with elements lacking it last (even when reversed). */
function sortItems(items: unknown[], { key, reverse }: ArrayOpsOptions): unknown[] {
  const sign = reverse ? -1 : 1;
  if (key === undefined) return items.sort((a, b) => sign * compareValues(a, b));
  const keyed: Array<{ item: unknown; value: unknown }> = [];
  for (const item of items) keyed.push({ item, value: readKey(item, key) });
  keyed.sort((a, b) => {
    if (a.value === MISSING || b.value === MISSING) return (a.value === MISSING ? 1 : 0) - (b.value === MISSING ? 1 : 0);
    return sign * compareValues(a.value, b.value);
  });
  const sorted: unknown[] = [];
  for (const k of keyed) sorted.push(k.item);
  return sorted;
}

/** Flatten `depth` levels (-1: all) without recursion, so nesting depth costs no stack. */
function flattenItems(items: unknown[], depth: number): unknown[] {
  const out: unknown[] = [];
  const stack = [{ items, index: 0, level: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.index >= top.items.length) {
      stack.pop();
      continue;
    }
    const value = top.items[top.index++];
    if (Array.isArray(value) && (depth < 0 || top.level < depth)) stack.push({ items: value, index: 0, level: top.level + 1 });
    else if (out.push(value) > MAX_ELEMENTS) throw invalid('arrays', `flatten to more than ${MAX_ELEMENTS} elements`);
  }
  return out;
}

/** Uniform integer in [0, n): seeded (mulberry32 over all 53 bits of the seed) or from node:crypto. */
function createRandom(seed: number | undefined): (n: number) => number {
  if (seed === undefined) return (n) => randomInt(n);
  let state = (Math.abs(seed) % 2 ** 32) ^ Math.imul(Math.floor(Math.abs(seed) / 2 ** 32) + (seed < 0 ? 0x9e3779b9 : 0), 0x85ebca6b);
  return (n) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * n);
  };
}

/** `size` distinct positions drawn without replacement (partial Fisher-Yates), in draw order. */
function sampleItems(items: unknown[], size: number, seed: number | undefined): unknown[] {
  const random = createRandom(seed);
  const copy = [...items];
  const take = Math.min(size, copy.length);
  for (let i = 0; i < take; i++) {
    const j = i + random(copy.length - i);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, take);
}

type Runner = (arrays: unknown[][], options: ArrayOpsOptions) => unknown[];

/** The ten operations: minimum number of input arrays and the function. */
const OPERATIONS: Record<ArrayOperation, { minArrays: number; run: Runner }> = {
  sort: { minArrays: 1, run: (a, o) => sortItems(concatAll(a), o) },
  deduplicate: { minArrays: 1, run: (a) => deduplicate(concatAll(a)) },
  union: { minArrays: 1, run: (a) => deduplicate(concatAll(a)) },
  intersect: {
    minArrays: 2,
    run: ([first, ...rest]) => {
      const others = rest.map((arr) => new Set(arr.map(canonicalKey)));
      return deduplicate(first).filter((v) => others.every((s) => s.has(canonicalKey(v))));
    },
  },
  diff: {
    minArrays: 2,
    run: ([first, ...rest]) => {
      const others = new Set(concatAll(rest).map(canonicalKey));
      return first.filter((v) => !others.has(canonicalKey(v)));
    },
  },
  chunk: {
    minArrays: 1,
    run: (a, o) => {
      if (o.size === undefined) throw invalid('options.size', 'is required for chunk');
      const items = concatAll(a);
      const size = o.size;
      return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
    },
  },
  flatten: { minArrays: 1, run: (a, o) => flattenItems(concatAll(a), o.depth ?? 1) },
  compact: { minArrays: 1, run: (a) => concatAll(a).filter((v) => v !== null && v !== '' && v !== 0 && v !== false) },
  reverse: { minArrays: 1, run: (a) => concatAll(a).reverse() },
  sample: { minArrays: 1, run: (a, o) => sampleItems(concatAll(a), o.size ?? 1, o.seed) },
};

/**
 * Apply one array operation (CONTRACT §3.8). Unary operations work on the concatenation of
 * `arrays`; equality is deep and ignores key order.
 *
 * @example
 *   runArrayOps('intersect', [[1, { a: 1, b: 2 }, 3], [{ b: 2, a: 1 }, 3]])
 *   // { result: [{ a: 1, b: 2 }, 3], operation: 'intersect', count: 2 }
 */
export function runArrayOps(operation: ArrayOperation, arrays: unknown[][], options: ArrayOpsOptions = {}): ArrayOpsResult {
  const op = Object.hasOwn(OPERATIONS, operation) ? OPERATIONS[operation] : undefined;
  if (!op) throw invalid('operation', `must be one of ${ARRAY_OPERATIONS.join(', ')}`);
  if (arrays.length < op.minArrays) throw invalid('arrays', `must hold at least ${op.minArrays} arrays for ${operation}`);
  const total = arrays.reduce((n, arr) => n + arr.length, 0);
  if (total > MAX_ELEMENTS) throw invalid('arrays', `must hold at most ${MAX_ELEMENTS} elements in total (got ${total})`);
  const result = op.run(arrays, options);
  return { result, operation, count: result.length };
}
