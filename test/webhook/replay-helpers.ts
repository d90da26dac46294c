import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from '../helpers/app.js';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  rawHeaders: string[];
  body: Buffer;
}

export interface TargetServer {
  url: string;
  port: number;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * A plain node:http server on 127.0.0.1:0 that records what it receives and answers with
 * `handler` (after the whole body arrived).
 */
export async function startTarget(handler: (req: ReceivedRequest, res: ServerResponse) => void): Promise<TargetServer> {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks),
      };
      received.push(entry);
      handler(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface SeededCapture {
  binId: string;
  requestId: string;
}

/**
 * Create a bin through `POST /v1/bins` (1 hour lifetime) with `auth`'s key and send one request
 * to its catch path, as a webhook sender would.
 */
export async function seedCapture(
  t: TestApp,
  request: { method?: string; headers?: Record<string, string>; body?: Buffer; subPath?: string } = {},
  auth: Record<string, string> = t.auth,
): Promise<SeededCapture> {
  const created = await t.app.inject({ method: 'POST', url: '/v1/bins', headers: auth, payload: { ttl_seconds: 3600 } });
  if (created.statusCode !== 201) throw new Error(`bin creation failed: ${created.statusCode} ${created.body}`);
  const binId: string = created.json().bin.bin_id;
  const caught = await t.app.inject({
    method: (request.method ?? 'POST') as 'POST',
    url: `/v1/catch/${binId}${request.subPath ?? ''}`,
    headers: request.headers ?? { 'content-type': 'application/json' },
    payload: request.body ?? Buffer.from('{"event":"ping"}'),
  });
  if (caught.statusCode !== 200) throw new Error(`capture failed: ${caught.statusCode} ${caught.body}`);
  const requestId = request.method === 'HEAD' ? '' : (caught.json().request_id as string);
  return { binId, requestId };
}

/** `POST .../replay` through inject. */
export function replay(t: TestApp, seeded: SeededCapture, body: unknown, headers: Record<string, string> = t.auth) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/bins/${seeded.binId}/requests/${seeded.requestId}/replay`,
    headers,
    payload: body as object,
  });
}
