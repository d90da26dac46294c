import type { MockRecord, MockStore } from '../types.js';
import { fromFields, guard, toFields } from './connection.js';
import type { RedisContext } from './redis-context.js';
import { EXPIRY_GRACE_MS } from './redis-bins.js';
import { createRecordIndexes } from './record-indexes.js';

/** One hash per mock (hash tag `{mock:<id>}`), each field the JSON of one property. */
export function mockKey(prefix: string, id: string): string {
  return `${prefix}:{mock:${id}}`;
}

/** The mock store, plus the purge of expired mocks the store-wide purge calls. */
export function createRedisMockStore(ctx: RedisContext): MockStore & { purgeExpired(now: number): Promise<number> } {
  const { client, prefix, run } = ctx;
  const indexes = createRecordIndexes(ctx, 'mocks');
  const read = async (id: string): Promise<MockRecord | null> => {
    const fields = await guard(client.hgetall(mockKey(prefix, id)));
    return Object.keys(fields).length ? fromFields<MockRecord>(fields) : null;
  };
  const live = (m: MockRecord | null, now: number) => (m && m.expiresAt > now ? m : null);
  return {
    async createMock(mock) {
      const key = mockKey(prefix, mock.id);
      await guard(
        client
          .multi()
          .hset(key, ...toFields(mock))
          .pexpire(key, mock.expiresAt - mock.createdAt + EXPIRY_GRACE_MS)
          .exec(),
      );
      await indexes.add(mock);
    },
    getMock: async (id, now) => live(await read(id), now),
    listMocks: (owner, page, now) => indexes.list(owner, page, now, read),
    async updateMock(id, patch, now) {
      // The record and its TTL change together; the expiry index follows (purge re-checks it).
      const ttl = patch.expiresAt === undefined ? -1 : patch.expiresAt - now + EXPIRY_GRACE_MS;
      if ((await run<number>('updateMock', [mockKey(prefix, id)], [now, ttl, ...toFields(patch)])) !== 1) return null;
      if (patch.expiresAt !== undefined) await indexes.reschedule(id, patch.expiresAt);
      return read(id);
    },
    deleteMock: (id) => indexes.remove(id, [mockKey(prefix, id)]),
    recordMockHit: (id, now) => run<number | null>('recordMockHit', [mockKey(prefix, id)], [now]),
    purgeExpired: (now) => indexes.purge(now, (id) => [mockKey(prefix, id)]),
  };
}
