import type { ApiKeyRecord, KeyStore, UsageStore } from '../types.js';
import { run, type Db } from './database.js';

interface KeyRow {
  id: string;
  digest: string;
  hint: string;
  name: string;
  plan: string;
  marketplace_host: string | null;
  created_at: number;
  revoked_at: number | null;
}

function toKey(row: KeyRow | undefined): ApiKeyRecord | null {
  if (!row) return null;
  return {
    id: row.id,
    digest: row.digest,
    hint: row.hint,
    name: row.name,
    plan: row.plan,
    marketplaceHost: row.marketplace_host,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

export function createSqliteKeyStore(db: Db): KeyStore {
  const insert = db.prepare(
    `INSERT INTO api_keys (id, digest, hint, name, plan, marketplace_host, created_at, revoked_at)
     VALUES (@id, @digest, @hint, @name, @plan, @marketplaceHost, @createdAt, @revokedAt)`,
  );
  const byDigest = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE digest = ?');
  const byId = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE id = ?');
  const all = db.prepare<[], KeyRow>('SELECT * FROM api_keys ORDER BY created_at, rowid');
  const count = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM api_keys');
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const rotate = db.prepare('UPDATE api_keys SET digest = ?, hint = ? WHERE id = ? AND revoked_at IS NULL');
  return {
    createKey: (record) => run(() => void insert.run(record)),
    findKeyByDigest: (digest) => run(() => toKey(byDigest.get(digest))),
    getKey: (id) => run(() => toKey(byId.get(id))),
    listKeys: () => run(() => all.all().map((r) => toKey(r) as ApiKeyRecord)),
    countKeys: () => run(() => count.get()!.n),
    revokeKey: (id, now) => run(() => revoke.run(now, id).changes === 1),
    rotateKey: (id, digest, hint) => run(() => rotate.run(digest, hint, id).changes === 1),
  };
}

/**
 * Credits live in SQLite (they must survive restarts). Rate-limit windows are per process and
 * kept in memory: the SQLite store serves one process; the Redis store shares them.
 */
export function createSqliteUsageStore(db: Db): UsageStore {
  const reserve = db.prepare<[string, string, number, number, number | null, number, number | null]>(
    `INSERT INTO credit_usage (key_id, period, used) SELECT ?, ?, ? WHERE ? <= COALESCE(?, ?)
     ON CONFLICT (key_id, period) DO UPDATE SET used = used + excluded.used
     WHERE credit_usage.used + excluded.used <= COALESCE(?, credit_usage.used + excluded.used)`,
  );
  const used = db.prepare<[string, string], { used: number }>('SELECT used FROM credit_usage WHERE key_id = ? AND period = ?');
  const refund = db.prepare('UPDATE credit_usage SET used = MAX(0, used - ?) WHERE key_id = ? AND period = ?');
  const windows = new Map<string, { windowId: number; count: number }>();
  const usedOf = (keyId: string, period: string) => used.get(keyId, period)?.used ?? 0;
  return {
    reserveCredits: (keyId, period, cost, limit) =>
      run(() => {
        const changes = reserve.run(keyId, period, cost, cost, limit, cost, limit).changes;
        return { ok: changes === 1, used: usedOf(keyId, period) };
      }),
    refundCredits: (keyId, period, cost) =>
      run(() => {
        refund.run(cost, keyId, period);
        return usedOf(keyId, period);
      }),
    creditsUsed: (keyId, period) => run(() => usedOf(keyId, period)),
    async hitRateLimit(subject, windowId) {
      let entry = windows.get(subject);
      if (!entry || entry.windowId !== windowId) {
        if (windows.size > 100_000) {
          for (const [k, v] of windows) if (v.windowId < windowId) windows.delete(k);
        }
        entry = { windowId, count: 0 };
        windows.set(subject, entry);
      }
      entry.count += 1;
      return entry.count;
    },
  };
}
