import type { MockRecord, MockStore } from '../types.js';
import { fromFields, guard, toFields } from './connection.js';
import type { RedisContext } from './redis-context.js';
import { EXPIRY_GRACE_MS } from './redis-bins.js';

/** One hash per mock (hash tag `{mock:<id>}`), each field the JSON of one property. */
export function mockKey(prefix: string, id: string): string {
  return `${prefix}:{mock:${id}}`;
}

export function createRedisMockStore({ client, prefix, run }: RedisContext): MockStore {
  const ownerIndex = (owner: string) => `${prefix}:owner:${owner}:mocks`;
  const expiryIndex = `${prefix}:expiry:mocks`;
  const read = async (id: string): Promise<MockRecord | null> => {
    const fields = await guard(client.hgetall(mockKey(prefix, id)));
    return Object.keys(fields).length ? fromFields<MockRecord>(fields) : null;
  };
  const live = (m: MockRecord | null, now: number) => (m && m.expiresAt > now ? m : null);
  return {
    async createMock(mock) {
      const key = mockKey(prefix, mock.id);
      await guard(client.multi().hset(key, ...toFields(mock)).pexpire(key, mock.expiresAt - mock.createdAt + EXPIRY_GRACE_MS).exec());
      await guard(client.multi().zadd(ownerIndex(mock.ownerKeyId), mock.createdAt, mock.id).zadd(expiryIndex, mock.expiresAt, mock.id).exec());
    },
    getMock: async (id, now) => live(await read(id), now),
    async listMocks(owner, page, now) {
      const ids = await guard(client.zrevrange(ownerIndex(owner), 0, -1));
      const mocks = await Promise.all(ids.map(read));
      const gone = ids.filter((_, i) => mocks[i] === null);
      if (gone.length) await guard(client.zrem(ownerIndex(owner), ...gone));
      const alive = mocks.filter((m): m is MockRecord => live(m, now) !== null);
      return { total: alive.length, items: alive.slice(page.offset, page.offset + page.limit) };
    },
    async updateMock(id, patch, now) {
      const key = mockKey(prefix, id);
      if ((await run<number>('updateMock', [key], [now, ...toFields(patch)])) !== 1) return null;
      if (patch.expiresAt !== undefined) {
        await guard(client.multi().pexpire(key, patch.expiresAt - now + EXPIRY_GRACE_MS).zadd(expiryIndex, patch.expiresAt, id).exec());
      }
      return read(id);
    },
    async deleteMock(id) {
      const mock = await read(id);
      await guard(client.del(mockKey(prefix, id)));
      if (!mock) return false;
      await guard(client.multi().zrem(ownerIndex(mock.ownerKeyId), id).zrem(expiryIndex, id).exec());
      return true;
    },
    recordMockHit: (id, now) => run<number | null>('recordMockHit', [mockKey(prefix, id)], [now]),
  };
}
