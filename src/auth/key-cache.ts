import { andThen } from '../maybe-promise.js';
import type { ApiKeyRecord, KeyStore } from '../storage/types.js';

/** How long a looked-up key is trusted before the store is asked again. */
export const KEY_CACHE_TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;

/**
 * A key store that remembers found keys for a short while, so authenticating a request costs no
 * store round trip (a network hop on Redis). Only hits are cached, never misses; revoking or rotating
 * through this process takes effect at once, through another process within {@link KEY_CACHE_TTL_MS}.
 *
 * @example
 *   const keys = withKeyCache(store.keys, Date.now);
 */
export function withKeyCache(keys: KeyStore, now: () => number): KeyStore {
  const byDigest = new Map<string, { record: ApiKeyRecord; until: number }>();
  const forget = (id: string) => {
    for (const [digest, entry] of byDigest) if (entry.record.id === id) byDigest.delete(digest);
  };
  return {
    ...keys,
    // A hit answers synchronously: no promise on the per-request path.
    findKeyByDigest(digest) {
      const hit = byDigest.get(digest);
      if (hit && hit.until > now()) return hit.record;
      return andThen(keys.findKeyByDigest(digest), (record) => {
        if (record) {
          if (byDigest.size >= MAX_ENTRIES) byDigest.delete(byDigest.keys().next().value!);
          byDigest.set(digest, { record, until: now() + KEY_CACHE_TTL_MS });
        } else byDigest.delete(digest);
        return record;
      });
    },
    async revokeKey(id, at) {
      forget(id);
      return keys.revokeKey(id, at);
    },
    async rotateKey(id, digest, hint) {
      forget(id);
      return keys.rotateKey(id, digest, hint);
    },
  };
}
