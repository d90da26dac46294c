import assert from 'node:assert/strict';
import http from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN, buildTestApp, listenOnLoopback, type TestApp } from '../helpers/app.js';
import { comparable, overSocket } from '../helpers/socket-exchange.js';
import { createMock as createMockVia, hitCount as hitCountVia } from './mock-helpers.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  informational: number[];
  ms: number;
}

/** One request over a real socket; fails instead of hanging when no final answer comes in `limitMs`. */
function call(url: string, method = 'GET', limitMs = 5000): Promise<Answer> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const informational: number[] = [];
    const req = http.request(url, { method, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
          informational,
          ms: Date.now() - started,
        }),
      );
    });
    req.on('information', (info) => informational.push(info.statusCode));
    req.setTimeout(limitMs, () => req.destroy(new Error(`no final answer within ${limitMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

const countTimers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Poll `check` every 20 ms for up to `limitMs` (machines under load are slow, not wrong). */
async function waitFor(check: () => boolean, limitMs = 3000): Promise<boolean> {
  for (const end = Date.now() + limitMs; Date.now() < end; await sleep(20)) if (check()) return true;
  return check();
}

describe('mock serving over a real socket', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await buildTestApp();
    base = await listenOnLoopback(t.app);
  });
  after(() => t.close());

  const createMock = (payload: object) => createMockVia(t, payload);
  const hitCount = (id: string) => hitCountVia(t, id);

  it('an HTTP/1.0 request without Host gets absolute urls on the address it reached (never http:///)', async () => {
    const port = Number(new URL(base).port);
    for (const [path, body, key] of [
      ['/v1/mocks', '{}', 'url'],
      ['/v1/bins', '{}', 'url'],
    ] as const) {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let text = '';
        socket.on('data', (c) => (text += c));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
        socket.write(
          `POST ${path} HTTP/1.0\r\nX-Api-Key: ${t.apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        );
      });
      assert.match(answer, /^HTTP\/1\.1 201 /);
      const url = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))[key] as string;
      assert.match(url, new RegExp(`^http://127\\.0\\.0\\.1:${port}/v1/(mock|catch)/(mock|bin)_[0-9A-Za-z]{22}$`), url);
    }
  });

  it('delay_ms holds only its own request: others are answered meanwhile', async () => {
    const slow = await createMock({ delay_ms: 3000, body: 'slow' });
    const fast = await createMock({ body: 'fast' });
    let slowDone = false;
    const pending = call(`${base}/v1/mock/${slow}`).then((a) => {
      slowDone = true;
      return a;
    });
    await sleep(50);
    const quick = await Promise.all(Array.from({ length: 20 }, () => call(`${base}/v1/mock/${fast}`)));
    for (const q of quick) assert.equal(q.body, 'fast');
    assert.equal(slowDone, false, 'every fast answer arrived while the delayed one was still waiting');
    assert.equal(await hitCount(slow), 0, 'not counted before it is served');
    const answer = await pending;
    assert.equal(answer.body, 'slow');
    assert.ok(answer.ms >= 2990 && answer.ms < 6000, `delayed answer after ${answer.ms} ms`);
    assert.equal(await hitCount(slow), 1);
  });

  it('a client that disconnects during the delay frees its timer and is not counted, as a hit or in /metrics', async () => {
    const served200 = async () => {
      const text = (await t.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-admin-token': ADMIN_TOKEN } })).body;
      const line = text
        .split('\n')
        .find((l) => l.startsWith('devutil_http_requests_total{method="GET",route="/v1/mock/:mock_id",status="200"}'));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const id = await createMock({ delay_ms: 30000, body: 'never' });
    const short = await createMock({ delay_ms: 400, body: 'never either' });
    const before = await served200();
    await sleep(200);
    const baseline = countTimers();
    const sockets = [id, short].map((mockId) => {
      const socket = connect(Number(new URL(base).port), '127.0.0.1');
      socket.on('error', () => {});
      socket.write(`GET /v1/mock/${mockId} HTTP/1.1\r\nHost: x\r\n\r\n`);
      return socket;
    });
    assert.ok(await waitFor(() => countTimers() >= baseline + 2), 'both delays are pending');
    for (const s of sockets) s.destroy();
    assert.ok(await waitFor(() => countTimers() <= baseline), `timers after disconnect: ${countTimers()} (baseline ${baseline})`);
    await sleep(500);
    assert.equal(await hitCount(id), 0);
    assert.equal(await hitCount(short), 0);
    const served = await call(`${base}/v1/mock/${short}`);
    assert.equal(served.body, 'never either');
    assert.equal(await hitCount(short), 1, 'counted once, for the request that was served');
    assert.equal(await served200(), before + 1, 'only the served request is in /metrics');
  });

  it('1xx status codes never leave a client hanging: interim response (when safe) then a final 200', async () => {
    const link = { link: '</app.css>; rel=preload; as=style' };
    const cases: [number, number[], Record<string, string>][] = [
      [100, [100], {}],
      [101, [], {}],
      [102, [102], {}],
      [103, [103], link],
      [103, [], {}],
      [150, [], {}],
      [199, [], {}],
    ];
    for (const [code, interim, extra] of cases) {
      const id = await createMock({ status_code: code, body: `informational ${code}`, headers: { 'x-extra': 'kept', ...extra } });
      const answer = await call(`${base}/v1/mock/${id}`, 'POST', 3000);
      assert.equal(answer.status, 200, String(code));
      assert.equal(answer.body, `informational ${code}`);
      assert.equal(answer.headers['x-mock-status'], String(code));
      assert.equal(answer.headers['x-extra'], 'kept');
      assert.equal(answer.headers['x-mock-id'], id);
      assert.deepEqual(answer.informational, interim, String(code));
    }
  });

  it('a 1xx mock answers a raw HTTP/1.0 client with a single final response', async () => {
    const id = await createMock({ status_code: 100, body: 'done' });
    const socket = connect(Number(new URL(base).port), '127.0.0.1');
    socket.write(`GET /v1/mock/${id} HTTP/1.0\r\nHost: x\r\n\r\n`);
    const text = await new Promise<string>((resolve, reject) => {
      let data = '';
      socket.on('data', (c) => (data += c.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
      setTimeout(() => reject(new Error(`hung; got ${JSON.stringify(data)}`)), 3000).unref();
    });
    assert.match(text, /^HTTP\/1\.1 200 OK\r\n/);
    assert.equal(text.match(/HTTP\/1\.1 /g)?.length, 1);
    assert.ok(text.endsWith('\r\n\r\ndone'));
  });

  it('bytes on the wire: the body in UTF-8 with its exact Content-Length, Latin-1 header values as single bytes', async () => {
    /** The whole answer to an HTTP/1.0 GET, as bytes: head (as Latin-1 text) and body. */
    const rawGet = (id: string) =>
      new Promise<{ head: string; body: Buffer }>((resolve, reject) => {
        const socket = connect(Number(new URL(base).port), '127.0.0.1');
        socket.write(`GET /v1/mock/${id} HTTP/1.0\r\nHost: x\r\n\r\n`);
        const chunks: Buffer[] = [];
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.on('end', () => {
          const all = Buffer.concat(chunks);
          const split = all.indexOf('\r\n\r\n');
          resolve({ head: all.subarray(0, split).toString('latin1'), body: all.subarray(split + 4) });
        });
        socket.on('error', reject);
      });
    const text = 'héllo ✓ 😀, a lone surrogate: \ud800.';
    const cases = [
      { headers: {}, body: text },
      { headers: { 'x-note': 'café' }, body: text },
      { headers: {}, body: `${text}${'x'.repeat(9000)}` },
      { headers: { 'x-note': 'café' }, body: `${text}${'x'.repeat(9000)}` },
    ];
    for (const { headers, body } of cases) {
      const id = await createMock({ headers, body });
      // A lone surrogate is stored as U+FFFD, so the mock reads back as it is served (SQLite and Redis alike).
      const stored = await t.app.inject({ method: 'GET', url: `/v1/mocks/${id}`, headers: t.auth });
      assert.equal(stored.json().mock.body, body.replace('\ud800', '\ufffd'));
      const expected = Buffer.from(body, 'utf8');
      for (let hit = 0; hit < 2; hit++) {
        const { head, body: served } = await rawGet(id);
        const label = `${JSON.stringify(headers)}, ${expected.length} B, hit ${hit + 1}`;
        assert.ok(served.equals(expected), label);
        assert.match(head, new RegExp(`\r\ncontent-length: ${expected.length}\r\n`, 'i'), label);
        if (headers['x-note']) assert.match(head, /\r\nx-note: caf\xe9\r\n/, label);
      }
    }
  });

  it("the head on the wire: the mock's headers, then the serving headers, in one order on every hit", async () => {
    const id = await createMock({
      headers: { 'X-Trace': 'a b', link: '</x>; rel=preload', 'x-latin': 'caf\u00e9' },
      body: 'hi',
      content_type: 'text/plain',
    });
    const rawHead = () =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(base).port), '127.0.0.1');
        socket.write(`GET /v1/mock/${id} HTTP/1.1\r\nHost: x\r\nX-Request-Id: fixed-id.1\r\nConnection: close\r\n\r\n`);
        const chunks: Buffer[] = [];
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
        socket.on('error', reject);
      });
    for (let hit = 0; hit < 3; hit++) {
      const answer = await rawHead();
      const lines = answer.slice(0, answer.indexOf('\r\n\r\n')).split('\r\n');
      assert.deepEqual(
        lines.filter((l) => !l.startsWith('Date: ')),
        [
          'HTTP/1.1 200 OK',
          'x-trace: a b',
          'link: </x>; rel=preload',
          'x-latin: caf\xe9',
          'x-request-id: fixed-id.1',
          'x-content-type-options: nosniff',
          'content-security-policy: sandbox',
          'access-control-allow-origin: *',
          'content-type: text/plain',
          `x-mock-id: ${id}`,
          'content-length: 2',
          'Connection: close',
        ],
        `hit ${hit + 1}`,
      );
      assert.equal(answer.slice(answer.indexOf('\r\n\r\n') + 4), 'hi');
    }
    assert.equal(await hitCount(id), 3);
  });

  it('header names such as __proto__ and constructor are plain data, stored and served', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/mocks',
      headers: { ...t.auth, 'content-type': 'application/json' },
      payload: '{"headers":{"__proto__":"p","constructor":"c"},"response_body":{"__proto__":{"polluted":true}}}',
    });
    assert.equal(res.statusCode, 201);
    assert.equal(res.body.includes('"headers":{"__proto__":"p","constructor":"c"}'), true);
    const id = res.json().mock.mock_id;
    const raw = await new Promise<{ headers: string[]; body: string }>((resolve, reject) => {
      http
        .get(`${base}/v1/mock/${id}`, { agent: false }, (m) => {
          let body = '';
          m.on('data', (c) => (body += c));
          m.on('end', () => resolve({ headers: m.rawHeaders, body }));
        })
        .on('error', reject);
    });
    const pairs = new Map<string, string>();
    for (let i = 0; i < raw.headers.length; i += 2) pairs.set(raw.headers[i], raw.headers[i + 1]);
    assert.equal(pairs.get('__proto__'), 'p');
    assert.equal(pairs.get('constructor'), 'c');
    assert.equal(raw.body, '{"__proto__":{"polluted":true}}');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('HEAD, 204 and 304 over the wire carry no body bytes', async () => {
    for (const [method, status] of [
      ['HEAD', 200],
      ['GET', 204],
      ['GET', 304],
    ] as const) {
      const id = await createMock({ status_code: status, body: 'should not appear' });
      const answer = await call(`${base}/v1/mock/${id}`, method);
      assert.equal(answer.status, status);
      assert.equal(answer.body, '');
    }
  });

  it('205 Reset Content goes out with Content-Length: 0 and no body bytes, and the connection stays usable', async () => {
    const id = await createMock({ status_code: 205, body: 'should not appear' });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < 2; i++) {
        const answer = await new Promise<{ status: number; length: string | undefined; body: string }>((resolve, reject) => {
          http
            .get(`${base}/v1/mock/${id}`, { agent }, (res) => {
              let body = '';
              res.setEncoding('utf8');
              res.on('data', (c: string) => (body += c));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, length: res.headers['content-length'], body }));
            })
            .on('error', reject);
        });
        assert.deepEqual(answer, { status: 205, length: '0', body: '' });
      }
    } finally {
      agent.destroy();
    }
  });
});

