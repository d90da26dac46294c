/** Size and lifetime bounds of the answer cache. */
export interface TtlCacheOptions {
  /** Most entries kept; the least recently used one is dropped first. */
  maxEntries: number;
  /** Shortest and longest time an answer is kept, whatever its TTL says (seconds). */
  minTtlSeconds: number;
  maxTtlSeconds: number;
  /** Epoch milliseconds (tests pass a controllable clock). */
  now: () => number;
}

interface Entry<V> {
  value: V;
  expiresAt: number;
}

/** A bounded least-recently-used map whose entries expire after their (clamped) TTL. */
export interface TtlCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V, ttlSeconds: number): void;
  readonly size: number;
}

/**
 * Create a TTL-honouring LRU cache. A `Map` keeps insertion order, so re-inserting on every hit
 * makes its first key the least recently used one.
 *
 * @example
 *   const cache = createTtlCache<string[]>({ maxEntries: 10_000, minTtlSeconds: 1, maxTtlSeconds: 3600, now: Date.now });
 *   cache.set('A:example.com', ['93.184.215.14'], 300);
 *   cache.get('A:example.com'); // ['93.184.215.14'] for the next 300 s
 */
export function createTtlCache<V>(options: TtlCacheOptions): TtlCache<V> {
  const entries = new Map<string, Entry<V>>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (entry.expiresAt <= options.now()) return undefined;
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value, ttlSeconds) {
      const ttl = Math.min(options.maxTtlSeconds, Math.max(options.minTtlSeconds, ttlSeconds));
      entries.delete(key);
      entries.set(key, { value, expiresAt: options.now() + ttl * 1000 });
      while (entries.size > options.maxEntries) entries.delete(entries.keys().next().value as string);
    },
    get size() {
      return entries.size;
    },
  };
}
