import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, listenOnLoopback, type TestApp } from '../helpers/app.js';

/** A fetch response body as loosely typed JSON (tests assert its shape). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function jsonOf(res: Response): Promise<any> {
  return res.json();
}

const SECURITY_HEADERS = {
  'access-control-allow-origin': '*',
  'x-content-type-options': 'nosniff',
  'content-security-policy': 'sandbox',
};

async function createBin(t: TestApp): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} });
  return res.json().bin.bin_id;
}

async function detail(t: TestApp, binId: string, requestId: string) {
  const res = await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests/${requestId}`, headers: t.auth });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().request;
}

async function listTotal(t: TestApp, binId: string): Promise<number> {
  return (await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests`, headers: t.auth })).json().total;
}

/** Send bytes as written on a raw socket and return the response head and body text. */
function rawExchange(base: string, text: string): Promise<string> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(text));
    let out = '';
    socket.on('data', (d) => (out += d.toString('latin1')));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
}

function assertSecurityHeaders(headers: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) assert.equal(headers[name], value, name);
}

describe('catch: what is stored', () => {
  let t: TestApp;
  let binId: string;
  before(async () => {
    t = await buildTestApp({ env: { AREAS: 'webhook' } });
    binId = await createBin(t);
  });
  after(() => t.close());

  it('a sub-path with percent-encoded octets that are not UTF-8 (RFC 3986 allows any) is captured as sent, with the catch headers; other routes keep the 400', async () => {
    for (const sub of ['%ff', '50%', '%C0%AF/x']) {
      const res = await t.app.inject({ method: 'POST', url: `/v1/catch/${binId}/${sub}?q=%ff`, payload: 'x' });
      assert.equal(res.statusCode, 200, `${sub}: ${res.body}`);
      assertSecurityHeaders(res.headers);
      const r = await detail(t, binId, res.json().request_id);
      assert.deepEqual([r.path, r.query_string, r.body], [`/v1/catch/${binId}/${sub}`, 'q=%ff', 'x']);
    }
    const unknown = await t.app.inject({ method: 'POST', url: '/v1/catch/bin_nope/%ff', payload: 'x' });
    assert.deepEqual([unknown.statusCode, unknown.json().code], [404, 'not_found']);
    assertSecurityHeaders(unknown.headers);
    const other = await t.app.inject({ method: 'GET', url: '/v1/bins/%ff', headers: t.auth });
    assert.deepEqual([other.statusCode, other.json().code], [400, 'bad_request']);
  });

  it('a JSON POST to a sub-path is stored with method, full path, raw query, headers, exact body, content type', async () => {
    const body = '{"event":"paid",  "amount": 10.50}\n';
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/catch/${binId}/stripe/events?a=1&a=2&b=%20x&empty`,
      headers: { 'Content-Type': 'application/json', 'X-Signature': 't=1,v1=abc' },
      payload: body,
    });
    assert.equal(res.statusCode, 200);
    const ack = res.json();
    assert.deepEqual(Object.keys(ack), ['ok', 'bin_id', 'request_id']);
    assert.equal(ack.ok, true);
    assert.equal(ack.bin_id, binId);
    // On SQLite, the request's number in its bin in 6 base62 digits (it is found by its key), then 22 random.
    assert.match(ack.request_id, /^req_[0-9A-Za-z]{6}[0-9A-Za-z]{22}[0-9a-f]{6}$/);
    assertSecurityHeaders(res.headers);
    const r = await detail(t, binId, ack.request_id);
    assert.deepEqual(Object.keys(r).sort(), [
      'bin_id',
      'body',
      'body_encoding',
      'content_length',
      'content_type',
      'headers',
      'method',
      'path',
      'query_string',
      'request_id',
      'source_ip',
      'timestamp',
    ]);
    assert.equal(r.method, 'POST');
    assert.equal(r.path, `/v1/catch/${binId}/stripe/events`);
    assert.equal(r.query_string, 'a=1&a=2&b=%20x&empty');
    assert.equal(r.body, body, 'not re-serialized');
    assert.equal(r.body_encoding, 'utf8');
    assert.equal(r.content_length, Buffer.byteLength(body));
    assert.equal(r.content_type, 'application/json');
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(r.headers['x-signature'], 't=1,v1=abc');
    assert.equal(r.source_ip, '127.0.0.1');
    assert.match(r.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    const number = [...ack.request_id.slice(4, 10)].reduce((n: number, c: string) => n * 62 + base62.indexOf(c), 0);
    const bin = (await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}`, headers: t.auth })).json().bin;
    assert.equal(number, bin.request_count, "the id carries the request's number in its bin (the latest capture)");
  });

  it('binary bodies are stored byte for byte and returned as base64', async () => {
    const bytes = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v1/catch/${binId}`,
      headers: { 'content-type': 'application/octet-stream' },
      payload: bytes,
    });
    const r = await detail(t, binId, res.json().request_id);
    assert.equal(r.body_encoding, 'base64');
    assert.deepEqual(Buffer.from(r.body, 'base64'), bytes);
    assert.equal(r.content_length, 512);
    assert.deepEqual((await t.store.bins.getRequest(binId, r.request_id))!.body, bytes);
  });

  it('a gzipped JSON body is captured as sent (compressed bytes, Content-Encoding kept), not refused', async () => {
    const bytes = gzipSync(JSON.stringify({ event: 'push' }));
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/catch/${binId}`,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: bytes,
    });
    assert.equal(res.statusCode, 200);
    const r = await detail(t, binId, res.json().request_id);
    assert.equal(r.headers['content-encoding'], 'gzip');
    assert.deepEqual(Buffer.from(r.body, 'base64'), bytes);
  });

  it('invalid UTF-8 (a Latin-1 é) comes back as base64; valid multi-byte UTF-8 as text', async () => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9]);
    const bad = await t.app.inject({
      method: 'POST',
      url: `/v1/catch/${binId}`,
      headers: { 'content-type': 'text/plain' },
      payload: latin1,
    });
    const r1 = await detail(t, binId, bad.json().request_id);
    assert.deepEqual([r1.body, r1.body_encoding, r1.content_length], [latin1.toString('base64'), 'base64', 4]);
    const good = await t.app.inject({
      method: 'POST',
      url: `/v1/catch/${binId}`,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      payload: 'café 🎉',
    });
    const r2 = await detail(t, binId, good.json().request_id);
    assert.deepEqual([r2.body, r2.body_encoding, r2.content_length, r2.content_type], ['café 🎉', 'utf8', 10, 'text/plain; charset=utf-8']);
  });

  for (const [label, headers, body] of [
    ['without a content type', {}, 'plain bytes'],
    ['with a malformed content type', { 'content-type': 'garbage' }, 'still kept'],
    ['as a form', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1&b=%C3%A9'],
    [
      'as multipart',
      { 'content-type': 'multipart/form-data; boundary=XyZ' },
      '--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--XyZ--\r\n',
    ],
    ['as broken JSON', { 'content-type': 'application/json' }, '{"a":'],
  ] as const) {
    it(`a body ${label} is captured as received`, async () => {
      const res = await t.app.inject({ method: 'POST', url: `/v1/catch/${binId}`, headers, payload: body });
      assert.equal(res.statusCode, 200);
      const r = await detail(t, binId, res.json().request_id);
      assert.equal(r.body, body);
      assert.equal(r.content_type, (headers as Record<string, string>)['content-type'] ?? '');
    });
  }

  for (const method of ['GET', 'DELETE', 'PATCH', 'PURGE', 'PROPFIND', 'REPORT', 'MKCOL', 'LOCK']) {
    it(`${method} is captured with its method and body`, async () => {
      const res = await t.app.inject({
        method: method as 'GET',
        url: `/v1/catch/${binId}/m?x=${method}`,
        headers: { 'content-type': 'text/plain' },
        payload: `body of ${method}`,
      });
      assert.equal(res.statusCode, 200, res.body);
      const r = await detail(t, binId, res.json().request_id);
      assert.deepEqual([r.method, r.body, r.query_string], [method, `body of ${method}`, `x=${method}`]);
    });
  }

  it('HEAD is captured and answered 200 with the catch headers and no body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: `/v1/catch/${binId}/h` });
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, '');
    assertSecurityHeaders(res.headers);
    const list = (await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests?limit=1`, headers: t.auth })).json();
    assert.deepEqual(
      [list.requests[0].method, list.requests[0].path, list.requests[0].content_length],
      ['HEAD', `/v1/catch/${binId}/h`, 0],
    );
  });

  it('a CORS preflight is captured and allows the requested method and headers', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: `/v1/catch/${binId}`,
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type, x-sig',
      },
    });
    assert.equal(res.statusCode, 200);
    assertSecurityHeaders(res.headers);
    assert.equal(res.headers['access-control-allow-methods'], 'PUT');
    assert.equal(res.headers['access-control-allow-headers'], 'content-type, x-sig');
    const r = await detail(t, binId, res.json().request_id);
    assert.equal(r.method, 'OPTIONS');
    assert.equal(r.headers.origin, 'https://app.example');
  });

  it('a 404 from the catch path still carries the catch headers', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/catch/bin_unknown/x', payload: 'x' });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().code, 'not_found');
    assertSecurityHeaders(res.headers);
  });
});

describe('catch: limits', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { AREAS: 'webhook', MAX_BODY_BYTES: '64', BIN_MAX_REQUESTS: '3' } });
  });
  after(() => t.close());

  it('a body of MAX_BODY_BYTES is stored; MAX_BODY_BYTES + 1 is 413 with nothing stored', async () => {
    const binId = await createBin(t);
    const ok = await t.app.inject({
      method: 'POST',
      url: `/v1/catch/${binId}`,
      headers: { 'content-type': 'text/plain' },
      payload: 'a'.repeat(64),
    });
    assert.equal(ok.statusCode, 200);
    for (const headers of [{ 'content-type': 'text/plain' }, {}]) {
      const big = await t.app.inject({ method: 'POST', url: `/v1/catch/${binId}`, headers, payload: 'a'.repeat(65) });
      assert.equal(big.statusCode, 413);
      assert.equal(big.json().code, 'payload_too_large');
      assertSecurityHeaders(big.headers);
    }
    const getBody = await t.app.inject({ method: 'GET', url: `/v1/catch/${binId}`, payload: 'a'.repeat(65) });
    assert.equal(getBody.statusCode, 413, 'a body sent with GET is limited too');
    assert.equal(await listTotal(t, binId), 1);
    const bin = (await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}`, headers: t.auth })).json().bin;
    assert.equal(bin.request_count, 1);
  });

  it('a chunked body over the limit (no content-length) is 413 over a real socket, nothing stored', async () => {
    const binId = await createBin(t);
    const base = await listenOnLoopback(t.app);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${base}/v1/catch/${binId}`, { method: 'POST', headers: { 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.write('a'.repeat(40));
      req.end('b'.repeat(40));
    });
    assert.equal(status, 413);
    assert.equal(await listTotal(t, binId), 0);
  });

  it('BIN_MAX_REQUESTS keeps the newest requests; request_count still counts every capture', async () => {
    const binId = await createBin(t);
    for (let i = 1; i <= 5; i++) {
      const res = await t.app.inject({ method: 'POST', url: `/v1/catch/${binId}`, payload: `n${i}` });
      assert.equal(res.statusCode, 200);
    }
    const list = (await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests`, headers: t.auth })).json();
    assert.equal(list.total, 3);
    const bodies = [];
    for (const s of list.requests) bodies.push((await detail(t, binId, s.request_id)).body);
    assert.deepEqual(bodies, ['n5', 'n4', 'n3']);
    const bin = (await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}`, headers: t.auth })).json().bin;
    assert.equal(bin.request_count, 5);
  });
});

describe('catch: MAX_BODY_BYTES above the 2 MiB JSON limit', () => {
  it('the catch path honours its own limit, not the JSON one', async () => {
    const t = await buildTestApp({ env: { AREAS: 'webhook', MAX_BODY_BYTES: String(3 * 1024 * 1024) } });
    try {
      const binId = await createBin(t);
      for (const [size, status] of [
        [3 * 1024 * 1024, 200],
        [3 * 1024 * 1024 + 1, 413],
      ] as const) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/v1/catch/${binId}`,
          headers: { 'content-type': 'application/json' },
          payload: Buffer.alloc(size, 0x20),
        });
        assert.equal(res.statusCode, status, `${size} bytes`);
      }
      assert.equal(await listTotal(t, binId), 1);
    } finally {
      await t.close();
    }
  });
});

