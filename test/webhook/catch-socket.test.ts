import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN, buildTestApp, listenOnLoopback, type TestApp } from '../helpers/app.js';
import { comparable, overSocket } from '../helpers/socket-exchange.js';

describe('catch: a request over a socket and through inject() answer and store alike', () => {
  let t: TestApp;
  let base: string;
  let binId: string;
  before(async () => {
    t = await buildTestApp({ env: { MAX_BODY_BYTES: '1000' } });
    base = await listenOnLoopback(t.app);
    binId = (await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} })).json().bin.bin_id;
  });
  after(() => t.close());

  const newest = async () => {
    const list = (await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests?limit=1`, headers: t.auth })).json();
    const id = list.requests[0].request_id;
    const { request } = (await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests/${id}`, headers: t.auth })).json();
    return {
      total: list.total,
      method: request.method,
      path: request.path,
      query: request.query_string,
      body: request.body,
      type: request.headers['content-type'] ?? null,
    };
  };

  it('same status, headers, body and stored capture for every kind of request and error', async () => {
    const cases: Array<{ path: string; method: string; headers?: Record<string, string>; body?: string; status: number }> = [
      {
        path: `/v1/catch/${binId}`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"event":"paid"}',
        status: 200,
      },
      {
        path: `/v1/catch/${binId}/hooks/stripe?a=1&b=%20`,
        method: 'PUT',
        headers: { 'content-type': 'garbage' },
        body: 'raw text',
        status: 200,
      },
      { path: `/v1/catch/${binId}`, method: 'GET', status: 200 },
      { path: `/v1/catch/${binId}`, method: 'GET', headers: { 'content-type': 'text/plain' }, body: 'a GET body', status: 200 },
      { path: `/v1/catch/${binId}`, method: 'HEAD', status: 200 },
      { path: `/v1/catch/${binId}`, method: 'PURGE', status: 200 },
      {
        path: `/v1/catch/${binId}`,
        method: 'OPTIONS',
        headers: { 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-sig' },
        status: 200,
      },
      { path: `/v1/catch/${binId}`, method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(1001), status: 413 },
      { path: '/v1/catch/bin_doesNotExist000000000000', method: 'POST', body: 'x', status: 404 },
    ];
    for (const c of cases) {
      const headers = { 'x-request-id': 'same-id-2', ...c.headers };
      const label = `${c.method} ${c.path} ${c.body ?? '(no body)'}`;
      const wire = await overSocket(base, c.path, c.method, headers, c.body);
      const storedWire = c.status === 200 ? await newest() : null;
      const injected = await t.app.inject({ method: c.method as 'GET', url: c.path, headers, payload: c.body });
      const storedInjected = c.status === 200 ? await newest() : null;
      assert.equal(wire.status, c.status, label);
      assert.deepEqual(
        comparable(wire),
        comparable({ status: injected.statusCode, headers: injected.headers, body: injected.body }),
        label,
      );
      assert.equal(wire.headers['x-request-id'], 'same-id-2', label);
      assert.equal(wire.headers['access-control-allow-origin'], '*', label);
      if (storedWire && storedInjected) {
        assert.deepEqual({ ...storedWire, total: storedWire.total + 1 }, storedInjected, label);
        assert.equal(storedWire.body, c.body ?? '', label);
      }
    }
  });
});

describe('catch: a request target in absolute form (RFC 9112 §3.2.2)', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await buildTestApp({ env: { TRUST_PROXY: 'false' } });
    base = await listenOnLoopback(t.app);
  });
  after(() => t.close());

  it('is stored with its path and query, without scheme and authority', async () => {
    const binId = (await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} })).json().bin.bin_id;
    const { port } = new URL(base);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.end(
          `GET http://127.0.0.1:${port}/v1/catch/${binId}/abs?x=1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
        ),
      );
      let out = '';
      socket.on('data', (d) => (out += d.toString('latin1')));
      socket.on('end', () => resolve(out));
      socket.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1\.1 200 /);
    const list = (await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests`, headers: t.auth })).json();
    assert.deepEqual([list.requests[0].path, list.requests[0].query_string], [`/v1/catch/${binId}/abs`, 'x=1']);
  });
});

