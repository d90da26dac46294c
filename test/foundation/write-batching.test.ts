// Responses written once per event-loop iteration (src/http/write-batching.ts), over real sockets on
// 127.0.0.1: the held uncork, a destroy while writes are held, and HTTP answers that stay whole and
// in order however many connections finish in one iteration.
import assert from 'node:assert/strict';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { setImmediate as nextIteration } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { batchWrites, MAX_HELD, writeThrough } from '../../src/http/write-batching.js';
import { buildTestApp, listenOnLoopback, type TestApp } from '../helpers/app.js';

/** A loopback server whose accepted sockets are batched; resolves with a client and the server side. */
async function socketPair(): Promise<{ server: Server; client: Socket; accepted: Socket; received: () => string; closed: Promise<void>; close: () => void }> {
  let accept!: (s: Socket) => void;
  const acceptedP = new Promise<Socket>((r) => (accept = r));
  const server = createServer((s) => {
    batchWrites(s);
    accept(s);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  const client = connect(port, '127.0.0.1');
  let text = '';
  client.setEncoding('utf8');
  client.on('data', (d: string) => (text += d));
  const closed = new Promise<void>((r) => client.on('close', () => r()));
  const accepted = await acceptedP;
  const close = () => {
    client.destroy();
    server.close();
  };
  return { server, client, accepted, received: () => text, closed, close };
}

/** What Node's HTTP response does around a write: cork, write, uncork. */
function corkedWrite(socket: Socket, text: string): void {
  socket.cork();
  socket.write(text);
  socket.uncork();
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('write batching on a socket', () => {
  it('holds the last uncork until the end of the iteration, then writes everything in order', async () => {
    const { accepted, received, close } = await socketPair();
    try {
      corkedWrite(accepted, 'one,');
      corkedWrite(accepted, 'two');
      assert.equal(accepted.writableLength, 7, 'nothing written before the iteration ends');
      assert.equal(accepted.writableCorked, 1);
      await nextIteration();
      assert.equal(accepted.writableLength, 0);
      assert.equal(accepted.writableCorked, 0);
      await until(() => received() === 'one,two', 'the bytes');
    } finally {
      close();
    }
  });

  it('a nested uncork keeps its meaning: only the outermost one is held', async () => {
    const { accepted, received, close } = await socketPair();
    try {
      accepted.cork();
      accepted.cork();
      accepted.write('x');
      accepted.uncork();
      assert.equal(accepted.writableCorked, 1);
      accepted.uncork();
      assert.equal(accepted.writableLength, 1);
      await nextIteration();
      await until(() => received() === 'x', 'the byte');
    } finally {
      close();
    }
  });

  it(`held socket number ${MAX_HELD} (MAX_HELD) sends all of them at once, without waiting for the iteration to end`, async () => {
    const pairs = await Promise.all(Array.from({ length: MAX_HELD }, () => socketPair()));
    try {
      pairs.forEach(({ accepted }, i) => {
        corkedWrite(accepted, `r${i}`);
        const waiting = pairs.slice(0, i + 1).map((p) => p.accepted.writableLength);
        if (i < MAX_HELD - 1) assert.deepEqual(waiting, pairs.slice(0, i + 1).map((_, j) => `r${j}`.length), `held after ${i + 1}`);
        else assert.deepEqual(waiting, Array(MAX_HELD).fill(0), `all sent at socket ${MAX_HELD}`);
      });
      await Promise.all(pairs.map((p, i) => until(() => p.received() === `r${i}`, `socket ${i}`)));
    } finally {
      for (const p of pairs) p.close();
    }
  });

  it('a socket destroyed while its writes are held sends them first', async () => {
    const { server, accepted, received, closed } = await socketPair();
    try {
      corkedWrite(accepted, 'last words');
      accepted.destroy();
      await closed;
      assert.equal(received(), 'last words');
    } finally {
      server.close();
    }
  });

  it('a write-through socket (fast routes) sends at its uncork, and holds again once switched back', async () => {
    const { accepted, received, close } = await socketPair();
    try {
      writeThrough(accepted, true);
      corkedWrite(accepted, 'now,');
      assert.equal(accepted.writableLength, 0);
      writeThrough(accepted, false);
      corkedWrite(accepted, 'later');
      assert.equal(accepted.writableLength, 5);
      await nextIteration();
      await until(() => received() === 'now,later', 'the bytes');
    } finally {
      close();
    }
  });

  it('an uncorked socket writes at once, as without batching', async () => {
    const { accepted, received, close } = await socketPair();
    try {
      accepted.write('now');
      assert.equal(accepted.writableLength, 0);
      await until(() => received() === 'now', 'the bytes');
    } finally {
      close();
    }
  });
});

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

describe('write batching through HTTP', () => {
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
      assert.deepEqual([...got.matchAll(/x-request-id: (\S+)/g)].map((m) => m[1]), [`c${c}-r0`, `c${c}-r1`, `c${c}-r2`]);
      assert.deepEqual([...got.matchAll(/\{"result":(\[[^\]]*\])/g)].map((m) => JSON.parse(m[1]!)), [[0, c], [1, c], [2, c]]);
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
    const raw = await exchange(port, post(t.apiKey, 'close-1', JSON.stringify({ operation: 'reverse', arrays: [[1, 2]] }), 'Connection: close\r\n'), () => false);
    assert.match(raw, /^HTTP\/1\.1 200 /);
    assert.match(raw, /connection: close/i);
    assert.match(raw, /\{"result":\[2,1\]/);
  });
});