describe('catch: headers and source address over a real socket', () => {
  it('repeated headers are joined with ", ", names lower-cased, odd names kept as data', async () => {
    const t = await buildTestApp({ env: { AREAS: 'webhook' } });
    try {
      const binId = await createBin(t);
      const base = await listenOnLoopback(t.app);
      const body = 'hello';
      const answer = await rawExchange(
        base,
        [
          `POST /v1/catch/${binId}/raw?z=%2F HTTP/1.1`,
          'Host: 127.0.0.1',
          'X-Dup: one',
          'x-dup: two',
          'X-DUP: three',
          '__proto__: polluted?',
          'Constructor: c',
          'Connection: close',
          `Content-Length: ${body.length}`,
          '',
          body,
        ].join('\r\n'),
      );
      assert.match(answer, /^HTTP\/1\.1 200 /);
      const requestId = /"request_id":"(req_\w+)"/.exec(answer)![1];
      const r = await detail(t, binId, requestId);
      assert.equal(r.headers['x-dup'], 'one, two, three');
      assert.equal(r.headers.constructor, 'c');
      assert.ok(Object.hasOwn(r.headers, '__proto__'), 'the __proto__ header is an own entry');
      assert.equal(Object.getOwnPropertyDescriptor(r.headers, '__proto__')!.value, 'polluted?');
      assert.equal(r.headers.host, '127.0.0.1');
      assert.equal(r.query_string, 'z=%2F');
      assert.equal(r.body, body);
    } finally {
      await t.close();
    }
  });

  it('source_ip is the socket address unless TRUST_PROXY is set, then the first X-Forwarded-For hop', async () => {
    for (const [env, expected] of [
      [{}, '127.0.0.1'],
      [{ TRUST_PROXY: 'true' }, '203.0.113.9'],
    ] as const) {
      const t = await buildTestApp({ env: { AREAS: 'webhook', ...env } });
      try {
        const binId = await createBin(t);
        const base = await listenOnLoopback(t.app);
        const res = await fetch(`${base}/v1/catch/${binId}`, {
          method: 'POST',
          headers: { 'x-forwarded-for': '203.0.113.9, 10.0.0.1' },
          body: 'x',
        });
        const r = await detail(t, binId, (await jsonOf(res)).request_id);
        assert.equal(r.source_ip, expected);
      } finally {
        await t.close();
      }
    }
  });

  it('under TRUST_PROXY a first hop with a port loses it, and one that is not an IP address falls back to the socket address', async () => {
    const t = await buildTestApp({ env: { AREAS: 'webhook', TRUST_PROXY: 'true' } });
    try {
      const binId = await createBin(t);
      const base = await listenOnLoopback(t.app);
      const cases: [string, string][] = [
        ['203.0.113.9:5678', '203.0.113.9'],
        ['[2001:db8::7]:443', '2001:db8::7'],
        ['2001:db8::7', '2001:db8::7'],
        ['garbage<script>', '127.0.0.1'],
        ['unknown, 203.0.113.9', '127.0.0.1'],
      ];
      for (const [forwarded, expected] of cases) {
        const res = await fetch(`${base}/v1/catch/${binId}`, { method: 'POST', headers: { 'x-forwarded-for': forwarded }, body: 'x' });
        const r = await detail(t, binId, (await jsonOf(res)).request_id);
        assert.equal(r.source_ip, expected, forwarded);
      }
    } finally {
      await t.close();
    }
  });
});
