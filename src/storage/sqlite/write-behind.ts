import { run } from './database.js';

/** A write that runs a while after the first change asks for it, or at once when flushed. */
export interface WriteBehind {
  /** Something changed: the write runs within the delay (a pending one is not pushed back). */
  changed(): void;
  /** Run the write now (before a read that must see it, at close); a pending timer is dropped. */
  flush(): void;
}

/**
 * Counters kept in memory (credit usage, mock hits) reach SQLite through this: one write at most
 * `delayMs` after the first change, instead of one per change. A write the timer runs that fails
 * is left for the next flush (its error goes nowhere: no request is waiting on it).
 *
 * @example
 *   const hits = writeBehind(() => writeAll(), 1000);
 *   hits.changed(); // … later, before reading rows: hits.flush();
 */
export function writeBehind(write: () => void, delayMs: number): WriteBehind {
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    write();
  };
  return {
    changed() {
      timer ??= setTimeout(() => void run(flush).catch(() => undefined), delayMs).unref();
    },
    flush,
  };
}
