import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  api,
  assertBuilt,
  capturesOf,
  DELIVERY_LINE,
  issueKey,
  startCli,
  startService,
  startTargetApp,
  type CaptureDetail,
  type Received,
  type Service,
  type TargetApp,
} from './cli-helpers.js';

// `devutil listen` forwards each capture to a loopback app exactly as captured (CONTRACT §9).

/** Headers a forwarder never copies (hop-by-hop and framing), nor the target's own `host`. */
const NOT_COPIED = ['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', 'content-length', 'expect'];
const without = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !NOT_COPIED.includes(name)));

/** What the target app got must be the capture: method, path and query, headers, body bytes. */
function assertForwarded(got: Received, capture: CaptureDetail, binId: string, base: string, targetHost: string) {
  const sub = capture.path.slice(`/v1/catch/${binId}`.length);
  assert.equal(got.method, capture.method);
  assert.equal(got.url, base + sub + (capture.query_string ? `?${capture.query_string}` : ''));
  assert.deepEqual(without(got.headers), without(capture.headers));
  assert.equal(got.headers.host, targetHost);
  const bytes = Buffer.from(capture.body, capture.body_encoding === 'base64' ? 'base64' : 'utf8');
  assert.deepEqual(got.body, bytes);
  if (bytes.length > 0) assert.equal(got.headers['content-length'], String(bytes.length));
}

