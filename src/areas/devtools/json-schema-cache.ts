/** A bounded LRU of compilations in flight or done, keyed by everything that shapes them. */
export interface CompileCache<T> {
  /** The cached compilation of `key`, or `compile()` run (one at a time across the cache) and kept. */
  get(key: string, compile: () => Promise<T>): Promise<T>;
  /** Compilations started so far, and entries held. */
  stats(): { compiles: number; cached: number };
}

/** A compilation, in flight or done. */
interface Entry<T> {
  compiled: Promise<T>;
  /** Length of the key, counted against the byte bound. */
  bytes: number;
}

/**
 * An LRU bounded by entry count and by the total length of the keys (the keys hold the schema
 * text, so this bounds memory too). A failed compilation is dropped, not cached, and evicts
 * nothing: room is made when a compilation succeeds (so compilations in flight may hold the cache
 * over its bounds by their own number until then). Compilations run one at a time: the
 * validator's schema registry is global.
 *
 * @example
 *   const cache = createCompileCache<number>({ entries: 100, bytes: 1 << 20 });
 *   await cache.get('k', async () => 42); // compiles
 *   await cache.get('k', async () => 0); // → 42 from the cache
 */
export function createCompileCache<T>(limits: { entries: number; bytes: number }): CompileCache<T> {
  const entries = new Map<string, Entry<T>>();
  let bytes = 0;
  let compiles = 0;
  /** The key set last: the newest in the map's order. */
  let newest: string | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  function exclusive(task: () => Promise<T>): Promise<T> {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  }

  function remove(key: string): void {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  }

  return {
    get(key, compile) {
      const hit = entries.get(key);
      if (hit) {
        // Moved to the newest place, unless it is there already (a schema repeated request after request).
        if (key !== newest) {
          entries.delete(key);
          entries.set(key, hit);
          newest = key;
        }
        return hit.compiled;
      }
      compiles++;
      const entry: Entry<T> = { compiled: exclusive(compile), bytes: key.length };
      entries.set(key, entry);
      newest = key;
      bytes += entry.bytes;
      entry.compiled.then(
        () => {
          // Room is made once a compilation has succeeded: a schema that fails to compile (it is
          // dropped) never pushes a working one out of a full cache.
          while (entries.size > limits.entries || bytes > limits.bytes) remove(entries.keys().next().value!);
        },
        () => {
          if (entries.get(key) === entry) remove(key);
        },
      );
      return entry.compiled;
    },
    stats: () => ({ compiles, cached: entries.size }),
  };
}
