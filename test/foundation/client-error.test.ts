// Requests Node's HTTP parser refuses never reach a route: they are still answered in the CONTRACT
// §0 shape ({detail, code}) with an X-Request-Id, on a real socket (loopback only).
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, listenOnLoopback, type TestApp } from '../helpers/app.js';

/** Send raw bytes and collect everything the server writes until it closes the connection. */
function exchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(bytes));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => resolve(text));
    socket.on('error', (err) => (text ? resolve(text) : reject(err)));
  });
}

/** Status line, headers (lower-cased names) and JSON body of a raw answer. */
function parse(raw: string): { status: string; headers: Record<string, string>; body: unknown } {
  const [head, body] = raw.split('\r\n\r\n');
  const [status, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status, headers, body: JSON.parse(body) };
}

describe('requests the HTTP parser refuses', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await buildTestApp();
    port = Number(new URL(await listenOnLoopback(t.app)).port);
  });
  after(() => t.close());

  it('a malformed request line (lower-case method) → 400 bad_request in the contract shape', async () => {
    const answer = parse(await exchange(port, 'post /v1/catch/bin_x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
    assert.equal(answer.status, 'HTTP/1.1 400 Bad Request');
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
    assert.match(answer.headers['x-request-id'], /^\S+$/);
    assert.equal(answer.headers.connection, 'close');
    assert.deepEqual(answer.body, {
      detail: 'The request is not valid HTTP/1.1 (request line or headers malformed).',
      code: 'bad_request',
    });
  });

  it('a header line without a colon → 400 bad_request', async () => {
    const answer = parse(await exchange(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nnot a header\r\n\r\n'));
    assert.equal(answer.status, 'HTTP/1.1 400 Bad Request');
    assert.equal((answer.body as { code: string }).code, 'bad_request');
  });

  it('headers over 16 KiB → 431 headers_too_large', async () => {
    const answer = parse(await exchange(port, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
    assert.equal(answer.status, 'HTTP/1.1 431 Request Header Fields Too Large');
    assert.match(answer.headers['x-request-id'], /^\S+$/);
    assert.deepEqual(answer.body, { detail: 'The request headers are larger than the limit (16 KiB).', code: 'headers_too_large' });
  });

  it('garbage after a request whose answer is already streaming closes the connection instead of writing into that answer', async () => {
    const bin = (await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} })).json().bin.bin_id;
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(`GET /v1/bins/${bin}/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${t.apiKey}\r\n\r\n`),
      );
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('\r\n\r\n') && !text.includes('GARBAGE-SENT')) {
          text += 'GARBAGE-SENT';
          socket.write('GARBAGE \x01\r\n\r\n');
        }
      });
      socket.on('close', () => resolve(text));
      socket.on('error', (err) => (text ? resolve(text) : reject(err)));
    });
    assert.match(raw, /^HTTP\/1\.1 200 /);
    assert.match(raw, /text\/event-stream/);
    assert.doesNotMatch(raw, /400 Bad Request/);
  });

  it('garbage behind a pipelined request still waiting for its answer closes the connection instead of writing into the stream before it', async () => {
    const bin = (await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} })).json().bin.bin_id;
    const mock = (
      await t.app.inject({ method: 'POST', url: '/v1/mocks', headers: t.auth, payload: { body: 'late', delay_ms: 5000 } })
    ).json().mock.mock_id;
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(`GET /v1/bins/${bin}/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${t.apiKey}\r\n\r\n`),
      );
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('\r\n\r\n') && !text.includes('GARBAGE-SENT')) {
          text += 'GARBAGE-SENT';
          // The mock's answer waits 5 s behind the stream; the garbage follows it in the same packet.
          socket.write(`GET /v1/mock/${mock} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGARBAGE \x01\r\n\r\n`);
        }
      });
      socket.on('close', () => resolve(text));
      socket.on('error', (err) => (text ? resolve(text) : reject(err)));
    });
    assert.match(raw, /^HTTP\/1\.1 200 /);
    assert.match(raw, /text\/event-stream/);
    assert.doesNotMatch(raw, /400 Bad Request/);
    assert.doesNotMatch(raw, /late/);
  });

  it('the server keeps answering well-formed requests afterwards', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    assert.equal(res.status, 200);
  });
});