describe('devutil listen forwards every capture to a loopback app', () => {
  let service: Service;
  let target: TargetApp;
  let key: string;
  before(async () => {
    assertBuilt();
    service = await startService();
    target = await startTargetApp();
    key = await issueKey(service);
  });
  after(async () => {
    await target?.close();
    await service?.stop();
  });

  it('text, JSON, form and binary bodies arrive byte for byte with their method, sub-path, query and headers; one §9 line each', async () => {
    const listen = startCli(['listen', '--url', service.url, '--key', key, '--forward-to', `${target.url}/hooks`, '--name', 'laptop']);
    try {
      const first = await listen.waitForLine(/^Forwarding /);
      const [, catchUrl, binId] = /^Forwarding (http:\/\/127\.0\.0\.1:\d+\/v1\/catch\/(bin_[\w-]+)) -> (.+)$/.exec(first)!;
      assert.equal(first, `Forwarding ${service.url}/v1/catch/${binId} -> ${target.url}/hooks`);
      const { json } = await api<{ bin: { name: string } }>(service, key, 'GET', `/v1/bins/${binId}`);
      assert.equal(json.bin.name, 'laptop');
      const every256 = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      const sends: [string, RequestInit][] = [
        ['/text?x=1&y=%20z&flag', { method: 'POST', headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'héllo wörld\n' }],
        [
          '/stripe',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc', 'x-repeat': 'a, b' },
            body: '{"id":"evt_1","amount":1999,"name":"Zoë ✓","nested":{"a":[1,2,3]}}',
          },
        ],
        ['?a=b', { method: 'PUT', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1&b=%C3%A9+x&c=' }],
        [
          '/upload/file.bin',
          {
            method: 'PATCH',
            headers: { 'content-type': 'application/octet-stream' },
            // A stream: sent chunked, forwarded with its length.
            body: new ReadableStream({
              start(controller) {
                controller.enqueue(every256.subarray(0, 100));
                controller.enqueue(every256.subarray(100));
                controller.close();
              },
            }),
            duplex: 'half',
          } as RequestInit,
        ],
        ['/ping?only=query', { method: 'GET' }],
        ['/items/7', { method: 'DELETE' }],
      ];
      for (const [sub, init] of sends) assert.equal((await fetch(catchUrl + sub, init)).status, 200);
      await listen.waitForCount(DELIVERY_LINE, sends.length);
      const captures = await capturesOf(service, key, binId);
      assert.equal(captures.length, sends.length);
      assert.equal(target.received.length, sends.length);
      assert.equal(captures[3]!.body_encoding, 'base64');
      assert.deepEqual(target.received[3]!.body, every256);
      captures.forEach((capture, i) => assertForwarded(target.received[i]!, capture, binId, '/hooks', `127.0.0.1:${target.port}`));
      const deliveries = listen.lines().slice(1);
      assert.deepEqual(
        deliveries.map((line) => line.replace(/^\d{2}:\d{2}:\d{2} {2}/, '').replace(/ {2}\d+ ms$/, '')),
        [
          'POST /text?x=1&y=%20z&flag  -> 200',
          'POST /stripe  -> 200',
          'PUT /?a=b  -> 200',
          'PATCH /upload/file.bin  -> 200',
          'GET /ping?only=query  -> 200',
          'DELETE /items/7  -> 200',
        ],
      );
      for (const line of deliveries) assert.match(line, DELIVERY_LINE);
      assert.match(listen.stderr(), /^Connecting to http:\/\/127\.0\.0\.1:\d+…\n$/);
    } finally {
      listen.child.kill('SIGINT');
      assert.equal(await listen.exited, 0);
    }
  });

  /** Listen with `--forward-to forwardTo`, send one capture to `sub`, and check where it is said and seen to arrive. */
  async function forwardsOne(forwardTo: string, sub: string, shownTarget: string, receivedUrl: string): Promise<void> {
    const listen = startCli(['listen', '--url', service.url, '--key', key, '--forward-to', forwardTo]);
    try {
      const first = await listen.waitForLine(/^Forwarding /);
      const [, catchUrl, shown] = /^Forwarding (\S+) -> (\S+)$/.exec(first)!;
      assert.equal(shown, shownTarget);
      const before = target.received.length;
      assert.equal((await fetch(`${catchUrl}${sub}`, { method: 'POST', body: forwardTo })).status, 200);
      await listen.waitForCount(DELIVERY_LINE, 1);
      const got = target.received[before]!;
      assert.deepEqual([got.method, got.url, got.body.toString()], ['POST', receivedUrl, forwardTo]);
    } finally {
      listen.child.kill('SIGINT');
      assert.equal(await listen.exited, 0);
    }
  }

  it('--forward-to PORT/path forwards to http://localhost:PORT/path', async () => {
    await forwardsOne(`${target.port}/short`, '/x?y=1', `http://localhost:${target.port}/short`, '/short/x?y=1');
  });

  it('--forward-to HOST:PORT/path with a URL in its query keeps that query', async () => {
    const forwardTo = `127.0.0.1:${target.port}/cb?next=http://x`;
    await forwardsOne(forwardTo, '/y?z=1', `http://${forwardTo}`, '/cb/y?next=http://x&z=1');
  });

  it('--bin listens on an existing bin; --json prints one object per delivery, any status counts as delivered; Ctrl+C exits 0', async () => {
    const teapot = await startTargetApp(418);
    const { json: created } = await api<{ bin: { bin_id: string }; url: string }>(service, key, 'POST', '/v1/bins', {});
    const binId = created.bin.bin_id;
    const listen = startCli(['listen', '--url', service.url, '--key', key, '--forward-to', teapot.url, '--bin', binId, '--json']);
    try {
      await new Promise<void>((resolve, reject) => {
        const check = setInterval(() => {
          if (listen.stderr().includes(`Forwarding ${created.url} -> ${teapot.url}/`)) resolve(clearInterval(check));
          if (listen.child.exitCode !== null) reject(new Error(listen.stderr()));
        }, 20);
      });
      const res = await fetch(`${created.url}/deep/er?q=1`, { method: 'POST', body: 'x' });
      const { request_id } = (await res.json()) as { request_id: string };
      await listen.waitForCount(/^\{/, 1);
      const [line] = listen.lines();
      const record = JSON.parse(line!) as Record<string, unknown>;
      assert.match(record.time as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(typeof record.elapsed_ms, 'number');
      assert.deepEqual(
        { ...record, time: 'T', elapsed_ms: 0 },
        {
          time: 'T',
          request_id,
          method: 'POST',
          path: '/deep/er?q=1',
          query_string: 'q=1',
          url: `${teapot.url}/deep/er?q=1`,
          status: 418,
          elapsed_ms: 0,
          attempts: 1,
          error: null,
        },
      );
      assert.equal(teapot.received.length, 1);
      assert.equal(teapot.received[0]!.url, '/deep/er?q=1');
    } finally {
      listen.child.kill('SIGINT');
      assert.equal(await listen.exited, 0);
      await teapot.close();
    }
    assert.match(listen.stderr(), /Stopping after the delivery in flight/);
  });

  it('a bin deleted while listening ends listen with exit 1 and says so', async () => {
    const { json: created } = await api<{ bin: { bin_id: string } }>(service, key, 'POST', '/v1/bins', {});
    const binId = created.bin.bin_id;
    const listen = startCli(['listen', '--url', service.url, '--key', key, '--forward-to', target.url, '--bin', binId]);
    await listen.waitForLine(/^Forwarding /);
    assert.equal((await api(service, key, 'DELETE', `/v1/bins/${binId}`)).status, 200);
    assert.equal(await listen.exited, 1);
    assert.match(listen.stderr(), new RegExp(`\nThe bin ${binId} was deleted: nothing more to forward\n$`));
  });
});
