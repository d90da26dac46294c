import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_ID_SEQUENCE, newId, newSequencedId, sequenceOfId } from '../../src/lib/ids.js';
import {
  KEY_CHANGES_CHANNEL,
  type BinRecord,
  type CaptureOptions,
  type MockRecord,
  type NewCapture,
  type Store,
} from '../../src/storage/types.js';

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const HOUR = 3_600_000;

export function binRecord(owner: string, overrides: Partial<BinRecord> = {}): BinRecord {
  return { id: newId('bin_'), ownerKeyId: owner, name: null, createdAt: T0, expiresAt: T0 + HOUR, requestCount: 0, ...overrides };
}

export function capturedRequest(binId: string, overrides: Partial<NewCapture> = {}): NewCapture {
  return {
    binId,
    method: 'POST',
    path: `/v1/catch/${binId}/hook`,
    queryString: 'a=1&b=2',
    headers: { 'content-type': 'application/octet-stream', 'x-multi': 'a, b' },
    body: Buffer.from([0, 1, 2, 255, 254]),
    contentType: 'application/octet-stream',
    sourceIp: '127.0.0.1',
    timestamp: T0 + 1000,
    ...overrides,
  };
}

/** Capture `request`; it must be stored as the bin's `count`th request. Returns the id the store gave it. */
export async function captureId(store: Store, request: NewCapture, options: CaptureOptions, count: number): Promise<string> {
  const captured = await store.bins.captureRequest(request, options);
  assert.equal(captured?.count, count);
  return captured!.id;
}

export function mockRecord(owner: string, overrides: Partial<MockRecord> = {}): MockRecord {
  return {
    id: newId('mock_'),
    ownerKeyId: owner,
    name: 'm',
    statusCode: 201,
    contentType: 'text/plain',
    headers: { 'x-a': '1' },
    body: 'hello',
    responseBodyJson: null,
    method: null,
    path: null,
    delayMs: 0,
    createdAt: T0,
    expiresAt: T0 + HOUR,
    hitCount: 0,
    ...overrides,
  };
}

/** Resolves once `check()` holds (polling every 20 ms), or after about 5 s whatever it says. */
async function settle(check: () => boolean): Promise<void> {
  for (let i = 0; i < 250 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
}

/** Newest first, as listings answer: the reverse of the ids in the order they were stored. */
async function storedOrder(store: Store, binId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = await store.bins.listRequests(binId, { limit: 200, offset });
    ids.push(...page.items.map((r) => r.id));
    if (page.items.length < 200) return ids.reverse();
  }
}

export interface StoreSuiteOptions {
  skip?: string;
  /**
   * A second store on the same data, as another service instance would open it (Redis: another
   * connection on the same prefix). Without it the cross-instance cases run on the one store.
   */
  makePeer?: () => Promise<Store>;
}

/**
 * The one suite every store implementation must pass, unchanged. `makeStore` returns a fresh,
 * empty store (or one isolated by a key prefix).
 */
