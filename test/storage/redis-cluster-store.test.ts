import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Cluster } from 'ioredis';
import { createRedisStore } from '../../src/storage/redis/redis-store.js';
import type { Store } from '../../src/storage/types.js';
import { redisClusterSkipReason, startRedisCluster, type RedisCluster } from '../helpers/processes.js';
import { binRecord, capturedRequest, mockRecord, runStoreSuite } from './store-suite.js';

const skip = redisClusterSkipReason();
let cluster: RedisCluster | undefined;
const started = skip ? undefined : startRedisCluster();
started?.catch(() => undefined); // reported by the first test that awaits it
after(async () => {
  await cluster?.stop();
});

async function clusterUrl(): Promise<string> {
  cluster = await started!;
  return cluster.url;
}

// Any MULTI or script whose keys span two slots fails on a cluster (CROSSSLOT), so the shared
// suite passing here shows every multi-key operation stays within one hash slot.
const openSuiteStore = async () => createRedisStore({ url: await clusterUrl(), prefix: 'suite' });
runStoreSuite('redis cluster (3 masters)', openSuiteStore, { skip, makePeer: openSuiteStore });

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const HOUR = 3_600_000;

describe('redis cluster: index entries left by an interrupted change', { skip }, () => {
  let store: Store;
  let raw: Cluster;
  const prefix = 'partial';
  before(async () => {
    const url = await clusterUrl();
    store = await createRedisStore({ url, prefix });
    raw = new Cluster(cluster!.ports.map((port) => ({ host: '127.0.0.1', port })));
  });
  after(async () => {
    await store?.close();
    await raw?.quit();
  });

  it('an index entry whose bin is gone is dropped by the listing and settled by the purge', async () => {
    const bin = binRecord('key_gone', { expiresAt: T0 + 10 });
    await store.bins.createBin(bin);
    await raw.del(`${prefix}:{bin:${bin.id}}:meta`); // as if Redis expired it, or a delete stopped half-way
    assert.deepEqual(await store.bins.listBins('key_gone', { limit: 10, offset: 0 }, T0), { total: 0, items: [] });
    assert.equal(await raw.zscore(`${prefix}:owner:key_gone:bins`, bin.id), null);
    assert.equal((await store.purgeExpired(T0 + 20)).bins, 1);
    assert.equal(await raw.zscore(`${prefix}:expiry:bins`, bin.id), null);
  });

  it('a stale expiry score (extension whose index step failed) never purges a live mock', async () => {
    const mock = mockRecord('key_stale', { expiresAt: T0 + 10 });
    await store.mocks.createMock(mock);
    await raw.hset(`${prefix}:{mock:${mock.id}}`, 'expiresAt', JSON.stringify(T0 + HOUR)); // record updated, index not
    assert.equal((await store.purgeExpired(T0 + 20)).mocks, 0);
    assert.ok(await store.mocks.getMock(mock.id, T0 + 20), 'still served');
    assert.equal(Number(await raw.zscore(`${prefix}:expiry:mocks`, mock.id)), T0 + HOUR, 'the index is repaired');
  });

  it('a deleted bin takes its captures and both index entries with it', async () => {
    const bin = binRecord('key_del');
    await store.bins.createBin(bin);
    await store.bins.captureRequest(capturedRequest(bin.id), { maxRequests: 10, now: T0 });
    assert.equal(await store.bins.deleteBin(bin.id), true);
    assert.equal(
      await raw.exists(`${prefix}:{bin:${bin.id}}:meta`, `${prefix}:{bin:${bin.id}}:order`, `${prefix}:{bin:${bin.id}}:reqs`),
      0,
    );
    assert.equal(await raw.zscore(`${prefix}:owner:key_del:bins`, bin.id), null);
    assert.equal(await raw.zscore(`${prefix}:expiry:bins`, bin.id), null);
  });
});

// Last in this file: it takes the shared cluster down and brings it back empty.
describe('redis cluster: outage and recovery', { skip }, () => {
  let store: Store;
  before(async () => {
    store = await createRedisStore({ url: await clusterUrl(), prefix: 'outage' });
  });
  after(async () => {
    await store?.close();
  });

  it('answers storage_unavailable while every node is down, then works again, subscriptions included', async () => {
    const got: string[] = [];
    await store.pubsub.subscribe('bin:kept', (m) => got.push(m));
    await cluster!.kill();
    await assert.rejects(store.ping(), { code: 'storage_unavailable' });
    await assert.rejects(store.bins.createBin(binRecord('key_down')), { code: 'storage_unavailable' });
    await cluster!.restart();
    const reachable = () =>
      store.ping().then(
        () => true,
        () => false,
      );
    for (let i = 0; i < 50 && !(await reachable()); i++) await new Promise((r) => setTimeout(r, 100));
    const bin = binRecord('key_up');
    await store.bins.createBin(bin);
    assert.deepEqual(await store.bins.getBin(bin.id, T0), bin);
    for (let i = 0; i < 50 && got.length === 0; i++) {
      await store.pubsub.publish('bin:kept', `after-${i}`); // until the subscriber has moved back in
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.match(got[0] ?? '', /^after-\d+$/, 'the subscription made before the outage delivers again');
  });
});
