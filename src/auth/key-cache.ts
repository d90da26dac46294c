import { KEY_CHANGES_CHANNEL, type ApiKeyRecord, type KeyStore, type PubSub } from '../storage/types.js';

/**
 * How long a looked-up key is trusted before the store is asked again. Revocations and rotations
 * reach every instance's cache at once through the store's pubsub; this bounds how long a key stays
 * usable on an instance that missed that message (a subscriber connection lost at that moment).
 */
export const KEY_CACHE_TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;
/** Longest a revocation or rotation waits to hear its own announcement before it answers anyway. */
export const ANNOUNCEMENT_WAIT_MS = 1_000;

/** A key store with a cache, and the end of its subscription to key changes. */
export type CachedKeyStore = KeyStore & {
  /** The key record of `digest` when a fresh copy is cached, without asking the store; else undefined. */
  cached(digest: string): ApiKeyRecord | undefined;
  close(): Promise<void>;
};

/**
 * A key store that remembers found keys for a short while, so authenticating a request costs no
 * store round trip (a network hop on Redis). Only hits are cached, never misses. The store announces
 * every revocation and rotation (KEY_CHANGES_CHANNEL), through whichever instance or CLI it was
 * made on a shared store; each cache drops that key on receipt, and as a backstop after
 * {@link KEY_CACHE_TTL_MS}. Resolves once subscribed, so nothing is cached unheard.
 *
 * A revocation or rotation made through this store returns once this process has heard the
 * store's announcement of it (at most {@link ANNOUNCEMENT_WAIT_MS} later). Redis writes a message to
 * every subscriber in the same pass, so the other instances' copies are then under way too, not
 * still queued behind the answer: a client told "revoked" that calls another instance at once was
 * seen to get a 200 there, on a loaded machine, when the answer did not wait.
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
  /** Who waits to hear the announcement of a key's change, by key id. */
  const listeners = new Map<string, Set<() => void>>();
  const heard = (id: string) => {
    forget(id);
    const waiting = listeners.get(id);
    listeners.delete(id);
    for (const done of waiting ?? []) done();
  };
  /** Listen for `id`'s announcement before making the change (it may arrive before the change's own reply). */
  const expectAnnouncement = (id: string) => {
    let done!: () => void;
    const arrived = new Promise<void>((resolve) => (done = resolve));
    let set = listeners.get(id);
    if (!set) listeners.set(id, (set = new Set()));
    set.add(done);
    const stop = () => {
      set.delete(done);
      if (set.size === 0 && listeners.get(id) === set) listeners.delete(id);
    };
    const heardOrTimedOut = () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ANNOUNCEMENT_WAIT_MS);
        void arrived.then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    return { heardOrTimedOut, stop };
  };
  /** Make a change: the key forgotten before and after it, the answer given once its announcement is heard. */
  const change = async (id: string, make: () => Promise<boolean>) => {
    forget(id);
    const announcement = expectAnnouncement(id);
    try {
      const changed = await make();
      if (changed) await announcement.heardOrTimedOut();
      return changed;
    } finally {
      announcement.stop();
      forget(id);
    }
  };
  const unsubscribe = await pubsub.subscribe(KEY_CHANGES_CHANNEL, heard);
  const cached = (digest: string) => {
    const hit = byDigest.get(digest);
    return hit && hit.until > now() ? hit.record : undefined;
  };
  return {
    ...keys,
    cached,
    async findKeyByDigest(digest) {
      const hit = cached(digest);
      if (hit) return hit;
      const asked = changes;
      const record = await keys.findKeyByDigest(digest);
      if (!record) byDigest.delete(digest);
      else if (asked === changes) {
        if (byDigest.size >= MAX_ENTRIES) byDigest.delete(byDigest.keys().next().value!);
        byDigest.set(digest, { record, until: now() + KEY_CACHE_TTL_MS });
      }
      return record;
    },
    revokeKey: (id, at) => change(id, () => keys.revokeKey(id, at)),
    rotateKey: (id, digest, hint) => change(id, () => keys.rotateKey(id, digest, hint)),
    close: unsubscribe,
  };
}
