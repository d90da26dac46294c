import type { BinRecord, BinStore, CapturedRequestRecord, CapturedRequestSummary, PageOf } from '../types.js';
import { fromFields, guard, toFields } from './connection.js';
import type { RedisContext } from './redis-context.js';

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

export function createRedisBinStore({ client, prefix, run }: RedisContext): BinStore {
  const ownerIndex = (owner: string) => `${prefix}:owner:${owner}:bins`;
  const expiryIndex = `${prefix}:expiry:bins`;
  const readBin = async (id: string): Promise<BinRecord | null> => {
    const fields = await guard(client.hgetall(binKeys(prefix, id).meta));
    return Object.keys(fields).length ? fromFields<BinRecord>(fields) : null;
  };
  const live = (bin: BinRecord | null, now: number) => (bin && bin.expiresAt > now ? bin : null);

  return {
    async createBin(bin) {
      const k = binKeys(prefix, bin.id);
      await guard(client.multi().hset(k.meta, ...toFields(bin)).pexpire(k.meta, bin.expiresAt - bin.createdAt + EXPIRY_GRACE_MS).exec());
      await guard(client.multi().zadd(ownerIndex(bin.ownerKeyId), bin.createdAt, bin.id).zadd(expiryIndex, bin.expiresAt, bin.id).exec());
    },
    getBin: async (id, now) => live(await readBin(id), now),
    async listBins(owner, page, now): Promise<PageOf<BinRecord>> {
      const ids = await guard(client.zrevrange(ownerIndex(owner), 0, -1));
      const bins = await Promise.all(ids.map(readBin));
      const gone = ids.filter((_, i) => bins[i] === null);
      if (gone.length) await guard(client.zrem(ownerIndex(owner), ...gone));
      const alive = bins.filter((b): b is BinRecord => live(b, now) !== null);
      return { total: alive.length, items: alive.slice(page.offset, page.offset + page.limit) };
    },
    async deleteBin(id) {
      const bin = await readBin(id);
      const k = binKeys(prefix, id);
      await guard(client.del(k.meta, k.order, k.reqs));
      if (!bin) return false;
      await guard(client.multi().zrem(ownerIndex(bin.ownerKeyId), id).zrem(expiryIndex, id).exec());
      return true;
    },
    async captureRequest(req, { maxRequests, now }) {
      const k = binKeys(prefix, req.binId);
      const stored: StoredRequest = { ...req, body: req.body.toString('base64'), contentLength: req.body.length };
      return run<number | null>('captureRequest', [k.meta, k.order, k.reqs], [now, maxRequests, req.id, JSON.stringify(stored), EXPIRY_GRACE_MS]);
    },
    async listRequests(binId, page) {
      const k = binKeys(prefix, binId);
      const [total, ids] = await Promise.all([guard(client.llen(k.order)), guard(client.lrange(k.order, page.offset, page.offset + page.limit - 1))]);
      const raw = ids.length ? await guard(client.hmget(k.reqs, ...ids)) : [];
      const items = raw.filter((r): r is string => r !== null).map((r) => toSummary(JSON.parse(r) as StoredRequest));
      return { total, items };
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
  };
}
