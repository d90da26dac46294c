import type { UsageStore } from '../types.js';
import { run, type Db } from './database.js';
import { writeBehind } from './write-behind.js';

/** Credit usage reaches the database at most this long after a call. */
export const CREDIT_FLUSH_MS = 1_000;

interface Usage {
  used: number;
  /** Change not yet written to the database. */
  pending: number;
}

/**
 * Credits and rate limits for the single process the SQLite store serves. Usage is counted in
 * memory (JavaScript runs one call at a time, so a reservation is atomic: with one credit left,
 * exactly one of two concurrent calls gets it) and written to SQLite in one transaction at most
 * {@link CREDIT_FLUSH_MS} later and at close, instead of one write per call. A process crash can
 * forget at most that last second of usage. Rate-limit windows are in memory only.
 *
 * @example
 *   const usage = createSqliteUsageStore(db);
 *   await usage.reserveCredits('key_1', '2026-11', 1, 1000); // { ok: true, used: 1 }
 */
export function createSqliteUsageStore(db: Db): UsageStore & { flush(): void } {
  const select = db.prepare<[string, string], { used: number }>('SELECT used FROM credit_usage WHERE key_id = ? AND period = ?');
  const add = db.prepare(
    `INSERT INTO credit_usage (key_id, period, used) VALUES (?, ?, MAX(0, ?))
     ON CONFLICT (key_id, period) DO UPDATE SET used = MAX(0, used + excluded.used)`,
  );
  /** key id → period → usage */
  const usage = new Map<string, Map<string, Usage>>();
  const windows = new Map<string, { windowId: number; count: number }>();

  const entry = (keyId: string, period: string): Usage => {
    let byPeriod = usage.get(keyId);
    if (!byPeriod) usage.set(keyId, (byPeriod = new Map()));
    let u = byPeriod.get(period);
    if (!u) byPeriod.set(period, (u = { used: select.get(keyId, period)?.used ?? 0, pending: 0 }));
    return u;
  };
  const writeAll = db.transaction(() => {
    for (const [keyId, byPeriod] of usage) {
      for (const [period, u] of byPeriod) {
        if (u.pending === 0) continue;
        add.run(keyId, period, u.pending);
        u.pending = 0;
      }
    }
  });
  const { flush, changed } = writeBehind(() => {
    if (db.open) writeAll();
    // Entries of other periods (last month) are no longer needed once written.
    if (usage.size > 10_000) {
      for (const [keyId, byPeriod] of usage) if ([...byPeriod.values()].every((u) => u.pending === 0)) usage.delete(keyId);
    }
  }, CREDIT_FLUSH_MS);

  return {
    flush,
    reserveCredits: (keyId, period, cost, limit) =>
      run(() => {
        const u = entry(keyId, period);
        if (limit !== null && u.used + cost > limit) return { ok: false, used: u.used };
        u.used += cost;
        u.pending += cost;
        changed();
        return { ok: true, used: u.used };
      }),
    refundCredits: (keyId, period, cost) =>
      run(() => {
        const u = entry(keyId, period);
        const back = Math.min(cost, u.used);
        u.used -= back;
        u.pending -= back;
        changed();
        return u.used;
      }),
    creditsUsed: (keyId, period) => run(() => entry(keyId, period).used),
    async hitRateLimit(subject, windowId) {
      let w = windows.get(subject);
      if (!w || w.windowId !== windowId) {
        if (windows.size > 100_000) for (const [k, v] of windows) if (v.windowId < windowId) windows.delete(k);
        w = { windowId, count: 0 };
        windows.set(subject, w);
      }
      w.count += 1;
      return w.count;
    },
  };
}
