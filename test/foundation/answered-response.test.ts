// The server's response class reports when an answer is handed to Node (src/http/answered-response.ts):
// the fast routes record their request metrics with it instead of a second 'finish' listener.
// Real servers on 127.0.0.1.
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { AnsweredResponse, whenAnswered } from '../../src/http/answered-response.js';

/** A loopback server running `handle` for every request; resolves with its port. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void, answered = true): Promise<{ server: Server; port: number }> {
  const server = createServer(answered ? { ServerResponse: AnsweredResponse } : {}, handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

function get(port: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('AnsweredResponse', () => {
  it('calls the function once, right after end(), with the status set', async () => {
    const seen: Array<{ status: number; finished: boolean }> = [];
    let afterEnd = -1;
    const { server, port } = await serve((_req, res) => {
      assert.ok(res instanceof AnsweredResponse);
      whenAnswered(res, () => seen.push({ status: res.statusCode, finished: res.writableFinished }));
      res.writeHead(201, { 'content-type': 'text/plain' });
      res.end('made');
      afterEnd = seen.length;
      res.end(); // a second end() reports nothing more
    });
    try {
      assert.deepEqual(await get(port), { status: 201, body: 'made' });
      assert.equal(afterEnd, 1, 'reported before end() returned to the handler');
      assert.equal(seen.length, 1);
      assert.equal(seen[0]!.status, 201);
    } finally {
      server.close();
    }
  });

  it('reports nothing for a response destroyed before end() (the client gone)', async () => {
    let called = 0;
    let destroyed!: () => void;
    const gone = new Promise<void>((resolve) => (destroyed = resolve));
    const { server, port } = await serve((_req, res) => {
      whenAnswered(res, () => called++);
      res.destroy();
      destroyed();
    });
    try {
      await get(port).catch(() => undefined);
      await gone;
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(called, 0);
    } finally {
      server.close();
    }
  });

  it('on any other response, reports at the finish event instead', async () => {
    let finished: boolean | null = null;
    const reported = new Promise<void>((resolve) => {
      void serve((_req, res) => {
        assert.ok(!(res instanceof AnsweredResponse));
        whenAnswered(res, () => {
          finished = res.writableFinished;
          resolve();
        });
        res.end('plain');
      }, false).then(async ({ server, port }) => {
        assert.deepEqual(await get(port), { status: 200, body: 'plain' });
        server.close();
      });
    });
    await reported;
    assert.equal(finished, true);
  });
});
