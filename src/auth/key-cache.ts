import { andThen } from '../maybe-promise.js';
import { KEY_CHANGES_CHANNEL, type ApiKeyRecord, type KeyStore, type PubSub } from '../storage/types.js';

/**
 * How long a looked-up key is trusted before the store is asked again. Revocations and rotations
 * reach every instance's cache at once through the store's pubsub; this bounds how long a key stays
 * usable on an instance that missed that message (a subscriber connection lost at that moment).
 */
export const KEY_CACHE_TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;

/** A key store with a cache, and the end of its subscription to key changes. */
export type CachedKeyStore = KeyStore & { close(): Promise<void> };

/**
 * A key store that remembers found keys for a short while, so authenticating a request costs no
 * store round trip (a network hop on Redis). Only hits are cached, never misses. The store announces
 * every revocation and rotation (KEY_CHANGES_CHANNEL), through whichever instance or CLI it was
 * made on a shared store; each cache drops that key on receipt, and as a backstop after
 * {@link KEY_CACHE_TTL_MS}. Resolves once subscribed, so nothing is cached unheard.
 *
 * @example
 *   const keys = await withKeyCache(store.keys, Date.now, store.pubsub);
 *   // … at shutdown: await keys.close();
 */
export async function withKeyCache(keys: KeyStore, now: () => number, pubsub: PubSub): Promise<CachedKeyStore> {
  const byDigest = new Map<string, { record: ApiKeyRecord; until: number }>();
  // Counts the keys forgotten: a lookup that was under way meanwhile may hold a record read before
  // the change, so its answer is not cached.
  let changes = 0;
  const forget = (id: string) => {
    changes++;
    for (const [digest, entry] of byDigest) if (entry.record.id === id) byDigest.delete(digest);
  };
  const unsubscribe = await pubsub.subscribe(KEY_CHANGES_CHANNEL, forget);
  return {
    ...keys,
    // A hit answers synchronously: no promise on the per-request path.
    findKeyByDigest(digest) {
      const hit = byDigest.get(digest);
      if (hit && hit.until > now()) return hit.record;
      const asked = changes;
      return andThen(keys.findKeyByDigest(digest), (record) => {
        if (!record) byDigest.delete(digest);
        else if (asked === changes) {
          if (byDigest.size >= MAX_ENTRIES) byDigest.delete(byDigest.keys().next().value!);
          byDigest.set(digest, { record, until: now() + KEY_CACHE_TTL_MS });
        }
        return record;
      });
    },
    // Forgotten before the change and after it (the store's announcement may take a moment).
    async revokeKey(id, at) {
      forget(id);
      try {
        return await keys.revokeKey(id, at);
      } finally {
        forget(id);
      }
    },
    async rotateKey(id, digest, hint) {
      forget(id);
      try {
        return await keys.rotateKey(id, digest, hint);
      } finally {
        forget(id);
      }
    },
    close: unsubscribe,
  };
}
