import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANNOUNCEMENT_WAIT_MS, KEY_CACHE_TTL_MS, withKeyCache } from '../../src/auth/key-cache.js';
import { KEY_CHANGES_CHANNEL, type ApiKeyRecord, type KeyStore, type PubSub } from '../../src/storage/types.js';

const record: ApiKeyRecord = {
  id: 'key_1',
  digest: 'd1',
  hint: 'dk_…abcd',
  name: 'k',
  plan: 'free',
  marketplaceHost: null,
  createdAt: 0,
  revokedAt: null,
};

/** A key store that announces each change on `pubsub` after `delayMs` (never, with Infinity). */
function storeAnnouncingAfter(delayMs: number) {
  const subscribers = new Set<(message: string) => void>();
  const pubsub: PubSub = {
    publish: async () => undefined,
    subscribe: async (channel, onMessage) => {
      assert.equal(channel, KEY_CHANGES_CHANNEL);
      subscribers.add(onMessage);
      return async () => void subscribers.delete(onMessage);
    },
  };
  let revoked = false;
  const announce = (id: string) => {
    if (Number.isFinite(delayMs)) setTimeout(() => subscribers.forEach((s) => s(id)), delayMs);
  };
  const keys = {
    findKeyByDigest: async (digest: string) => (digest === record.digest && !revoked ? record : null),
    revokeKey: async (id: string) => {
      if (revoked || id !== record.id) return false;
      revoked = true;
      announce(id);
      return true;
    },
    rotateKey: async (id: string) => {
      announce(id);
      return id === record.id;
    },
  } as unknown as KeyStore;
  return { keys, pubsub };
}

describe('key cache: a change answers once its announcement is heard', () => {
  it('a revocation returns after the store announced it, not before', async () => {
    const { keys, pubsub } = storeAnnouncingAfter(150);
    const cached = await withKeyCache(keys, Date.now, pubsub);
    const started = Date.now();
    assert.equal(await cached.revokeKey(record.id, 0), true);
    const waited = Date.now() - started;
    assert.ok(waited >= 140 && waited < ANNOUNCEMENT_WAIT_MS, `returned after ${waited} ms`);
    await cached.close();
  });

  it("an announcement arriving before the change's own reply counts too; a rotation waits the same way", async () => {
    const { keys, pubsub } = storeAnnouncingAfter(0);
    const cached = await withKeyCache(keys, Date.now, pubsub);
    const started = Date.now();
    assert.equal(await cached.rotateKey(record.id, 'd2', 'dk_…efgh'), true);
    assert.ok(Date.now() - started < 100);
    await cached.close();
  });

  it('a change that did not happen does not wait; a store that never announces delays the answer by the bound only', async () => {
    const { keys, pubsub } = storeAnnouncingAfter(Infinity);
    const cached = await withKeyCache(keys, Date.now, pubsub);
    let started = Date.now();
    assert.equal(await cached.revokeKey('key_unknown', 0), false);
    assert.ok(Date.now() - started < 100);
    started = Date.now();
    assert.equal(await cached.revokeKey(record.id, 0), true);
    const waited = Date.now() - started;
    assert.ok(waited >= ANNOUNCEMENT_WAIT_MS - 10 && waited < ANNOUNCEMENT_WAIT_MS + 500, `returned after ${waited} ms`);
    await cached.close();
  });
});

describe('key cache: what it answers without asking the store', () => {
  it('a key is cached once looked up, until a change to it is announced or its time is up', async () => {
    const { keys, pubsub } = storeAnnouncingAfter(0);
    let clock = 1_000;
    const cached = await withKeyCache(keys, () => clock, pubsub);
    assert.equal(cached.cached(record.digest), undefined, 'nothing before the first lookup');
    assert.deepEqual(await cached.findKeyByDigest(record.digest), record);
    assert.deepEqual(cached.cached(record.digest), record);
    assert.equal(await cached.findKeyByDigest('d_unknown'), null);
    assert.equal(cached.cached('d_unknown'), undefined, 'a miss is not cached');
    clock += KEY_CACHE_TTL_MS - 1;
    assert.deepEqual(cached.cached(record.digest), record, `still cached ${KEY_CACHE_TTL_MS - 1} ms later`);
    clock += 1;
    assert.equal(cached.cached(record.digest), undefined, `gone after ${KEY_CACHE_TTL_MS} ms`);
    await cached.findKeyByDigest(record.digest);
    assert.deepEqual(cached.cached(record.digest), record);
    // Revoked through another instance: only the store's announcement tells this cache.
    assert.equal(await keys.revokeKey(record.id, clock), true);
    assert.deepEqual(cached.cached(record.digest), record, 'not yet announced');
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(cached.cached(record.digest), undefined, 'gone once its revocation is heard');
    await cached.close();
  });
});
