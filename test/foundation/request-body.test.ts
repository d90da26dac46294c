// Request bodies over a real socket on 127.0.0.1: every framing Node's parser accepts is read,
// what is too large refused, clients that go away survived, and a body that started flowing
// before its parser ran (an asynchronous hook first) is read whole.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, listenOnLoopback, type TestApp } from '../helpers/app.js';

const DEDUPE = {
  operation: 'deduplicate',
  arrays: [
    [3, 1, 3],
    [2, 1],
  ],
};
const DEDUPED = { result: [3, 1, 2], operation: 'deduplicate', count: 3 };

/** Send raw bytes (optionally in timed pieces) and collect everything the server writes until it closes or `until` matches. */
function exchange(
  port: number,
  pieces: (string | Buffer)[],
  { gapMs = 0, until }: { gapMs?: number; until?: RegExp } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = '';
    const send = async () => {
      for (const piece of pieces) {
        if (socket.destroyed) return;
        socket.write(piece);
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    };
    const socket = connect(port, '127.0.0.1', () => void send());
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer: ${got.slice(0, 300)}`));
    }, 5000);
    socket.on('data', (d) => {
      got += d.toString('latin1');
      if (until?.test(got)) {
        clearTimeout(timer);
        socket.destroy();
        resolve(got);
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(got);
    });
  });
}

const post = (key: string, body: string, extra = '') =>
  `POST /v1/array-ops HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

/** JSON bodies of the HTTP responses in `raw` (Content-Length framed). */
function bodies(raw: string): unknown[] {
  const out: unknown[] = [];
  let rest = raw;
  for (;;) {
    const head = rest.indexOf('\r\n\r\n');
    if (head < 0) return out;
    const length = Number(/content-length: (\d+)/i.exec(rest.slice(0, head))?.[1] ?? 0);
    // `raw` holds bytes as latin1 characters: decode the body's bytes as UTF-8.
    out.push(JSON.parse(Buffer.from(rest.slice(head + 4, head + 4 + length), 'latin1').toString('utf8')));
    rest = rest.slice(head + 4 + length);
  }
}

describe('request bodies over a socket', () => {
  let t: TestApp;
  let port: number;

  before(async () => {
    t = await buildTestApp();
    port = Number(new URL(await listenOnLoopback(t.app)).port);
  });
  after(() => t.close());

  it('a JSON body is read and answered', async () => {
    const raw = await exchange(port, [post(t.apiKey, JSON.stringify(DEDUPE))], { until: /"count":3}/ });
    assert.match(raw, /^HTTP\/1\.1 200 /);
    assert.deepEqual(bodies(raw), [DEDUPED]);
  });

  it('three pipelined JSON requests in one write each get their own answer', async () => {
    const one = post(t.apiKey, JSON.stringify(DEDUPE));
    const two = post(t.apiKey, JSON.stringify({ operation: 'reverse', arrays: [[1, 2, 3]] }));
    const raw = await exchange(port, [one + two + one], { until: /(?:"count":3}[\s\S]*){3}/ });
    assert.deepEqual(bodies(raw), [DEDUPED, { result: [3, 2, 1], operation: 'reverse', count: 3 }, DEDUPED]);
  });

  it('a body that arrives in pieces, split inside a multi-byte character, is read whole', async () => {
    const body = Buffer.from(JSON.stringify({ operation: 'deduplicate', arrays: [['é', 'ü', 'é']] }));
    const request = Buffer.from(post(t.apiKey, body.toString()));
    const split = request.indexOf(Buffer.from('é')) + 1; // between the two bytes of the first é
    const raw = await exchange(
      port,
      [request.subarray(0, request.length - body.length), request.subarray(request.length - body.length, split), request.subarray(split)],
      { gapMs: 30, until: /"count":2}/ },
    );
    assert.deepEqual(bodies(raw), [{ result: ['é', 'ü'], operation: 'deduplicate', count: 2 }]);
  });

  it('a chunked body is decoded', async () => {
    const body = JSON.stringify(DEDUPE);
    const head = `POST /v1/array-ops HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${t.apiKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const chunks = [body.slice(0, 10), body.slice(10)].map((c) => `${c.length.toString(16)}\r\n${c}\r\n`);
    const raw = await exchange(port, [head, chunks[0]!, chunks[1]! + '0\r\n\r\n'], { gapMs: 20, until: /"count":3}/ });
    assert.deepEqual(bodies(raw), [DEDUPED]);
  });

  it('an empty JSON body is read as {}; where {} fails the schema it is a 400 invalid_json', async () => {
    const raw = await exchange(port, [post(t.apiKey, '')], { until: /"invalid_json"/ });
    assert.match(raw, /^HTTP\/1\.1 400 /);
    assert.match(raw, /send a JSON object \(with operation, arrays\)/);
  });

  it('a content coding (gzip) is a 415 over the socket; identity is no coding', async () => {
    const raw = await exchange(port, [post(t.apiKey, JSON.stringify(DEDUPE), 'Content-Encoding: gzip\r\n')], {
      until: /"unsupported_media_type"/,
    });
    assert.match(raw, /^HTTP\/1\.1 415 /);
    assert.match(raw, /Content-Encoding \\"gzip\\" is not supported/);
    const plain = await exchange(port, [post(t.apiKey, JSON.stringify(DEDUPE), 'Content-Encoding: identity\r\n')], { until: /"count":3}/ });
    assert.deepEqual(bodies(plain), [DEDUPED]);
  });

  it('invalid JSON answers 400 invalid_json, closes that connection, and the next one is served', async () => {
    const raw = await exchange(port, [post(t.apiKey, '{"operation": ')]);
    assert.match(raw, /^HTTP\/1\.1 400 /);
    assert.match(raw, /connection: close/i);
    assert.equal((bodies(raw)[0] as { code: string }).code, 'invalid_json');
    const next = await exchange(port, [post(t.apiKey, JSON.stringify(DEDUPE))], { until: /"count":3}/ });
    assert.deepEqual(bodies(next), [DEDUPED]);
  });

  it('a declared length over 2 MiB answers 413 without reading the body', async () => {
    const head = `POST /v1/array-ops HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${t.apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${2 * 1024 * 1024 + 1}\r\n\r\n`;
    const raw = await exchange(port, [head, '{"operation":'], { until: /"payload_too_large"/ });
    assert.match(raw, /^HTTP\/1\.1 413 /);
  });

  it('a chunked body that grows past 2 MiB answers 413 and the connection is closed', async () => {
    const head = `POST /v1/array-ops HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${t.apiKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const chunk = 'x'.repeat(512 * 1024);
    const frame = `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
    const raw = await exchange(port, [head, frame, frame, frame, frame, frame, frame]);
    assert.match(raw, /^HTTP\/1\.1 413 /);
    assert.match(raw, /connection: close/i);
    assert.equal((bodies(raw)[0] as { code: string }).code, 'payload_too_large');
  });

  it('a client that goes away halfway through a body leaves the server serving', async () => {
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(post(t.apiKey, JSON.stringify(DEDUPE)).slice(0, -10));
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
      socket.on('error', () => {});
    });
    const raw = await exchange(port, [post(t.apiKey, JSON.stringify(DEDUPE))], { until: /"count":3}/ });
    assert.deepEqual(bodies(raw), [DEDUPED]);
  });

  it('a body captured by a bin is stored byte for byte (binary, split across writes)', async () => {
    const bin = await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} });
    const binId = bin.json().bin.bin_id as string;
    const body = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
    const head = `PUT /v1/catch/${binId} HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${body.length}\r\n\r\n`;
    const raw = await exchange(port, [head, body.subarray(0, 1000), body.subarray(1000)], { gapMs: 20, until: /\r\n\r\n[\s\S]*}/ });
    assert.match(raw, /^HTTP\/1\.1 200 /);
    const list = await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests`, headers: t.auth });
    const id = list.json().requests[0].request_id as string;
    const one = await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests/${id}`, headers: t.auth });
    const { request } = one.json();
    assert.deepEqual([request.body_encoding, request.body, request.content_length], ['base64', body.toString('base64'), 3000]);
  });
});

describe('request bodies that started flowing before their parser ran', () => {
  let t: TestApp;
  let port: number;

  before(async () => {
    t = await buildTestApp({
      extraRoutes: (app: FastifyInstance) => {
        // An asynchronous hook lets Node's parser push the body into the stream first.
        app.addHook('onRequest', async () => {
          await new Promise((r) => setTimeout(r, 20));
        });
      },
    });
    port = Number(new URL(await listenOnLoopback(t.app)).port);
  });
  after(() => t.close());

  it('are read whole', async () => {
    const raw = await exchange(port, [post(t.apiKey, JSON.stringify(DEDUPE))], { until: /"count":3}/ });
    assert.deepEqual(bodies(raw), [DEDUPED]);
  });

  it('still answer 413 past the limit', async () => {
    const head = `POST /v1/array-ops HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${t.apiKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const chunk = 'x'.repeat(512 * 1024);
    const frame = `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
    const raw = await exchange(port, [head, frame, frame, frame, frame, frame, frame]);
    assert.match(raw, /^HTTP\/1\.1 413 /);
  });
});