describe('mock serving at shutdown', () => {
  it('a delayed mock response in flight when the server closes is still delivered', async () => {
    const t = await buildTestApp();
    const base = await listenOnLoopback(t.app);
    const res = await t.app.inject({ method: 'POST', url: '/v1/mocks', headers: t.auth, payload: { delay_ms: 500, body: 'finished' } });
    const id = res.json().mock.mock_id;
    const pending = call(`${base}/v1/mock/${id}`);
    await sleep(150);
    const closing = t.app.close();
    const answer = await pending;
    await closing;
    assert.equal(answer.status, 200);
    assert.equal(answer.body, 'finished');
    assert.equal((await t.store.mocks.getMock(id, t.clock.now()))?.hitCount, 1);
    await t.store.close();
  });
});

describe('mock serving: a request over a socket and through inject() answer alike', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await buildTestApp();
    base = await listenOnLoopback(t.app);
  });
  after(() => t.close());

  /** The same request over a socket and through inject(). */
  async function both(path: string, method = 'GET') {
    const headers = { 'x-request-id': 'same-id-1' };
    const wire = await overSocket(base, path, method, headers);
    const injected = await t.app.inject({ method: method as 'GET', url: path, headers });
    return {
      wire: comparable(wire),
      injected: comparable({ status: injected.statusCode, headers: injected.headers, body: injected.body }),
    };
  }

  it('same status, headers and body for served mocks and for every error', async () => {
    const custom = await createMockVia(t, {
      status_code: 201,
      headers: { 'x-custom': 'yes', 'access-control-allow-origin': 'https://a.example' },
      body: '{"ok":true}',
      content_type: 'application/json',
    });
    const onlyPost = await createMockVia(t, { method: 'POST', body: 'p' });
    const onPath = await createMockVia(t, { path: '/orders/1', body: 'order' });
    const informational = await createMockVia(t, { status_code: 102, body: 'after processing' });
    const empty = await createMockVia(t, { status_code: 204, body: 'never sent' });
    const cases: Array<[string, string, number]> = [
      [`/v1/mock/${custom}`, 'GET', 201],
      [`/v1/mock/${custom}/any/sub?q=1`, 'GET', 201],
      [`/v1/mock/${custom}`, 'HEAD', 201],
      [`/v1/mock/${onlyPost}`, 'GET', 405],
      [`/v1/mock/${onPath}/orders/1`, 'GET', 200],
      [`/v1/mock/${onPath}/orders/2`, 'GET', 404],
      // Percent-encoding in the path is decoded to match a mock's path; in the query it is not decoded.
      [`/v1/mock/${onPath}/orders/%31`, 'GET', 200],
      [`/v1/mock/${onPath}/orders/1?q=%31`, 'GET', 200],
      [`/v1/mock/${custom}%2Fx`, 'GET', 404],
      // An id with a character no id has is the router's too.
      [`/v1/mock/${custom}.json`, 'GET', 404],
      [`/v1/mock/${informational}`, 'GET', 200],
      [`/v1/mock/${empty}`, 'GET', 204],
      ['/v1/mock/mock_doesNotExist0000000000', 'GET', 404],
    ];
    for (const [path, method, status] of cases) {
      const { wire, injected } = await both(path, method);
      assert.equal(wire.status, status, `${method} ${path}`);
      assert.deepEqual(wire, injected, `${method} ${path}`);
      assert.equal(wire.headers['x-request-id'], 'same-id-1');
      assert.equal(wire.headers['x-content-type-options'], 'nosniff');
      assert.equal(wire.headers['content-security-policy'], 'sandbox');
    }
    // An overlong id (the router's limit is past any URL Node accepts) is an unknown mock: 404 either way.
    for (const length of [257, 4000]) {
      const { wire, injected } = await both(`/v1/mock/mock_${'m'.repeat(length)}`);
      assert.equal(wire.status, 404, `id of ${length + 5} characters`);
      assert.equal(wire.headers['content-security-policy'], 'sandbox');
      assert.deepEqual(wire, injected);
    }
  });

  it('requests over a socket are counted in /metrics under the route pattern', async () => {
    const id = await createMockVia(t, { body: 'm' });
    const count = async (route: string, status = 200) => {
      const text = (await t.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-admin-token': ADMIN_TOKEN } })).body;
      const line = text
        .split('\n')
        .find((l) => l.startsWith(`devutil_http_requests_total{method="GET",route="${route}",status="${status}"}`));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const before = [await count('/v1/mock/:mock_id'), await count('/v1/mock/:mock_id/*'), await count('/v1/mock/:mock_id', 404)];
    await call(`${base}/v1/mock/${id}`);
    await call(`${base}/v1/mock/${id}/sub`);
    await call(`${base}/v1/mock/${id}/sub/2`);
    // an error answer (an unknown mock) is counted too, under its status
    assert.equal((await overSocket(base, '/v1/mock/mock_doesnotexist000000000', 'GET', {}, '')).status, 404);
    assert.deepEqual(
      [await count('/v1/mock/:mock_id'), await count('/v1/mock/:mock_id/*'), await count('/v1/mock/:mock_id', 404)],
      [before[0] + 1, before[1] + 2, before[2] + 1],
    );
  });

  it('a request with a body over MAX_BODY_BYTES is 413 with the serving headers', async () => {
    const id = await createMockVia(t, { body: 'm' });
    const big = 'x'.repeat(t.config.maxBodyBytes + 1);
    const answer = await overSocket(base, `/v1/mock/${id}`, 'POST', { 'content-type': 'text/plain' }, big);
    assert.equal(answer.status, 413);
    assert.equal(JSON.parse(answer.body).code, 'payload_too_large');
    assert.equal(answer.headers['x-content-type-options'], 'nosniff');
    assert.equal(await hitCountVia(t, id), 0);
  });
});

describe('mock serving: a request target in absolute form (RFC 9112 §3.2.2)', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await buildTestApp();
    base = await listenOnLoopback(t.app);
  });
  after(() => t.close());

  it('reaches a mock restricted to a path, as the same request in origin form does', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/v1/mocks', headers: t.auth, payload: { path: '/orders', body: 'listed' } });
    const mockId = created.json().mock.mock_id;
    const { port } = new URL(base);
    const send = (target: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () =>
          socket.end(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`),
        );
        let out = '';
        socket.on('data', (d) => (out += d.toString('latin1')));
        socket.on('end', () => resolve(out));
        socket.on('error', reject);
      });
    const absolute = await send(`http://127.0.0.1:${port}/v1/mock/${mockId}/orders?x=1`);
    assert.match(absolute, /^HTTP\/1\.1 200 /);
    assert.match(absolute, /\r\n\r\nlisted$/);
    assert.match(await send(`http://127.0.0.1:${port}/v1/mock/${mockId}/other`), /^HTTP\/1\.1 404 /);
  });
});