export function runStoreSuite(name: string, makeStore: () => Promise<Store>, options: StoreSuiteOptions = {}): void {
  describe(`store contract: ${name}`, { skip: options.skip }, () => {
    let store: Store;
    /** Another instance on the same data (the store itself when the implementation has no such thing). */
    let peer: Store;
    before(async () => {
      store = await makeStore();
      peer = options.makePeer ? await options.makePeer() : store;
    });
    after(async () => {
      if (peer !== store) await peer?.close();
      await store?.close();
    });
    const owner = () => newId('key_');

    it('keys: create, find by digest, list, count, rotate, revoke', async () => {
      const before = await store.keys.countKeys();
      const rec = {
        id: newId('key_'),
        digest: 'd'.repeat(64),
        hint: 'dk_abcd…',
        name: 'n',
        plan: 'free',
        marketplaceHost: null,
        createdAt: T0,
        revokedAt: null,
      };
      await store.keys.createKey(rec);
      assert.deepEqual(await store.keys.findKeyByDigest(rec.digest), rec);
      assert.deepEqual(await store.keys.getKey(rec.id), rec);
      assert.equal(await store.keys.findKeyByDigest('e'.repeat(64)), null);
      assert.equal(await store.keys.countKeys(), before + 1);
      assert.ok((await store.keys.listKeys()).some((k) => k.id === rec.id));
      assert.equal(await store.keys.rotateKey(rec.id, 'f'.repeat(64), 'dk_wxyz…'), true);
      assert.equal(await store.keys.findKeyByDigest(rec.digest), null, 'old digest gone');
      assert.equal((await store.keys.findKeyByDigest('f'.repeat(64)))?.hint, 'dk_wxyz…');
      assert.equal(await store.keys.revokeKey(rec.id, T0 + 5), true);
      assert.equal((await store.keys.getKey(rec.id))?.revokedAt, T0 + 5);
      assert.equal(await store.keys.revokeKey(rec.id, T0 + 6), false);
      assert.equal(await store.keys.rotateKey(rec.id, 'a'.repeat(64), 'x'), false, 'a revoked key cannot rotate');
      assert.equal(await store.keys.revokeKey('key_unknown', T0), false);
    });

    it('credits: reserve within the limit, refuse beyond it, refund, unlimited', async () => {
      const k = owner();
      assert.deepEqual(await store.usage.reserveCredits(k, '2026-11', 2, 3), { ok: true, used: 2 });
      assert.deepEqual(await store.usage.reserveCredits(k, '2026-11', 2, 3), { ok: false, used: 2 });
      assert.deepEqual(await store.usage.reserveCredits(k, '2026-11', 1, 3), { ok: true, used: 3 });
      assert.equal(await store.usage.refundCredits(k, '2026-11', 1), 2);
      assert.equal(await store.usage.creditsUsed(k, '2026-11'), 2);
      assert.equal(await store.usage.creditsUsed(k, '2026-12'), 0, 'periods are separate');
      assert.deepEqual(await store.usage.reserveCredits(k, '2026-12', 5, null), { ok: true, used: 5 });
      assert.deepEqual(await store.usage.reserveCredits(owner(), '2026-11', 2, 1), { ok: false, used: 0 });
    });

    it('credits: 20 concurrent reservations for 1 remaining credit, exactly one wins', async () => {
      const k = owner();
      await store.usage.reserveCredits(k, '2026-11', 9, 10);
      const results = await Promise.all(Array.from({ length: 20 }, () => store.usage.reserveCredits(k, '2026-11', 1, 10)));
      assert.equal(results.filter((r) => r.ok).length, 1);
      assert.equal(await store.usage.creditsUsed(k, '2026-11'), 10);
    });

    it('rate limits count per subject and window', async () => {
      const s = owner();
      assert.equal(await store.usage.hitRateLimit(s, 100, 60_000), 1);
      assert.equal(await store.usage.hitRateLimit(s, 100, 60_000), 2);
      assert.equal(await store.usage.hitRateLimit(owner(), 100, 60_000), 1);
      assert.equal(await store.usage.hitRateLimit(s, 101, 60_000), 1, 'a new window starts at 1');
    });

    it('bins: create, get, expiry hides, owner list newest first with paging', async () => {
      const o = owner();
      const a = binRecord(o, { createdAt: T0, name: 'first' });
      const b = binRecord(o, { createdAt: T0 + 10 });
      const c = binRecord(o, { createdAt: T0 + 20, expiresAt: T0 + 30 });
      for (const bin of [a, b, c]) await store.bins.createBin(bin);
      await store.bins.createBin(binRecord(owner()));
      assert.deepEqual(await store.bins.getBin(a.id, T0), a);
      assert.equal(await store.bins.getBin(c.id, T0 + 30), null, 'expired at expires_at');
      const all = await store.bins.listBins(o, { limit: 10, offset: 0 }, T0 + 25);
      assert.equal(all.total, 3);
      assert.deepEqual(
        all.items.map((x) => x.id),
        [c.id, b.id, a.id],
      );
      const later = await store.bins.listBins(o, { limit: 1, offset: 1 }, T0 + 40);
      assert.equal(later.total, 2);
      assert.deepEqual(
        later.items.map((x) => x.id),
        [a.id],
      );
      assert.equal(await store.bins.getBin('bin_nope', T0), null);
    });

    it('captures: stored byte-exact, counted, listed newest first, read back, cleared', async () => {
      const bin = binRecord(owner());
      await store.bins.createBin(bin);
      const first = capturedRequest(bin.id, { timestamp: T0 + 1 });
      const second = capturedRequest(bin.id, { timestamp: T0 + 1, method: 'PURGE', body: Buffer.from('{"a":1}'), contentType: '' });
      const firstId = await captureId(store, first, { maxRequests: 10, now: T0 }, 1);
      const secondId = await captureId(store, second, { maxRequests: 10, now: T0 }, 2);
      assert.match(firstId, /^req_[0-9A-Za-z]{22,}$/);
      assert.notEqual(firstId, secondId);
      const page = await store.bins.listRequests(bin.id, { limit: 50, offset: 0 });
      assert.equal(page.total, 2);
      assert.deepEqual(
        page.items.map((r) => r.id),
        [secondId, firstId],
        'capture order breaks timestamp ties',
      );
      const { headers: _h, body: _b, ...summary } = first;
      assert.deepEqual(page.items[1], { ...summary, id: firstId, contentLength: 5 });
      const read = await store.bins.getRequest(bin.id, firstId);
      assert.deepEqual(read, { ...first, id: firstId });
      assert.ok(Buffer.isBuffer(read!.body));
      assert.equal(await store.bins.getRequest('bin_other', firstId), null, 'a request is read through its own bin only');
      const other = binRecord(owner());
      await store.bins.createBin(other);
      assert.equal(await store.bins.getRequest(other.id, firstId), null, 'nor through another live bin');
      assert.equal(
        await store.bins.getRequest(bin.id, firstId.slice(0, -1) + (firstId.endsWith('a') ? 'b' : 'a')),
        null,
        'an id differing in its last character is not found',
      );
      assert.equal((await store.bins.getBin(bin.id, T0))!.requestCount, 2);
      assert.equal(await store.bins.clearRequests(bin.id), 2);
      assert.equal((await store.bins.listRequests(bin.id, { limit: 50, offset: 0 })).total, 0);
      assert.equal((await store.bins.getBin(bin.id, T0))!.requestCount, 2, 'request_count counts since creation');
      assert.equal(await store.bins.getRequest(bin.id, firstId), null, 'a cleared request is gone');
      const thirdId = await captureId(store, capturedRequest(bin.id), { maxRequests: 10, now: T0 }, 3);
      const after = await store.bins.listRequests(bin.id, { limit: 50, offset: 0 });
      assert.deepEqual([after.total, after.items.map((r) => r.id)], [1, [thirdId]], 'captures after a clear are listed alone');
      assert.equal(await store.bins.clearRequests(bin.id), 1);
      assert.equal(await store.bins.clearRequests(bin.id), 0);
      assert.equal(await store.bins.clearRequests('bin_missing'), 0);
    });

    it('captures: refused for missing and expired bins (nothing stored)', async () => {
      const bin = binRecord(owner(), { expiresAt: T0 + 100 });
      await store.bins.createBin(bin);
      assert.equal(await store.bins.captureRequest(capturedRequest('bin_missing'), { maxRequests: 10, now: T0 }), null);
      assert.equal(await store.bins.captureRequest(capturedRequest(bin.id), { maxRequests: 10, now: T0 + 100 }), null);
      assert.equal((await store.bins.listRequests(bin.id, { limit: 50, offset: 0 })).total, 0);
    });

    it('captures: the newest maxRequests are retained, request_count keeps counting', async () => {
      const bin = binRecord(owner());
      await store.bins.createBin(bin);
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        const r = capturedRequest(bin.id, { timestamp: T0 + i });
        ids.push(await captureId(store, r, { maxRequests: 3, now: T0 }, i + 1));
      }
      const page = await store.bins.listRequests(bin.id, { limit: 50, offset: 0 });
      assert.equal(page.total, 3);
      assert.deepEqual(
        page.items.map((r) => r.id),
        ids.slice(4).reverse(),
      );
      assert.equal(await store.bins.getRequest(bin.id, ids[0]), null, 'evicted requests are gone');
      assert.equal((await store.bins.getBin(bin.id, T0))!.requestCount, 7);
      const paged = await store.bins.listRequests(bin.id, { limit: 2, offset: 1 });
      assert.deepEqual(
        paged.items.map((r) => r.id),
        [ids[5], ids[4]],
      );
    });

    it('captures: 300 concurrent captures to one bin are all stored and counted', async () => {
      const bin = binRecord(owner());
      await store.bins.createBin(bin);
      const captured = await Promise.all(
        Array.from({ length: 300 }, () => store.bins.captureRequest(capturedRequest(bin.id), { maxRequests: 1000, now: T0 })),
      );
      assert.deepEqual(
        captured.map((c) => c!.count).sort((x, y) => x - y),
        Array.from({ length: 300 }, (_, i) => i + 1),
      );
      assert.equal(new Set(captured.map((c) => c!.id)).size, 300, 'every request has its own id');
      assert.equal((await store.bins.listRequests(bin.id, { limit: 1, offset: 0 })).total, 300);
      assert.equal((await store.bins.getBin(bin.id, T0))!.requestCount, 300);
    });

    it('captures: interleaved in one turn to two bins and a missing one: counts in arrival order, retention per bin', async () => {
      const a = binRecord(owner());
      const b = binRecord(owner());
      await store.bins.createBin(a);
      await store.bins.createBin(b);
      const sent = ['a', 'b', 'a', 'x', 'a', 'b', 'a', 'a'].map((which) =>
        capturedRequest(which === 'a' ? a.id : which === 'b' ? b.id : 'bin_missing'),
      );
      const captured = await Promise.all(sent.map((r) => store.bins.captureRequest(r, { maxRequests: 3, now: T0 })));
      assert.deepEqual(
        captured.map((c) => c?.count ?? null),
        [1, 1, 2, null, 3, 2, 4, 5],
      );
      const ids = captured.map((c) => c?.id);
      const kept = (await store.bins.listRequests(a.id, { limit: 50, offset: 0 })).items.map((r) => r.id);
      assert.deepEqual(kept, [ids[7], ids[6], ids[4]], 'the newest 3 of bin a, newest first');
      assert.deepEqual(
        (await store.bins.listRequests(b.id, { limit: 50, offset: 0 })).items.map((r) => r.id),
        [ids[5], ids[1]],
      );
      assert.equal((await store.bins.getBin(a.id, T0))!.requestCount, 5);
      assert.equal((await store.bins.getBin(b.id, T0))!.requestCount, 2);
    });

    it("captures: a request id carries the bin's new request count (newSequencedId); past MAX_ID_SEQUENCE a capture is refused", async () => {
      const bin = binRecord(owner());
      await store.bins.createBin(bin);
      for (let count = 1; count <= 3; count++) {
        const id = await captureId(count === 2 ? peer : store, capturedRequest(bin.id), { maxRequests: 10, now: T0 }, count);
        assert.match(id, /^req_[0-9A-Za-z]{28}[0-9a-f]{6}$/);
        assert.equal(sequenceOfId('req_', id), count);
      }
      const full = binRecord(owner(), { requestCount: MAX_ID_SEQUENCE - 1 });
      await store.bins.createBin(full);
      const last = await captureId(store, capturedRequest(full.id), { maxRequests: 10, now: T0 }, MAX_ID_SEQUENCE);
      assert.match(last, /^req_4gfFC3[0-9A-Za-z]{22}[0-9a-f]{6}$/, '4294967295 in 6 base62 digits');
      await assert.rejects(
        store.bins.captureRequest(capturedRequest(full.id), { maxRequests: 10, now: T0 }),
        (err: unknown) => (err as { code?: string }).code === 'storage_unavailable',
      );
      assert.equal((await store.bins.getBin(full.id, T0))!.requestCount, MAX_ID_SEQUENCE);
      assert.deepEqual(
        (await store.bins.listRequests(full.id, { limit: 10, offset: 0 })).items.map((r) => r.id),
        [last],
      );
    });

    it('listRequestsAfter: the retained requests after an id, oldest first, a page at a time, read through either instance', async () => {
      const bin = binRecord(owner());
      await store.bins.createBin(bin);
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        const r = capturedRequest(bin.id, { timestamp: T0 + i, path: `/v1/catch/${bin.id}/${i}` });
        ids.push(await captureId(i % 2 ? peer : store, r, { maxRequests: 10, now: T0 }, i + 1));
      }
      const after = async (id: string, limit: number, on: Store = store) =>
        (await on.bins.listRequestsAfter(bin.id, id, limit))?.map((r) => r.id);
      assert.deepEqual(await after(ids[2], 10), ids.slice(3));
      assert.deepEqual(await after(ids[2], 10, peer), ids.slice(3));
      assert.deepEqual(await after(ids[2], 2), [ids[3], ids[4]], 'the oldest first');
      assert.deepEqual(await after(ids[4], 2), [ids[5], ids[6]], 'the next page, after the last one read');
      assert.deepEqual(await after(ids[6], 10), [], 'nothing after the newest');
      const listed = (await store.bins.listRequests(bin.id, { limit: 1, offset: 0 })).items[0];
      assert.deepEqual((await store.bins.listRequestsAfter(bin.id, ids[5], 10))![0], listed, 'each item as the listing has it');
    });

    it("listRequestsAfter: an id that is not one of the bin's is null", async () => {
      const bin = binRecord(owner());
      const other = binRecord(owner());
      await store.bins.createBin(bin);
      await store.bins.createBin(other);
      const ids: string[] = [];
      for (let i = 1; i <= 3; i++) ids.push(await captureId(store, capturedRequest(bin.id), { maxRequests: 10, now: T0 }, i));
      const foreign = await captureId(store, capturedRequest(other.id), { maxRequests: 10, now: T0 }, 1);
      const sameNumber = ids[1].slice(0, -1) + (ids[1].endsWith('a') ? 'b' : 'a');
      for (const id of [
        foreign,
        sameNumber,
        newSequencedId('req_', 4, bin.id),
        newSequencedId('req_', 0, bin.id),
        'req_unknown',
        newId('req_'),
        '',
      ]) {
        assert.equal(await store.bins.listRequestsAfter(bin.id, id, 10), null, id);
      }
      assert.equal(await store.bins.listRequestsAfter('bin_missing', ids[0], 10), null, 'nor of a missing bin');
      assert.deepEqual(
        (await store.bins.listRequestsAfter(other.id, foreign, 10))!.map((r) => r.id),
        [],
      );
    });

    it('listRequestsAfter: after an evicted or cleared id, every retained request came after it', async () => {
      const bin = binRecord(owner());
      await store.bins.createBin(bin);
      const ids: string[] = [];
      for (let i = 0; i < 7; i++)
        ids.push(await captureId(i % 2 ? peer : store, capturedRequest(bin.id), { maxRequests: 3, now: T0 }, i + 1));
      const after = async (id: string, limit = 10) => (await store.bins.listRequestsAfter(bin.id, id, limit))?.map((r) => r.id);
      assert.deepEqual(await after(ids[0]), ids.slice(4), 'the oldest, long evicted');
      assert.deepEqual(await after(ids[3]), ids.slice(4), 'the newest evicted');
      assert.deepEqual(await after(ids[1], 2), [ids[4], ids[5]], 'a page: the oldest retained first');
      assert.deepEqual(await after(ids[4]), [ids[5], ids[6]], 'the oldest retained');
      assert.equal(await store.bins.clearRequests(bin.id), 3);
      assert.deepEqual(await after(ids[6]), [], "cleared: nothing after it, yet it is still the bin's");
      assert.deepEqual(await after(ids[2]), []);
      const next = await captureId(peer, capturedRequest(bin.id), { maxRequests: 3, now: T0 }, 8);
      assert.deepEqual(await after(ids[6]), [next]);
      assert.deepEqual(await after(ids[0]), [next]);
      assert.deepEqual(await after(next), []);
    });

    it("listRequestsAfter: a number no kept request holds is placed only for an id of the bin's (its tag), or one made before ids had tags", async () => {
      const bin = binRecord(owner());
      const other = binRecord(owner());
      await store.bins.createBin(bin);
      await store.bins.createBin(other);
      const ids: string[] = [];
      for (let i = 1; i <= 3; i++) ids.push(await captureId(store, capturedRequest(bin.id), { maxRequests: 10, now: T0 }, i));
      const foreign = await captureId(peer, capturedRequest(other.id), { maxRequests: 10, now: T0 }, 1);
      await store.bins.clearRequests(bin.id);
      const next = await captureId(store, capturedRequest(bin.id), { maxRequests: 10, now: T0 }, 4);
      for (const on of [store, peer]) {
        const after = async (id: string) => (await on.bins.listRequestsAfter(bin.id, id, 10))?.map((r) => r.id) ?? null;
        assert.deepEqual(await after(ids[1]), [next], "the bin's own cleared id");
        assert.equal(await after(foreign), null, "another bin's id of a cleared number");
        assert.equal(await after(newSequencedId('req_', 2, other.id)), null, 'an id made for another bin');
        const madeUp = ids[1].slice(0, -6) + (ids[1].endsWith('000000') ? '000001' : '000000');
        assert.equal(await after(madeUp), null, 'a tag changed');
        assert.deepEqual(await after(ids[1].slice(0, -6)), [next], 'an id from before ids had tags');
      }
    });

    it('listRequestsAfter: pages read while captures go on through both instances join up in capture order, none twice, none left out', async () => {
      const bin = binRecord(owner());
      await store.bins.createBin(bin);
      const firstId = await captureId(store, capturedRequest(bin.id), { maxRequests: 1000, now: T0 }, 1);
      // One capture after another through each instance, both at once, while the pages are read.
      const send = async (on: Store) => {
        for (let i = 0; i < 150; i++) await on.bins.captureRequest(capturedRequest(bin.id), { maxRequests: 1000, now: T0 });
      };
      let capturing = true;
      const captured = Promise.all([send(store), send(peer)]).then(() => (capturing = false));
      let pagesWhileCapturing = 0;
      const read: string[] = [];
      let cursor = firstId;
      for (let pages = 0; pages < 5000 && read.length < 300; pages++) {
        const page = await (pages % 2 ? peer : store).bins.listRequestsAfter(bin.id, cursor, 7);
        assert.ok(page, "the cursor is always the bin's");
        read.push(...page.map((r) => r.id));
        if (page.length > 0) cursor = page[page.length - 1].id;
        if (page.length > 0 && capturing) pagesWhileCapturing++;
        await new Promise((r) => setImmediate(r)); // captures commit between pages
      }
      await captured;
      assert.ok(pagesWhileCapturing > 1, `${pagesWhileCapturing} pages read while captures went on`);
      assert.deepEqual(read, (await storedOrder(store, bin.id)).slice(1));
    });

    it('bins: delete removes the bin and its requests', async () => {
      const bin = binRecord(owner());
      await store.bins.createBin(bin);
      const id = await captureId(store, capturedRequest(bin.id), { maxRequests: 10, now: T0 }, 1);
      assert.equal(await store.bins.deleteBin(bin.id), true);
      assert.equal(await store.bins.getBin(bin.id, T0), null);
      assert.equal(await store.bins.getRequest(bin.id, id), null);
      assert.equal((await store.bins.listRequests(bin.id, { limit: 50, offset: 0 })).total, 0);
      assert.equal(await store.bins.deleteBin(bin.id), false);
      assert.equal(await store.bins.captureRequest(capturedRequest(bin.id), { maxRequests: 10, now: T0 }), null);
    });

    it('mocks: create, get, list, patch, hit counts, delete, expiry', async () => {
      const o = owner();
      const m = mockRecord(o);
      const json = mockRecord(o, {
        createdAt: T0 + 5,
        body: null,
        responseBodyJson: '{"x":[1,2]}',
        method: 'POST',
        path: '/orders',
        headers: {},
      });
      await store.mocks.createMock(m);
      await store.mocks.createMock(json);
      assert.deepEqual(await store.mocks.getMock(m.id, T0), m);
      assert.deepEqual(await store.mocks.getMock(json.id, T0), json);
      const list = await store.mocks.listMocks(o, { limit: 10, offset: 0 }, T0);
      assert.equal(list.total, 2);
      assert.deepEqual(
        list.items.map((x) => x.id),
        [json.id, m.id],
      );
      const patched = await store.mocks.updateMock(m.id, { statusCode: 404, headers: { 'x-b': '2' }, body: null, delayMs: 50 }, T0);
      assert.deepEqual(patched, { ...m, statusCode: 404, headers: { 'x-b': '2' }, body: null, delayMs: 50 });
      assert.deepEqual(await store.mocks.getMock(m.id, T0), patched, 'a read after a patch sees the patch');
      (await store.mocks.getMock(m.id, T0))!.statusCode = 999;
      assert.equal((await store.mocks.getMock(m.id, T0))!.statusCode, 404, 'changing a returned record changes nothing stored');
      assert.equal(await store.mocks.updateMock('mock_missing', { statusCode: 500 }, T0), null);
      assert.equal(await store.mocks.recordMockHit(m.id, T0), 1);
      assert.equal(await store.mocks.recordMockHit(m.id, T0), 2);
      const hits = await Promise.all(Array.from({ length: 50 }, () => store.mocks.recordMockHit(json.id, T0)));
      assert.deepEqual(
        [...(hits as number[])].sort((a, b) => a - b),
        Array.from({ length: 50 }, (_, i) => i + 1),
        'concurrent hits get distinct counts',
      );
      assert.equal((await store.mocks.getMock(json.id, T0))!.hitCount, 50);
      assert.equal(
        (await store.mocks.listMocks(o, { limit: 10, offset: 0 }, T0)).items.find((x) => x.id === json.id)!.hitCount,
        50,
        'a list shows every hit',
      );
      assert.equal((await store.mocks.updateMock(json.id, { delayMs: 10 }, T0))!.hitCount, 50, 'a patch keeps the count');
      assert.equal(await store.mocks.recordMockHit(json.id, T0), 51, 'counting goes on after a patch');
      assert.equal(await store.mocks.recordMockHit(m.id, T0 + HOUR), null, 'expired mocks are not served');
      assert.equal(await store.mocks.getMock(m.id, T0 + HOUR), null);
      assert.equal(await store.mocks.deleteMock(json.id), true);
      assert.equal(await store.mocks.deleteMock(json.id), false);
      assert.equal(await store.mocks.getMock(json.id, T0), null);
    });

    it('purgeExpired deletes expired bins with their requests and expired mocks only', async () => {
      const o = owner();
      const old = binRecord(o, { expiresAt: T0 + 10 });
      const live = binRecord(o, { expiresAt: T0 + HOUR });
      await store.bins.createBin(old);
      await store.bins.createBin(live);
      const rId = await captureId(store, capturedRequest(old.id), { maxRequests: 10, now: T0 }, 1);
      const oldMock = mockRecord(o, { expiresAt: T0 + 10 });
      await store.mocks.createMock(oldMock);
      assert.ok(await store.mocks.getMock(oldMock.id, T0), 'read (and cached) while live');
      const liveMock = mockRecord(o);
      await store.mocks.createMock(liveMock);
      const purged = await store.purgeExpired(T0 + 20);
      assert.ok(purged.bins >= 1 && purged.mocks >= 1, JSON.stringify(purged));
      assert.equal(await store.bins.getRequest(old.id, rId), null);
      assert.equal(await store.bins.getBin(old.id, T0), null, 'purged data is gone even for an earlier clock');
      assert.equal(await store.mocks.getMock(oldMock.id, T0), null, 'a purged mock is gone even for an earlier clock');
      assert.deepEqual(await store.bins.getBin(live.id, T0), live);
      assert.ok(await store.mocks.getMock(liveMock.id, T0));
    });

    it('keys: a revocation or rotation is announced on KEY_CHANGES_CHANNEL to every instance', async () => {
      const heard: string[] = [];
      const unsubscribe = await peer.pubsub.subscribe(KEY_CHANGES_CHANNEL, (id) => heard.push(id));
      const rec = {
        id: newId('key_'),
        digest: '1'.repeat(64),
        hint: 'dk_1111…',
        name: 'n',
        plan: 'free',
        marketplaceHost: null,
        createdAt: T0,
        revokedAt: null,
      };
      await store.keys.createKey(rec);
      assert.equal(await store.keys.rotateKey(rec.id, '2'.repeat(64), 'dk_2222…'), true);
      await settle(() => heard.includes(rec.id));
      assert.deepEqual(
        heard.filter((id) => id === rec.id),
        [rec.id],
        'rotation announced',
      );
      assert.equal(await store.keys.revokeKey(rec.id, T0 + 1), true);
      assert.equal(await store.keys.revokeKey(rec.id, T0 + 2), false);
      assert.equal(await store.keys.revokeKey('key_unknown', T0), false);
      await settle(() => heard.filter((id) => id === rec.id).length === 2);
      await new Promise((r) => setTimeout(r, 50));
      await unsubscribe();
      assert.deepEqual(
        heard.filter((id) => id === rec.id),
        [rec.id, rec.id],
        'revocation announced once; refused changes are not',
      );
      assert.ok(!heard.includes('key_unknown'));
    });

    it('bins and mocks created in the same millisecond through two instances list newest first in creation order', async () => {
      const o = owner();
      const bins = Array.from({ length: 8 }, () => binRecord(o, { createdAt: T0 }));
      for (const [i, bin] of bins.entries()) await (i % 2 ? peer : store).bins.createBin(bin);
      const older = binRecord(o, { createdAt: T0 - 1 });
      await store.bins.createBin(older); // created last, but with an earlier timestamp: listed last
      const expected = [...bins.map((b) => b.id).reverse(), older.id];
      const all = await peer.bins.listBins(o, { limit: 20, offset: 0 }, T0);
      assert.equal(all.total, 9);
      assert.deepEqual(
        all.items.map((b) => b.id),
        expected,
      );
      const page = await store.bins.listBins(o, { limit: 3, offset: 2 }, T0);
      assert.deepEqual({ total: page.total, ids: page.items.map((b) => b.id) }, { total: 9, ids: expected.slice(2, 5) });
      const mocks = Array.from({ length: 8 }, () => mockRecord(o, { createdAt: T0 }));
      for (const [i, mock] of mocks.entries()) await (i % 2 ? store : peer).mocks.createMock(mock);
      const listed = await store.mocks.listMocks(o, { limit: 20, offset: 0 }, T0);
      assert.deepEqual(
        listed.items.map((m) => m.id),
        mocks.map((m) => m.id).reverse(),
      );
    });

    it('captures: a listing taken while captures evict old requests holds as many items as its total says', async () => {
      const bin = binRecord(owner());
      await store.bins.createBin(bin);
      const short: string[] = [];
      const captures: Promise<unknown>[] = [];
      const listings: Promise<void>[] = [];
      for (let i = 0; i < 400; i++) {
        captures.push((i % 2 ? peer : store).bins.captureRequest(capturedRequest(bin.id), { maxRequests: 5, now: T0 }));
        if (i % 4 === 0) {
          listings.push(
            store.bins.listRequests(bin.id, { limit: 5, offset: 0 }).then((page) => {
              if (page.items.length !== page.total || page.total > 5) short.push(`total ${page.total}, ${page.items.length} items`);
            }),
          );
        }
      }
      await Promise.all([...captures, ...listings]);
      assert.deepEqual(short, [], 'total and page agree');
      const last = await store.bins.listRequests(bin.id, { limit: 5, offset: 3 });
      assert.deepEqual({ total: last.total, items: last.items.length }, { total: 5, items: 2 });
    });

    it('captures announced through two instances reach a subscriber in capture order', async () => {
      const bin = binRecord(owner());
      await store.bins.createBin(bin);
      const channel = `bin:${bin.id}`;
      const heard: string[] = [];
      const unsubscribe = await peer.pubsub.subscribe(channel, (message) => heard.push(message));
      const sent = Array.from({ length: 300 }, () => capturedRequest(bin.id));
      const counts = await Promise.all(
        sent.map((r, i) =>
          (i % 2 ? peer : store).bins.captureRequest(r, {
            maxRequests: 1000,
            now: T0,
            announce: { channel, message: (id) => id },
          }),
        ),
      );
      assert.ok(counts.every((c) => c !== null));
      const refused = capturedRequest('bin_missing');
      assert.equal(
        await store.bins.captureRequest(refused, { maxRequests: 10, now: T0, announce: { channel, message: (id) => id } }),
        null,
      );
      await settle(() => heard.length >= sent.length);
      await new Promise((r) => setTimeout(r, 50));
      await unsubscribe();
      assert.equal(heard.length, sent.length, 'one message per stored capture, none for a refused one');
      assert.deepEqual(heard, await storedOrder(store, bin.id), 'messages in the order the captures were stored');
    });

    it('pubsub delivers in publish order until unsubscribed', async () => {
      const channel = `bin:${newId('bin_')}`;
      const got: string[] = [];
      const unsubscribe = await store.pubsub.subscribe(channel, (m) => got.push(m));
      for (let i = 0; i < 20; i++) await store.pubsub.publish(channel, String(i));
      for (let i = 0; i < 50 && got.length < 20; i++) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(
        got,
        Array.from({ length: 20 }, (_, i) => String(i)),
      );
      await unsubscribe();
      await store.pubsub.publish(channel, 'late');
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(got.length, 20);
    });

    it('ping answers while the backend is reachable', async () => {
      await store.ping();
    });
  });
}
