import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { closedPort, replay, seedCapture, startTarget, type TargetServer } from './replay-helpers.js';

const SECRET = 'whsec_test';
const FIFTY_MB = 50 * 1024 * 1024;

describe('replay to loopback targets that are explicitly allowed', () => {
  let t: TestApp;
  let open: TestApp;
  let echo: TargetServer;
  let redirect: TargetServer;
  let refusedAfterRedirect: TargetServer;
  let huge: TargetServer;
  let silent: TargetServer;
  let hugeBytesWritten = 0;

  before(async () => {
    echo = await startTarget((req, res) => {
      const valid = createHmac('sha256', SECRET).update(req.body).digest('hex') === req.headers['x-signature'];
      res.writeHead(201, { 'content-type': 'application/json', 'x-target': 'echo' });
      res.end(JSON.stringify({ signature_valid: valid, bytes: req.body.length }));
    });
    refusedAfterRedirect = await startTarget((_req, res) => res.end('followed'));
    redirect = await startTarget((_req, res) => {
      res.writeHead(302, { location: `http://localhost:${refusedAfterRedirect.port}/metadata` });
      res.end();
    });
    huge = await startTarget((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(FIFTY_MB) });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (hugeBytesWritten < FIFTY_MB && !res.destroyed) {
          hugeBytesWritten += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('error', () => {});
      pump();
    });
    silent = await startTarget(() => {});
    const allow = [echo, redirect, huge, silent].map((s) => `127.0.0.1:${s.port}`).join(',');
    t = await buildTestApp({ env: { REPLAY_ALLOW_HOSTS: allow } });
    open = await buildTestApp({ env: { REPLAY_ALLOW_PRIVATE: 'true' } });
  });
  after(async () => {
    for (const s of [echo, redirect, refusedAfterRedirect, huge, silent]) await s.close();
    await t.close();
    await open.close();
  });

  it('sends the body bytes exactly (binary), so a signature over them still verifies', async () => {
    const body = Buffer.concat([randomBytes(4096), Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x0d, 0x0a])]);
    const signature = createHmac('sha256', SECRET).update(body).digest('hex');
    const seeded = await seedCapture(t, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/octet-stream',
        'x-signature': signature,
        connection: 'keep-alive, x-private-hop',
        'x-private-hop': '1',
        'keep-alive': 'timeout=5',
        host: 'old.example',
        'user-agent': 'Stripe/1.0',
      },
    });
    const res = await replay(t, seeded, { target_url: `${echo.url}/hooks/stripe?attempt=2` });
    assert.equal(res.statusCode, 200);
    const result = res.json();
    assert.equal(result.replayed_to, `${echo.url}/hooks/stripe?attempt=2`);
    assert.equal(result.response_status, 201);
    assert.deepEqual(JSON.parse(result.response_body), { signature_valid: true, bytes: body.length });
    assert.equal(result.response_headers['x-target'], 'echo');
    assert.equal(result.response_truncated, false);
    assert.equal(typeof result.elapsed_ms, 'number');
    assert.ok(result.elapsed_ms > 0 && result.elapsed_ms < 5000);

    const got = echo.received.at(-1)!;
    assert.equal(got.method, 'POST');
    assert.equal(got.url, '/hooks/stripe?attempt=2');
    assert.ok(got.body.equals(body));
    assert.equal(got.headers['content-length'], String(body.length));
    assert.equal(got.headers.host, `127.0.0.1:${echo.port}`);
    assert.equal(got.headers['user-agent'], 'Stripe/1.0');
    assert.equal(got.headers['x-signature'], signature);
    assert.equal(got.headers['keep-alive'], undefined);
    assert.equal(got.headers['x-private-hop'], undefined);
  });

  it('method override and headers merged over the captured ones (names case-insensitive)', async () => {
    const seeded = await seedCapture(t, { method: 'POST', headers: { 'content-type': 'application/json', 'x-env': 'prod' } });
    const res = await replay(t, seeded, { target_url: echo.url, method: 'put', headers: { 'X-Env': 'staging', 'x-added': 'yes' } });
    assert.equal(res.statusCode, 200);
    const got = echo.received.at(-1)!;
    assert.equal(got.method, 'PUT');
    assert.equal(got.headers['x-env'], 'staging');
    assert.equal(got.headers['x-added'], 'yes');
    assert.equal(got.body.toString(), '{"event":"ping"}');
  });

  it('a redirect is reported, not followed (even towards a refused address)', async () => {
    const seeded = await seedCapture(t);
    const res = await replay(t, seeded, { target_url: `${redirect.url}/start` });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().response_status, 302);
    assert.equal(res.json().response_headers.location, `http://localhost:${refusedAfterRedirect.port}/metadata`);
    assert.equal(refusedAfterRedirect.received.length, 0);
  });

  it('a 50 MB answer is cut at 10240 bytes and the connection dropped (memory bounded)', async () => {
    const seeded = await seedCapture(t, { method: 'GET', body: Buffer.alloc(0) });
    const heapBefore = process.memoryUsage().heapUsed;
    const res = await replay(t, seeded, { target_url: `${huge.url}/big` });
    assert.equal(res.statusCode, 200);
    const result = res.json();
    assert.equal(result.response_status, 200);
    assert.equal(result.response_truncated, true);
    assert.equal(result.response_body, 'a'.repeat(10240));
    assert.equal(result.response_headers['content-length'], String(FIFTY_MB));
    assert.ok(process.memoryUsage().heapUsed - heapBefore < 20 * 1024 * 1024, 'heap grew by less than 20 MB');
    await new Promise((r) => setTimeout(r, 100));
    assert.ok(hugeBytesWritten < FIFTY_MB, `target could only write ${hugeBytesWritten} bytes before the replay hung up`);
  });

  it('a closed port → 502 upstream_error', async () => {
    const seeded = await seedCapture(open);
    const res = await replay(open, seeded, { target_url: `http://127.0.0.1:${await closedPort()}/` });
    assert.equal(res.statusCode, 502);
    assert.equal(res.json().code, 'upstream_error');
    assert.match(res.json().detail, /ECONNREFUSED/);
  });

  it('REPLAY_ALLOW_PRIVATE lets a loopback target through (any loopback form)', async () => {
    const seeded = await seedCapture(open);
    const res = await replay(open, seeded, { target_url: `http://2130706433:${echo.port}/private` });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().response_status, 201);
    assert.equal(echo.received.at(-1)!.url, '/private');
  });

  it('a host allowed on one port is still refused on another', async () => {
    const seeded = await seedCapture(t);
    const res = await replay(t, seeded, { target_url: `http://127.0.0.1:${refusedAfterRedirect.port}/` });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'target_not_allowed');
  });

  it('a target that never answers → 504 upstream_timeout after 10 s', async () => {
    const seeded = await seedCapture(t);
    const started = Date.now();
    const res = await replay(t, seeded, { target_url: `${silent.url}/slow` });
    const took = Date.now() - started;
    assert.equal(res.statusCode, 504);
    assert.equal(res.json().code, 'upstream_timeout');
    assert.ok(took >= 9_900 && took < 12_000, `took ${took} ms`);
  });
});
