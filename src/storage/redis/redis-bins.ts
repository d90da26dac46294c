import { DevutilError } from '../../errors.js';
import { isIdOfScope, MAX_ID_SEQUENCE, sequencedIdTail, sequenceOfId } from '../../lib/ids.js';
import type { BinRecord, BinStore, CapturedRequestRecord, CapturedRequestSummary, PageOf } from '../types.js';
import { fromFields, guard, toFields } from './connection.js';
import type { RedisContext } from './redis-context.js';
import { createRecordIndexes } from './record-indexes.js';
import { redisChannel } from './redis-pubsub.js';

/** Redis keeps data this long past its logical expiry; reads check expiry themselves. */
export const EXPIRY_GRACE_MS = 60_000;

type StoredRequest = Omit<CapturedRequestRecord, 'body'> & { body: string; contentLength: number };

/** The keys of one bin share the hash tag `{bin:<id>}`: a capture is one single-slot script. */
export function binKeys(prefix: string, id: string) {
  const tag = `${prefix}:{bin:${id}}`;
  return { meta: `${tag}:meta`, order: `${tag}:order`, reqs: `${tag}:reqs` };
}

function toSummary(r: StoredRequest): CapturedRequestSummary {
  const { headers: _h, body: _b, ...summary } = r;
  return summary;
}

/** The bin store, plus the purge of expired bins the store-wide purge calls. */
export function createRedisBinStore(ctx: RedisContext): BinStore & { purgeExpired(now: number): Promise<number> } {
  const { client, prefix, run } = ctx;
  const indexes = createRecordIndexes(ctx, 'bins');
  const allKeys = (id: string) => {
    const k = binKeys(prefix, id);
    return [k.meta, k.order, k.reqs];
  };
  const readBin = async (id: string): Promise<BinRecord | null> => {
    const fields = await guard(client.hgetall(binKeys(prefix, id).meta));
    return Object.keys(fields).length ? fromFields<BinRecord>(fields) : null;
  };
  const live = (bin: BinRecord | null, now: number) => (bin && bin.expiresAt > now ? bin : null);

  return {
    async createBin(bin) {
      const k = binKeys(prefix, bin.id);
      await guard(
        client
          .multi()
          .hset(k.meta, ...toFields(bin))
          .pexpire(k.meta, bin.expiresAt - bin.createdAt + EXPIRY_GRACE_MS)
          .exec(),
      );
      await indexes.add(bin);
    },
    getBin: async (id, now) => live(await readBin(id), now),
    listBins: (owner, page, now): Promise<PageOf<BinRecord>> => indexes.list(owner, page, now, readBin),
    deleteBin: (id) => indexes.remove(id, allKeys(id)),
    async captureRequest(req, { maxRequests, now, announce }) {
      const k = binKeys(prefix, req.binId);
      // Ids carry the bin's count, as SQLite's do, so a stream resuming after an evicted id still places it (a capture
      // time could not: processes' clocks differ). Only the script knows the count: it replaces the placeholder.
      const random = sequencedIdTail(req.binId);
      const placeholder = `req_~~~~~~${random}`;
      const stored: StoredRequest = { id: placeholder, ...req, body: req.body.toString('base64'), contentLength: req.body.length };
      const args = [now, maxRequests, placeholder, random, JSON.stringify(stored), EXPIRY_GRACE_MS];
      // The script publishes the announcement itself: publish order is then capture order across processes.
      if (announce) args.push(redisChannel(prefix, announce.channel), announce.message(placeholder));
      const captured = await run<[number, string] | -1 | null>('captureRequest', [k.meta, k.order, k.reqs], args);
      if (captured === -1) {
        throw new DevutilError(
          'storage_unavailable',
          `Bin ${req.binId} has taken the most captures one bin can hold (${MAX_ID_SEQUENCE}); create a new bin.`,
        );
      }
      return captured === null ? null : { count: captured[0], id: captured[1] };
    },
    async listRequests(binId, page) {
      const k = binKeys(prefix, binId);
      const [total, ...raw] = await run<[number, ...(string | null)[]]>(
        'listRequests',
        [k.order, k.reqs],
        [page.offset, page.offset + page.limit - 1],
      );
      const items = raw.filter((r): r is string => r !== null).map((r) => toSummary(JSON.parse(r) as StoredRequest));
      return { total, items };
    },
    async listRequestsAfter(binId, afterId, limit) {
      const k = binKeys(prefix, binId);
      const seq = sequenceOfId('req_', afterId);
      // A number no kept request holds any more is placed only for an id whose tag is this bin's.
      if (seq !== null && !isIdOfScope('req_', afterId, binId)) return null;
      const raw = await run<(string | null)[] | null>('requestsAfter', [k.meta, k.order, k.reqs], [afterId, seq ?? -1, limit]);
      if (raw === null) return null;
      return raw
        .filter((r): r is string => r !== null)
        .reverse()
        .map((r) => toSummary(JSON.parse(r) as StoredRequest));
    },
    async getRequest(binId, requestId) {
      const raw = await guard(client.hget(binKeys(prefix, binId).reqs, requestId));
      if (!raw) return null;
      const { body, contentLength: _n, ...rest } = JSON.parse(raw) as StoredRequest;
      return { ...rest, body: Buffer.from(body, 'base64') };
    },
    clearRequests: (binId) => {
      const k = binKeys(prefix, binId);
      return run<number>('clearRequests', [k.order, k.reqs], []);
    },
    purgeExpired: (now) => indexes.purge(now, allKeys),
  };
}
