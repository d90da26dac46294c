import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { redisClusterSkipReason, startRedisServer, type RedisServer } from '../helpers/processes.js';
import {
  api,
  assertBuilt,
  capturesOf,
  DELIVERY_LINE,
  issueKey,
  startCli,
  startService,
  startTargetApp,
  type Service,
  type TargetApp,
} from './cli-helpers.js';

// `devutil listen` across a server killed mid-stream: each capture forwarded once, in capture order
// (CONTRACT §2.3 resume, §9). Timing-sensitive: the runner gives files named *crash* the machine alone.

const TOTAL = 500;
const PER_SECOND = 50;

/**
 * Capture `1`..`TOTAL` (the body is the number) at `PER_SECOND`, one at a time, through `via(i)`'s
 * catch URL; a capture that gets no answer (its server is down) is sent again until one answers,
 * as a webhook provider retries. `during(i)` runs before capture `i` is sent.
 */
async function captureAtRate(via: (i: number) => string, during: (i: number) => Promise<void> | void): Promise<number[]> {
  const acknowledged: number[] = [];
  const start = Date.now();
  for (let i = 1; i <= TOTAL; i++) {
    await during(i);
    const due = start + (i * 1000) / PER_SECOND - Date.now();
    if (due > 0) await new Promise((r) => setTimeout(r, due));
    for (;;) {
      const res = await fetch(via(i), { method: 'POST', headers: { 'content-type': 'text/plain' }, body: String(i) }).catch(() => null);
      if (res?.status === 200) {
        acknowledged.push(i);
        break;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  return acknowledged;
}

/** Wait until the target got as many requests as the bin holds and listen printed a line for each. */
async function settle(service: { url: string }, key: string, binId: string, target: TargetApp, listenLines: () => string[]) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const captures = await capturesOf(service, key, binId);
    const printed = listenLines().filter((l) => DELIVERY_LINE.test(l)).length;
    if (target.received.length >= captures.length && printed >= captures.length) return captures;
    if (Date.now() > deadline) throw new Error(`target got ${target.received.length} of ${captures.length}, ${printed} lines printed`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Exactly once, in order: what the target got is the bin's captures, in capture order, every acknowledged one among them. */
function assertExactlyOnceInOrder(target: TargetApp, captures: { body: string }[], acknowledged: number[]) {
  const forwarded = target.received.map((r) => r.body.toString('utf8'));
  const stored = captures.map((c) => c.body);
  assert.deepEqual(forwarded, stored);
  const storedSet = new Set(stored);
  assert.deepEqual(
    acknowledged.filter((i) => !storedSet.has(String(i))),
    [],
  );
  assert.ok(stored.length >= TOTAL, `${stored.length} captures`);
}

describe(`devutil listen: ${TOTAL} captures at ${PER_SECOND}/s, the SQLite server SIGKILLed and restarted on its port and data`, () => {
  let service: Service;
  let target: TargetApp;
  before(async () => {
    assertBuilt();
    service = await startService();
    target = await startTargetApp();
  });
  after(async () => {
    await target?.close();
    await service?.stop();
  });

  it('every capture is forwarded exactly once, in capture order; the reconnection is reported on stderr', { timeout: 90_000 }, async () => {
    const key = await issueKey(service);
    const listen = startCli(['listen', '--url', service.url, '--key', key, '--forward-to', target.url]);
    try {
      const binId = /\/v1\/catch\/(bin_[\w-]+) ->/.exec(await listen.waitForLine(/^Forwarding /))![1]!;
      const catchUrl = `${service.url}/v1/catch/${binId}`;
      const acknowledged = await captureAtRate(
        () => catchUrl,
        async (i) => {
          if (i !== 200) return;
          await service.stop('SIGKILL');
          // Restarted in the background while captures keep being attempted.
          void startService({}, { port: service.port, dataDir: service.dataDir }).then((s) => (service = s));
        },
      );
      const captures = await settle(service, key, binId, target, listen.lines);
      assertExactlyOnceInOrder(target, captures, acknowledged);
      assert.match(listen.stderr(), /Reconnecting to http:\/\/127\.0\.0\.1:\d+ in [\d.]+ s \(attempt 1\): /);
      assert.match(listen.stderr(), /\nReconnected\n/);
    } finally {
      listen.child.kill('SIGINT');
      assert.equal(await listen.exited, 0);
    }
  });
});

const skip = redisClusterSkipReason();

describe(
  `devutil listen through one of two Redis-backed processes: A SIGKILLed and restarted while captures go through B`,
  { skip },
  () => {
    let redis: RedisServer;
    let a: Service;
    let b: Service;
    let target: TargetApp;
    let env: Record<string, string>;
    before(async () => {
      assertBuilt();
      redis = await startRedisServer();
      env = { STORE: 'redis', REDIS_URL: redis.url };
      [a, b] = await Promise.all([startService(env), startService(env)]);
      target = await startTargetApp();
    });
    after(async () => {
      await target?.close();
      await Promise.all([a?.stop(), b?.stop()]);
      await redis?.stop();
    });

    it(
      'every capture, through A or B, is forwarded exactly once in capture order after listen reconnects to A',
      { timeout: 90_000 },
      async () => {
        const key = await issueKey(a);
        const listen = startCli(['listen', '--url', a.url, '--key', key, '--forward-to', `${target.url}/in`]);
        let aUp = true;
        try {
          const binId = /\/v1\/catch\/(bin_[\w-]+) ->/.exec(await listen.waitForLine(/^Forwarding /))![1]!;
          const acknowledged = await captureAtRate(
            (i) => `${aUp && i % 2 === 0 ? a.url : b.url}/v1/catch/${binId}/n`,
            async (i) => {
              if (i !== 150) return;
              aUp = false;
              await a.stop('SIGKILL');
              // A comes back on its port after a while; meanwhile everything goes through B.
              setTimeout(() => {
                void startService(env, { port: a.port, dataDir: a.dataDir }).then((s) => {
                  a = s;
                  aUp = true;
                });
              }, 2000);
            },
          );
          const captures = await settle(b, key, binId, target, listen.lines);
          assertExactlyOnceInOrder(target, captures, acknowledged);
          assert.ok(target.received.every((r) => r.url === '/in/n'));
          assert.match(listen.stderr(), /\nReconnected\n/);
          const { json } = await api<{ bin: { request_count: number } }>(a, key, 'GET', `/v1/bins/${binId}`);
          assert.equal(json.bin.request_count, captures.length);
        } finally {
          listen.child.kill('SIGINT');
          assert.equal(await listen.exited, 0);
        }
      },
    );
  },
);
