import type { Page, PageOf } from '../types.js';
import { guard } from './connection.js';
import type { RedisContext } from './redis-context.js';

/**
 * The two indexes of an owned, expiring kind of record (bins, mocks): one sorted set per owner
 * (scored by a creation sequence shared by every process, from INCR) and one global sorted set
 * scored by expiry. Listings order by `createdAt`, newest first, and records created in the same
 * millisecond (through any processes) by that sequence, newest first: creation order. (Scored by
 * `createdAt` alone, ties fell back to the order of the random ids.) On a cluster each index and
 * each record sits in its own hash slot, so no single step may span them; instead every change is
 * a sequence of single-slot steps, ordered so an interruption in between (Redis lost, process
 * killed) leaves only entries that readers tolerate:
 *
 * - add: record (written by the caller) → expiry index → owner index. A record missing from the
 *   expiry index still vanishes by its own Redis TTL; a record is listed only once all steps ran.
 * - remove: record → owner index → expiry index. An owner entry whose record is gone is dropped by
 *   the next listing; the expiry entry goes last, so the next purge finishes an interrupted removal.
 * - purge checks each record's own expiry atomically before deleting it (an expiry score can be
 *   stale when an update failed half-way) and re-scores entries whose record is still live.
 *
 * The expiry index is one key (one slot): it is written when a record is created, changed or
 * removed, never per capture or hit, so it is not a hot spot worth sharding.
 */
export interface RecordIndexes {
  /** Index a record the caller has just written. */
  add(record: { id: string; ownerKeyId: string; createdAt: number; expiresAt: number }): Promise<void>;
  /** Record a new expiry for an indexed record. */
  reschedule(id: string, expiresAt: number): Promise<void>;
  /** The owner's records that are still live, newest first, paged; drops entries whose record is gone. */
  list<T extends { createdAt: number; expiresAt: number }>(
    owner: string,
    page: Page,
    now: number,
    read: (id: string) => Promise<T | null>,
  ): Promise<PageOf<T>>;
  /** Delete a record's keys (its hash first), then its index entries; false when there was no record. */
  remove(id: string, keys: string[]): Promise<boolean>;
  /** Delete every record whose expiry has passed at `now`; returns how many index entries were settled. */
  purge(now: number, keysOf: (id: string) => string[]): Promise<number>;
}

const PURGE_BATCH = 500;

export function createRecordIndexes({ client, prefix, run }: RedisContext, kind: 'bins' | 'mocks'): RecordIndexes {
  const ownerIndex = (owner: string) => `${prefix}:owner:${owner}:${kind}`;
  const expiryIndex = `${prefix}:expiry:${kind}`;
  const creationSeq = `${prefix}:seq:${kind}`;

  /** Runs `removeRecord`; with `now`, only when the record has expired (else it is re-scored). */
  async function removeRecord(id: string, keys: string[], now = -1): Promise<'removed' | 'absent' | 'live'> {
    const [state, value] = await run<[number, string?]>('removeRecord', keys, [now]);
    if (state === 0) {
      await guard(client.zadd(expiryIndex, 'XX', Number(value), id));
      return 'live';
    }
    if (state === 1) await guard(client.zrem(ownerIndex(JSON.parse(value!) as string), id));
    await guard(client.zrem(expiryIndex, id));
    return state === 1 ? 'removed' : 'absent';
  }

  return {
    async add(record) {
      await guard(client.zadd(expiryIndex, record.expiresAt, record.id));
      const seq = await guard(client.incr(creationSeq));
      await guard(client.zadd(ownerIndex(record.ownerKeyId), seq, record.id));
    },
    async reschedule(id, expiresAt) {
      await guard(client.zadd(expiryIndex, expiresAt, id));
    },
    async list(owner, page, now, read) {
      // Newest created first; then a stable sort by timestamp keeps creation order among equal ones.
      // (An entry written before the sequence existed is scored by its createdAt: it still sorts by
      // its timestamp, and only ties with newer entries come out in another order.)
      const ids = await guard(client.zrevrange(ownerIndex(owner), 0, -1));
      const records = await Promise.all(ids.map(read));
      const gone = ids.filter((_, i) => records[i] === null);
      if (gone.length) await guard(client.zrem(ownerIndex(owner), ...gone));
      const alive = records.filter((r): r is NonNullable<typeof r> => r !== null && r.expiresAt > now);
      alive.sort((a, b) => b.createdAt - a.createdAt);
      return { total: alive.length, items: alive.slice(page.offset, page.offset + page.limit) };
    },
    remove: async (id, keys) => (await removeRecord(id, keys)) === 'removed',
    async purge(now, keysOf) {
      let settled = 0;
      for (;;) {
        const ids = await guard(client.zrangebyscore(expiryIndex, '-inf', now, 'LIMIT', 0, PURGE_BATCH));
        for (const id of ids) if ((await removeRecord(id, keysOf(id), now)) !== 'live') settled++;
        if (ids.length < PURGE_BATCH) return settled;
      }
    },
  };
}