describe('catch: CONNECT, which Node hands to the server rather than to a route', () => {
  let t: TestApp;
  let port: number;
  let binId: string;
  before(async () => {
    t = await buildTestApp({ env: { MAX_BODY_BYTES: '1000' } });
    port = Number(new URL(await listenOnLoopback(t.app)).port);
    binId = (await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} })).json().bin.bin_id;
  });
  after(() => t.close());

  /** Raw bytes in, the whole answer out (the server closes the connection after it). */
  const raw = (text: string, chunks: string[] = []) =>
    new Promise<{ status: number; headers: Record<string, string>; body: string }>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      socket.write(text);
      for (const [i, chunk] of chunks.entries()) setTimeout(() => socket.write(chunk), 50 * (i + 1));
      let all = '';
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => (all += c));
      socket.on('end', () => {
        const [head, body] = [all.slice(0, all.indexOf('\r\n\r\n')), all.slice(all.indexOf('\r\n\r\n') + 4)];
        const [status, ...lines] = head.split('\r\n');
        const headers = Object.fromEntries(
          lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
        );
        resolve({ status: Number(status!.split(' ')[1]), headers, body });
      });
      socket.on('error', reject);
      setTimeout(() => reject(new Error(`no answer: ${JSON.stringify(all)}`)), 5000).unref();
    });
  const requests = async () => (await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests`, headers: t.auth })).json();
  /** The CONNECT lines of /metrics: `route status` → count. */
  const connectCounts = async () => {
    const text = (await t.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-admin-token': ADMIN_TOKEN } })).body;
    const counts: Record<string, number> = {};
    for (const m of text.matchAll(/^devutil_http_requests_total\{method="CONNECT",route="([^"]+)",status="(\d+)"\} (\d+)$/gm))
      counts[`${m[1]} ${m[2]}`] = Number(m[3]);
    return counts;
  };
  /** The lines that grew since `before`, by how much. */
  const countsSince = (before: Record<string, number>, after: Record<string, number>) =>
    Object.fromEntries(Object.entries(after).flatMap(([k, n]) => (n > (before[k] ?? 0) ? [[k, n - (before[k] ?? 0)]] : [])));

  it('is captured like any method, its Content-Length body too, and answered with the catch 200 before the connection closes', async () => {
    const countedBefore = await connectCounts();
    const answer = await raw(
      `CONNECT /v1/catch/${binId}/tunnel?x=1 HTTP/1.1\r\nHost: h\r\nX-Request-Id: conn-1\r\nContent-Length: 10\r\n\r\nhello`,
      [' worl', 'd'],
    );
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['x-request-id'], 'conn-1');
    assert.equal(answer.headers['access-control-allow-origin'], '*');
    assert.equal(answer.headers['content-security-policy'], 'sandbox');
    assert.equal(answer.headers.connection, 'close');
    const body = JSON.parse(answer.body);
    assert.deepEqual(Object.keys(body), ['ok', 'bin_id', 'request_id']);
    assert.equal(body.bin_id, binId);
    const list = await requests();
    assert.equal(list.total, 1);
    const { request } = (
      await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests/${body.request_id}`, headers: t.auth })
    ).json();
    assert.equal(request.method, 'CONNECT');
    assert.equal(request.path, `/v1/catch/${binId}/tunnel`);
    assert.equal(request.query_string, 'x=1');
    assert.equal(request.body, 'hello worl');
    assert.equal(request.content_length, 10);
    assert.equal(request.source_ip, '127.0.0.1');
    // Counted in /metrics under the route pattern the other methods use.
    assert.deepEqual(countsSince(countedBefore, await connectCounts()), { '/v1/catch/:bin_id/* 200': 1 });
  });

  it('an unknown bin or another path is a 404, a body over MAX_BODY_BYTES a 413, and nothing is stored', async () => {
    const before = (await requests()).total;
    const countedBefore = await connectCounts();
    const unknown = await raw('CONNECT /v1/catch/bin_doesNotExist000000000000 HTTP/1.1\r\nHost: h\r\n\r\n');
    assert.equal(unknown.status, 404);
    assert.equal(JSON.parse(unknown.body).code, 'not_found');
    const elsewhere = await raw('CONNECT example.test:443 HTTP/1.1\r\nHost: example.test:443\r\n\r\n');
    assert.equal(elsewhere.status, 404);
    assert.equal(JSON.parse(elsewhere.body).code, 'not_found');
    const large = await raw(`CONNECT /v1/catch/${binId} HTTP/1.1\r\nHost: h\r\nContent-Length: 1001\r\n\r\n`);
    assert.equal(large.status, 413);
    assert.equal(JSON.parse(large.body).code, 'payload_too_large');
    assert.equal((await requests()).total, before);
    assert.deepEqual(countsSince(countedBefore, await connectCounts()), {
      '/v1/catch/:bin_id 404': 1,
      'unmatched 404': 1,
      '/v1/catch/:bin_id 413': 1,
    });
  });
});

