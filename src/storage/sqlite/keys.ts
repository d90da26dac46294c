import { KEY_CHANGES_CHANNEL, type ApiKeyRecord, type KeyStore, type PubSub } from '../types.js';
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

/** The key store; a revocation or rotation is announced on `pubsub` (in-process) once committed. */
export function createSqliteKeyStore(db: Db, pubsub: PubSub): KeyStore {
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
  const announced = (id: string) => async (changed: boolean) => {
    if (changed) await pubsub.publish(KEY_CHANGES_CHANNEL, id).catch(() => undefined);
    return changed;
  };
  return {
    createKey: (record) => run(() => void insert.run(record)),
    findKeyByDigest: (digest) => run(() => toKey(byDigest.get(digest))),
    getKey: (id) => run(() => toKey(byId.get(id))),
    listKeys: () => run(() => all.all().map((r) => toKey(r) as ApiKeyRecord)),
    countKeys: () => run(() => count.get()!.n),
    revokeKey: (id, now) => run(() => revoke.run(now, id).changes === 1).then(announced(id)),
    rotateKey: (id, digest, hint) => run(() => rotate.run(digest, hint, id).changes === 1).then(announced(id)),
  };
}
