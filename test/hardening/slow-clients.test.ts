// Slow and hostile clients over a real socket (issue 8, item 3). The app is built with the same
// server options startServer passes, scaled down so the file runs in seconds; a separate test
// checks that startServer itself sets the production values of SERVER_TIMEOUTS.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp } from '../../src/app.js';
import { issueKey } from '../../src/auth/keys.js';
import { loadConfig } from '../../src/config.js';
import { SERVER_TIMEOUTS, startServer } from '../../src/server.js';
import { createSqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import type { Store } from '../../src/storage/types.js';
import { ADMIN_TOKEN } from '../helpers/app.js';

const FAST = { headersTimeout: 2_000, requestTimeout: 3_000, keepAliveTimeout: 1_000, connectionsCheckingInterval: 200 };
const GiB = 1024 ** 3;

/** The app as startServer builds it (same option names), with FAST timeouts. */
async function buildServer(store: Store): Promise<{ app: FastifyInstance; port: number }> {
  const config = loadConfig({ ADMIN_TOKEN, LOG_LEVEL: 'silent' });
  const app = await buildApp({
    config,
    store,
    serverOptions: {
      requestTimeout: FAST.requestTimeout,
      keepAliveTimeout: FAST.keepAliveTimeout,
      forceCloseConnections: 'idle',
      ...({ http: { connectionsCheckingInterval: FAST.connectionsCheckingInterval } } as Partial<FastifyServerOptions>),
    },
  });
  app.server.headersTimeout = FAST.headersTimeout;
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as { port: number }).port };
}

interface Outcome {
  closedAfterMs: number;
  response: string;
  bytesSent: number;
}

/** Open a socket, let `drive` write to it, and resolve when the server closes it (or after `limitMs`). */
function hostile(port: number, drive: (socket: Socket, sent: (n: number) => void) => void, limitMs: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let response = '';
    let bytesSent = 0;
    const socket = connect(port, '127.0.0.1', () => drive(socket, (n) => (bytesSent += n)));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(`server kept the socket open for ${limitMs} ms (sent ${bytesSent} bytes, got ${JSON.stringify(response.slice(0, 200))})`),
      );
    }, limitMs);
    socket.on('data', (d) => (response += d.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ closedAfterMs: Date.now() - started, response, bytesSent });
    });
  });
}

/** Write `total` bytes of body in 64 KiB chunks, respecting backpressure, until the server answers or closes. */
function pump(socket: Socket, total: number, sent: (n: number) => void, chunked: boolean): void {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const frame = chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk;
  let written = 0;
  let answered = false;
  socket.once('data', () => (answered = true));
  const write = () => {
    while (!answered && !socket.destroyed && written < total) {
      written += chunk.length;
      sent(chunk.length);
      if (!socket.write(frame)) return void socket.once('drain', write);
    }
  };
  write();
}