describe('catch: CONNECT connections are bounded like any other', () => {
  /**
   * A raw client that keeps its side open (allowHalfOpen). Once the server ends its side, the client
   * writes: a server that closed the socket answers with a reset (`released`), one that only
   * half-closed it would keep reading.
   */
  const halfOpen = (port: number, text: string) =>
    new Promise<{ data: string; closedAfterMs: number; released: boolean }>((resolve) => {
      const started = Date.now();
      const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
      socket.write(text);
      let data = '';
      let closedAfterMs = -1;
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => (data += c));
      socket.on('end', () => {
        closedAfterMs = Date.now() - started;
        // The first byte draws the reset; the write after it fails (the read side has ended, so only a write sees it).
        setTimeout(() => socket.write('x'), 50);
        setTimeout(() => socket.write('y'), 400);
        setTimeout(() => {
          socket.destroy();
          resolve({ data, closedAfterMs, released: false });
        }, 1500);
      });
      socket.on('error', () => resolve({ data, closedAfterMs, released: true }));
    });

  it('the server closes the connection after its answer even when the client keeps its side open', async () => {
    const t = await buildTestApp();
    try {
      const port = Number(new URL(await listenOnLoopback(t.app)).port);
      const binId = (await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} })).json().bin.bin_id;
      const seen = await halfOpen(port, `CONNECT /v1/catch/${binId} HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n`);
      assert.match(seen.data, /^HTTP\/1\.1 200 OK\r\n/);
      assert.ok(seen.closedAfterMs >= 0 && seen.closedAfterMs < 2000, `closed after ${seen.closedAfterMs} ms`);
      assert.equal(seen.released, true, 'the server closed its socket, not just its side');
    } finally {
      await t.close();
    }
  });

  it('a body that never arrives in full gets 408 within the deadline, and app.close() does not wait for a CONNECT still sending', async () => {
    const t = await buildTestApp();
    const port = Number(new URL(await listenOnLoopback(t.app)).port);
    const binId = (await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} })).json().bin.bin_id;
    const short = await halfOpen(port, `CONNECT /v1/catch/${binId} HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\nhello`);
    assert.match(short.data, /^HTTP\/1\.1 408 /);
    assert.equal(JSON.parse(short.data.slice(short.data.indexOf('\r\n\r\n') + 4)).code, 'request_timeout');
    assert.ok(short.closedAfterMs >= 9500 && short.closedAfterMs < 12000, `closed after ${short.closedAfterMs} ms`);
    // Another one still sending when the app closes: it is cut, and close() returns promptly.
    const pending = halfOpen(port, `CONNECT /v1/catch/${binId} HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\nhel`);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await t.close();
    assert.ok(Date.now() - started < 3000, `close took ${Date.now() - started} ms`);
    assert.equal((await pending).data, '');
  });

  it('TRUST_PROXY (a list of proxies) gives CONNECT the same source_ip as other methods', async () => {
    const t = await buildTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      const port = Number(new URL(await listenOnLoopback(t.app)).port);
      const binId = (await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} })).json().bin.bin_id;
      await halfOpen(
        port,
        `CONNECT /v1/catch/${binId} HTTP/1.1\r\nHost: h\r\nX-Forwarded-For: 203.0.113.9, 127.0.0.1\r\nContent-Length: 0\r\n\r\n`,
      );
      const list = (await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests`, headers: t.auth })).json();
      assert.deepEqual(
        list.requests.map((r: { method: string; source_ip: string }) => [r.method, r.source_ip]),
        [['CONNECT', '203.0.113.9']],
      );
    } finally {
      await t.close();
    }
  });

  it('a process without the webhook area answers CONNECT 404 instead of dropping it', async () => {
    const t = await buildTestApp({ env: { AREAS: 'devtools' } });
    try {
      const port = Number(new URL(await listenOnLoopback(t.app)).port);
      const seen = await halfOpen(port, 'CONNECT /v1/catch/bin_x HTTP/1.1\r\nHost: h\r\n\r\n');
      assert.match(seen.data, /^HTTP\/1\.1 404 /);
      assert.equal(JSON.parse(seen.data.slice(seen.data.indexOf('\r\n\r\n') + 4)).code, 'not_found');
      const metrics = (await t.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-admin-token': ADMIN_TOKEN } })).body;
      assert.ok(metrics.split('\n').includes('devutil_http_requests_total{method="CONNECT",route="unmatched",status="404"} 1'), metrics);
    } finally {
      await t.close();
    }
  });
});
