import { KEY_CHANGES_CHANNEL, type ApiKeyRecord, type KeyStore, type UsageStore } from '../types.js';
import { fromFields, guard, toFields } from './connection.js';
import type { RedisContext } from './redis-context.js';
import { redisChannel } from './redis-pubsub.js';

/**
 * Keys live under one hash tag (`{keys}`) so rotation can move the digest index atomically. A
 * revocation or rotation publishes the key id on KEY_CHANGES_CHANNEL from its own script.
 */
export function createRedisKeyStore({ client, prefix, run }: RedisContext): KeyStore {
  const keyHash = (id: string) => `${prefix}:{keys}:key:${id}`;
  const digestPrefix = `${prefix}:{keys}:digest:`;
  const index = `${prefix}:{keys}:all`;
  const changes = redisChannel(prefix, KEY_CHANGES_CHANNEL);
  const read = async (id: string | null) => {
    if (!id) return null;
    const fields = await guard(client.hgetall(keyHash(id)));
    return Object.keys(fields).length ? fromFields<ApiKeyRecord>(fields) : null;
  };
  return {
    async createKey(record) {
      await guard(
        client
          .multi()
          .hset(keyHash(record.id), ...toFields(record))
          .set(digestPrefix + record.digest, record.id)
          .zadd(index, record.createdAt, record.id)
          .exec(),
      );
    },
    async findKeyByDigest(digest) {
      return read(await guard(client.get(digestPrefix + digest)));
    },
    getKey: (id) => read(id),
    async listKeys() {
      const ids = await guard(client.zrange(index, 0, -1));
      return (await Promise.all(ids.map((id) => read(id)))).filter((k): k is ApiKeyRecord => k !== null);
    },
    countKeys: () => guard(client.zcard(index)),
    // Both scripts publish the key's id on the key-changes channel when they change the key.
    revokeKey: async (id, now) => (await run<number>('revokeKey', [keyHash(id)], [now, changes, id])) === 1,
    rotateKey: async (id, digest, hint) =>
      (await run<number>('rotateKey', [keyHash(id)], [digestPrefix, JSON.stringify(digest), JSON.stringify(hint), digest, changes])) === 1,
  };
}

/** Credits and rate-limit windows shared by every process (atomic Lua scripts). */
export function createRedisUsageStore({ prefix, run, client }: RedisContext): UsageStore {
  const credits = (keyId: string, period: string) => `${prefix}:{credits:${keyId}}:${period}`;
  const CREDIT_TTL_S = 62 * 24 * 3600;
  return {
    async reserveCredits(keyId, period, cost, limit) {
      const [ok, used] = await run<[number, number]>('reserveCredits', [credits(keyId, period)], [cost, limit ?? -1, CREDIT_TTL_S]);
      return { ok: ok === 1, used };
    },
    refundCredits: (keyId, period, cost) => run<number>('refundCredits', [credits(keyId, period)], [cost]),
    creditsUsed: async (keyId, period) => Number((await guard(client.get(credits(keyId, period)))) ?? 0),
    hitRateLimit: (subject, windowId, windowMs) => run<number>('hitRateLimit', [`${prefix}:rate:${subject}:${windowId}`], [windowMs * 2]),
  };
}