describe('slow and hostile clients', () => {
  let store: Store;
  let app: FastifyInstance;
  let port: number;
  let apiKey: string;
  let binId: string;

  before(async () => {
    store = createSqliteStore({ dataDir: ':memory:' });
    ({ app, port } = await buildServer(store));
    apiKey = (await issueKey(store.keys, { plan: 'unlimited', name: 'slow' })).secret;
    const res = await fetch(`http://127.0.0.1:${port}/v1/bins`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: '{}',
    });
    binId = ((await res.json()) as { bin: { bin_id: string } }).bin.bin_id;
  });
  after(async () => {
    await app.close();
    await store.close();
  });

  it('startServer sets the production timeouts of SERVER_TIMEOUTS on its HTTP server', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'devutil-timeouts-'));
    const server = await startServer(loadConfig({ ADMIN_TOKEN, LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir }));
    try {
      const raw = server.server as unknown as Record<string, unknown>;
      assert.equal(raw.headersTimeout, SERVER_TIMEOUTS.headersTimeout);
      assert.equal(raw.requestTimeout, SERVER_TIMEOUTS.requestTimeout);
      assert.equal(raw.keepAliveTimeout, SERVER_TIMEOUTS.keepAliveTimeout);
      assert.equal(raw.connectionsCheckingInterval, SERVER_TIMEOUTS.connectionsCheckingInterval);
      assert.deepEqual(
        [SERVER_TIMEOUTS.headersTimeout, SERVER_TIMEOUTS.requestTimeout, SERVER_TIMEOUTS.keepAliveTimeout],
        [15_000, 60_000, 5_000],
      );
    } finally {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a client sending its headers one byte per second is cut off after headersTimeout with 408', async () => {
    const head = `GET /v1/account HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${apiKey}\r\n\r\n`;
    const out = await hostile(
      port,
      (socket, sent) => {
        let i = 0;
        const timer = setInterval(() => {
          if (socket.destroyed || i >= head.length) return clearInterval(timer);
          socket.write(head[i++]);
          sent(1);
        }, 1_000);
        socket.on('close', () => clearInterval(timer));
      },
      FAST.headersTimeout + 5_000,
    );
    assert.ok(out.closedAfterMs >= FAST.headersTimeout - 100, `closed after ${out.closedAfterMs} ms`);
    assert.ok(
      out.closedAfterMs <= FAST.headersTimeout + 4 * FAST.connectionsCheckingInterval + 1_000,
      `closed after ${out.closedAfterMs} ms`,
    );
    assert.ok(out.bytesSent < 6, `sent ${out.bytesSent} bytes`);
    assert.match(out.response, /^HTTP\/1\.1 408 /);
    assert.match(out.response, /\r\nX-Request-Id: \S+\r\n/);
    assert.match(out.response, /\r\n\r\n\{"detail":"The request headers or body did not arrive in time\.","code":"request_timeout"\}$/);
  });

  for (const [name, path] of [
    ['a JSON endpoint', '/v1/json-to-schema'],
    ['the catch path', '/v1/catch/{bin}'],
  ]) {
    it(`a client that never finishes its body to ${name} is cut off after requestTimeout`, async () => {
      const url = path.replace('{bin}', binId);
      const out = await hostile(
        port,
        (socket, sent) => {
          const text = `POST ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"data":`;
          socket.write(text);
          sent(text.length);
        },
        FAST.requestTimeout + 5_000,
      );
      assert.ok(out.closedAfterMs >= FAST.requestTimeout - 100, `closed after ${out.closedAfterMs} ms`);
      assert.ok(
        out.closedAfterMs <= FAST.requestTimeout + 4 * FAST.connectionsCheckingInterval + 1_000,
        `closed after ${out.closedAfterMs} ms`,
      );
      assert.match(out.response, /^HTTP\/1\.1 408 /);
    });
  }

  it('2000 idle keep-alive sockets are closed after keepAliveTimeout while ordinary requests keep working', async () => {
    const sockets: Socket[] = [];
    const closedAt: number[] = [];
    await Promise.all(
      Array.from(
        { length: 2000 },
        () =>
          new Promise<void>((resolve, reject) => {
            const socket = connect(port, '127.0.0.1', () => socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
            sockets.push(socket);
            socket.once('data', () => resolve());
            socket.once('error', reject);
            socket.on('close', () => closedAt.push(Date.now()));
          }),
      ),
    );
    const idleSince = Date.now();
    // Meanwhile, ordinary requests on fresh connections answer normally.
    const latencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t0 = Date.now();
      const res = await fetch(`http://127.0.0.1:${port}/v1/account`, { headers: { 'x-api-key': apiKey } });
      assert.equal(res.status, 200);
      await res.arrayBuffer();
      latencies.push(Date.now() - t0);
    }
    const deadline = Date.now() + FAST.keepAliveTimeout + 10_000;
    while (closedAt.length < sockets.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    sockets.forEach((s) => s.destroy());
    assert.equal(closedAt.length, 2000, `${closedAt.length} of 2000 idle sockets closed by the server`);
    const slowest = Math.max(...closedAt) - idleSince;
    assert.ok(slowest <= FAST.keepAliveTimeout + 5_000, `last idle socket closed ${slowest} ms after going idle`);
    assert.ok(Math.max(...latencies) < 2_000, `ordinary request latencies ${latencies.join(', ')} ms`);
  });

  for (const [name, path, chunked] of [
    ['a JSON endpoint (Content-Length: 1 GiB)', '/v1/json-to-schema', false],
    ['a JSON endpoint (chunked, 1 GiB)', '/v1/json-to-schema', true],
    ['the catch path (Content-Length: 1 GiB)', '/v1/catch/{bin}', false],
    ['the catch path (chunked, 1 GiB)', '/v1/catch/{bin}', true],
  ] as const) {
    it(`a 1 GiB upload to ${name} is refused with 413 before it is read`, async () => {
      const heapBefore = process.memoryUsage().heapUsed;
      const length = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${GiB}`;
      const out = await hostile(
        port,
        (socket, sent) => {
          socket.write(
            `POST ${path.replace('{bin}', binId)} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${apiKey}\r\nContent-Type: application/json\r\n${length}\r\n\r\n`,
          );
          pump(socket, GiB, sent, chunked);
          socket.once('data', () => setTimeout(() => socket.end(), 50));
        },
        30_000,
      );
      assert.match(out.response, /^HTTP\/1\.1 413 /);
      assert.match(out.response, /"code":"payload_too_large"/);
      assert.ok(out.bytesSent < 64 * 1024 ** 2, `${(out.bytesSent / 1024 ** 2).toFixed(1)} MiB sent before the 413`);
      assert.ok(process.memoryUsage().heapUsed - heapBefore < 64 * 1024 ** 2, 'the server did not buffer the upload');
    });
  }

  it('nothing was captured from the refused or cut-off catch requests', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/bins/${binId}/requests`, { headers: { 'x-api-key': apiKey } });
    assert.equal(((await res.json()) as { total: number }).total, 0);
  });
});
