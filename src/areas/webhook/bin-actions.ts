import { DevutilError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { wellFormed } from '../../lib/well-formed.js';
import type { BinRecord, CapturedRequestRecord, CapturedRequestSummary, Page, PageOf, Store } from '../../storage/types.js';

/** Lifetime of a bin when `ttl_seconds` is omitted (CONTRACT §2.1). */
export const DEFAULT_BIN_TTL_SECONDS = 86_400;

/** Pub/sub message that tells live streams of a bin to end (the bin was deleted). */
export const BIN_CLOSED_MESSAGE = 'bin-closed';

/**
 * The pub/sub channel carrying a bin's captures (one summary JSON per message) to live streams.
 *
 * @example
 *   binChannel('bin_abc') // 'bin:bin_abc'
 */
export function binChannel(binId: string): string {
  return `bin:${binId}`;
}

export interface NewBin {
  ownerKeyId: string;
  name?: string;
  ttlSeconds?: number;
}

/**
 * Create and store a bin owned by a key.
 *
 * @example
 *   const bin = await createBin(store, { ownerKeyId: 'key_1', ttlSeconds: 3600 }, Date.now());
 */
export async function createBin(store: Store, input: NewBin, now: number): Promise<BinRecord> {
  const bin: BinRecord = {
    id: newId('bin_'),
    ownerKeyId: input.ownerKeyId,
    // A lone surrogate becomes U+FFFD, as UTF-8 storage would return it (and as mock names do).
    name: input.name === undefined ? null : wellFormed(input.name),
    createdAt: now,
    expiresAt: now + (input.ttlSeconds ?? DEFAULT_BIN_TTL_SECONDS) * 1000,
    requestCount: 0,
  };
  await store.bins.createBin(bin);
  return bin;
}

/**
 * The live bin with this id owned by this key. Unknown, expired and foreign bins are all the same
 * `not_found`, so an id owned by someone else reveals nothing.
 *
 * @example
 *   const bin = await findOwnedBin(store, 'bin_abc', 'key_1', Date.now());
 */
export async function findOwnedBin(store: Store, binId: string, ownerKeyId: string, now: number): Promise<BinRecord> {
  const bin = await store.bins.getBin(binId, now);
  if (!bin || bin.ownerKeyId !== ownerKeyId) throw new DevutilError('not_found', `No bin ${binId}.`);
  return bin;
}

/**
 * Delete an owned bin with its requests and tell its live streams to end.
 *
 * @example
 *   await deleteOwnedBin(store, 'bin_abc', 'key_1', Date.now());
 */
export async function deleteOwnedBin(store: Store, binId: string, ownerKeyId: string, now: number): Promise<void> {
  await findOwnedBin(store, binId, ownerKeyId, now);
  if (!(await store.bins.deleteBin(binId))) throw new DevutilError('not_found', `No bin ${binId}.`);
  // The bin is gone either way; a stream that misses this message ends at its next heartbeat check.
  await store.pubsub.publish(binChannel(binId), BIN_CLOSED_MESSAGE).catch(() => undefined);
}

/**
 * A page of the captured requests an owned bin retains, newest first.
 *
 * @example
 *   const page = await listCapturedRequests(store, 'bin_abc', 'key_1', { limit: 50, offset: 0 }, Date.now());
 */
export async function listCapturedRequests(
  store: Store,
  binId: string,
  ownerKeyId: string,
  page: Page,
  now: number,
): Promise<PageOf<CapturedRequestSummary>> {
  await findOwnedBin(store, binId, ownerKeyId, now);
  return store.bins.listRequests(binId, page);
}

/**
 * One captured request of an owned bin, in full; `not_found` when the bin or the request is unknown.
 *
 * @example
 *   const record = await findCapturedRequest(store, 'bin_abc', 'req_000001…', 'key_1', Date.now());
 */
export async function findCapturedRequest(
  store: Store,
  binId: string,
  requestId: string,
  ownerKeyId: string,
  now: number,
): Promise<CapturedRequestRecord> {
  await findOwnedBin(store, binId, ownerKeyId, now);
  const record = await store.bins.getRequest(binId, requestId);
  if (!record) throw new DevutilError('not_found', `No request ${requestId} in bin ${binId}.`);
  return record;
}

/**
 * Delete every captured request of an owned bin (the bin and its `request_count` stay); returns how many went.
 *
 * @example
 *   await clearCapturedRequests(store, 'bin_abc', 'key_1', Date.now()) // 12
 */
export async function clearCapturedRequests(store: Store, binId: string, ownerKeyId: string, now: number): Promise<number> {
  await findOwnedBin(store, binId, ownerKeyId, now);
  return store.bins.clearRequests(binId);
}
