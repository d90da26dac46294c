// HTTP answers over real sockets on 127.0.0.1: pipelined requests on many connections at once, an
// answer larger than the socket buffer, and Connection: close.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, listenOnLoopback, type TestApp } from '../helpers/app.js';

/** Send `raw` on a new connection; collect until `count` responses of the given framing arrived. */
function exchange(port: number, raw: string, done: (got: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`incomplete: ${got.slice(0, 300)}`));
    }, 10_000);
    socket.on('data', (d) => {
      got += d.toString('latin1');
      if (done(got)) {
        clearTimeout(timer);
        socket.destroy();
        resolve(got);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(got);
    });
  });
}

const post = (key: string, id: string, body: string, extra = '') =>
  `POST /v1/array-ops HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${key}\r\nX-Request-Id: ${id}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

describe('answers over real sockets', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await buildTestApp();
    port = Number(new URL(await listenOnLoopback(t.app)).port);
  });
  after(() => t.close());

  it('40 connections x 3 pipelined requests sent at once: every answer whole, on its connection, in order', async () => {
    const exchanges = Array.from({ length: 40 }, (_, c) => {
      const raw = [0, 1, 2].map((i) => post(t.apiKey, `c${c}-r${i}`, JSON.stringify({ operation: 'reverse', arrays: [[c, i]] }))).join('');
      return exchange(port, raw, (got) => (got.match(/"count":2}/g) ?? []).length === 3);
    });
    const answers = await Promise.all(exchanges);
    answers.forEach((got, c) => {
      assert.deepEqual(
        [...got.matchAll(/x-request-id: (\S+)/g)].map((m) => m[1]),
        [`c${c}-r0`, `c${c}-r1`, `c${c}-r2`],
      );
      assert.deepEqual(
        [...got.matchAll(/\{"result":(\[[^\]]*\])/g)].map((m) => JSON.parse(m[1]!)),
        [
          [0, c],
          [1, c],
          [2, c],
        ],
      );
    });
  });

  it('an answer larger than the socket buffer arrives whole', async () => {
    const expected = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).body;
    assert.ok(expected.length > 200_000, `the document is ${expected.length} bytes`);
    const raw = await exchange(port, 'GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n', (got) => {
      const head = got.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(got)?.[1] ?? -1);
      return head > 0 && got.length - head - 4 >= length;
    });
    const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
    assert.equal(Buffer.from(body, 'latin1').toString('utf8'), expected);
  });

  it('Connection: close gets its answer, then the server closes the connection', async () => {
    const raw = await exchange(
      port,
      post(t.apiKey, 'close-1', JSON.stringify({ operation: 'reverse', arrays: [[1, 2]] }), 'Connection: close\r\n'),
      () => false,
    );
    assert.match(raw, /^HTTP\/1\.1 200 /);
    assert.match(raw, /connection: close/i);
    assert.match(raw, /\{"result":\[2,1\]/);
  });
});
