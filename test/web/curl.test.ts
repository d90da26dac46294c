import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { buildCurlCommand, quote, type CurlSource } from '../../web/src/request/curl.js';
import { buildTestApp, listenOnLoopback, type TestApp } from '../helpers/app.js';
import { bytes, CRLF, exchange } from '../helpers/raw-http.js';

const run = promisify(execFile);

/** A request sent to the catch path over a raw socket: header lines as bytes, so every byte is chosen. */
interface Original {
  name: string;
  method: string;
  /** Path under the bin's catch path and the query, e.g. `/orders?x=1`. */
  target: string;
  headers: (string | number[])[][];
  body: Buffer;
  /** Text the command must contain (how it carries the body), and must not. */
  contains: string[];
  lacks?: string[];
}

const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const BIG_TEXT = `${"it's a line with 'quotes' and ✓\n".repeat(6000)}end`;

const ORIGINALS: Original[] = [
  {
    name: 'text with quotes, control characters, repeated and odd headers',
    method: 'PUT',
    target: "/orders/it's?q=it%27s&list[]=a&b={x}&empty=",
    headers: [
      ['User-Agent: devutil-test/1.0'],
      ['Accept: */*'],
      ['Content-Type: text/plain; charset=utf-8'],
      ['X-Quote: it\'s "quoted" $HOME `id` \\n'],
      ['X-Multi: a'],
      ['x-multi: b'],
      ['Cookie: a=1'],
      ['cookie: b=2'],
      ['Set-Cookie: a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT'],
      ['Set-Cookie: b=2'],
      ['X-Empty:'],
      ['X-Tab: a\tb'],
      ['X-Utf8: caf', [0xc3, 0xa9], ' ', [0xe2, 0x9c, 0x93]],
      ['X-Latin: caf', [0xe9]],
      ['X-Literal: base64:abc'],
    ],
    body: Buffer.from('line 1\nit\'s "quoted" $HOME `id` \\n \\\\ !! \r\nTab\there ✓ café\n', 'utf8'),
    contains: ["--data-binary $'line 1\\nit\\'s", '--globoff', "-H 'x-empty;'", "-H $'x-latin: caf\\xe9'"],
  },
  {
    name: 'JSON with a dot segment in the path',
    method: 'POST',
    target: '/hooks/./stripe/../events?attempt=1',
    headers: [
      ['Content-Type: application/json'],
      ['User-Agent: Stripe/1.0 (+https://stripe.com/docs/webhooks)'],
      ['Accept: */*; q=0.5, application/json'],
      ['Stripe-Signature: t=1,v1=abc'],
    ],
    body: Buffer.from(JSON.stringify({ id: 'evt_1', data: { note: "it's", amount: 1099, tags: ['a', 'ü'] } }, null, 2), 'utf8'),
    contains: ['--path-as-is', "--data-binary '{\n"],
    lacks: ['-X'],
  },
  {
    name: 'a form without user-agent or accept',
    method: 'POST',
    target: '',
    headers: [['Content-Type: application/x-www-form-urlencoded']],
    body: Buffer.from("name=O%27Brien&note=a+b&amp=%26&quote=it's", 'utf8'),
    contains: ["-H 'User-Agent:'", "-H 'Accept:'", "--data-binary 'name=O%27Brien&note=a+b&amp=%26&quote=it'\\''s'"],
  },
  {
    name: 'binary: all 256 byte values',
    method: 'PATCH',
    target: '/upload',
    headers: [['Content-Type: application/octet-stream'], ['User-Agent: uploader']],
    body: ALL_BYTES,
    contains: ['| base64 -d | curl -X PATCH', '--data-binary @-'],
  },
  {
    name: 'a body that starts with @ is sent, not read as a file name',
    method: 'POST',
    target: '/at',
    headers: [['Content-Type: text/plain'], ['User-Agent: u'], ['Accept: */*']],
    body: Buffer.from('@/etc/hostname', 'utf8'),
    contains: ['--data-raw @/etc/hostname'],
  },
  {
    name: 'text holding a NUL goes through base64',
    method: 'POST',
    target: '/nul',
    headers: [['Content-Type: text/plain'], ['User-Agent: u'], ['Accept: */*']],
    body: Buffer.from('a\0b', 'utf8'),
    contains: ['| base64 -d | curl'],
  },
  {
    name: 'text too long for one argument goes through printf, without Expect',
    method: 'POST',
    target: '/big',
    headers: [['Content-Type: text/plain; charset=utf-8'], ['User-Agent: u'], ['Accept: */*']],
    body: Buffer.from(BIG_TEXT, 'utf8'),
    contains: ["printf %s 'it'\\''s a line", "-H 'Expect:'", '--data-binary @-'],
  },
  {
    name: 'GET without a body',
    method: 'GET',
    target: '?x=1&y=two%20words',
    headers: [['User-Agent: Mozilla/5.0'], ['Accept: text/html']],
    body: Buffer.alloc(0),
    contains: ['curl '],
    lacks: ['-X', '--data'],
  },
  {
    name: 'HEAD',
    method: 'HEAD',
    target: '/probe',
    headers: [['User-Agent: monitor'], ['Accept: */*']],
    body: Buffer.alloc(0),
    contains: ['curl --head '],
  },
  {
    name: 'OPTIONS and an extension method without a body',
    method: 'PROPFIND',
    target: '/dav',
    headers: [['User-Agent: dav'], ['Accept: */*'], ['Depth: 1']],
    body: Buffer.alloc(0),
    contains: ['curl -X PROPFIND '],
  },
];

/** The fields a new capture must share with the original: all but its id, time and the headers curl frames itself. */
function comparable(request: CurlSource & Record<string, unknown>) {
  const { request_id: _id, timestamp: _time, ...rest } = request;
  const { host: _host, 'content-length': _length, connection: _connection, ...headers } = request.headers;
  return { ...rest, headers };
}

describe('Copy as cURL reproduces the capture byte for byte with the real curl', () => {
  let t: TestApp;
  let base: string;
  let port: number;
  let binId: string;
  const dir = mkdtempSync(join(tmpdir(), 'devutil-curl-'));

  before(async () => {
    t = await buildTestApp();
    base = await listenOnLoopback(t.app);
    port = Number(new URL(base).port);
    const created = await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: { name: 'curl' } });
    binId = created.json().bin.bin_id;
  });
  after(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The newest capture of the bin, in full. */
  async function newest(): Promise<CurlSource & Record<string, unknown>> {
    const list = await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests?limit=1`, headers: t.auth });
    const id = list.json().requests[0].request_id as string;
    const detail = await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests/${id}`, headers: t.auth });
    assert.equal(detail.statusCode, 200);
    return detail.json().request;
  }

  for (const original of ORIGINALS) {
    it(original.name, async () => {
      const head = [`${original.method} /v1/catch/${binId}${original.target} HTTP/1.1`, `Host: 127.0.0.1:${port}`].join(CRLF);
      const lines = original.headers.map((parts) => bytes(...parts, CRLF));
      const framing = original.body.length > 0 ? `Content-Length: ${original.body.length}${CRLF}` : '';
      const answer = await exchange(
        port,
        Buffer.concat([bytes(head, CRLF), ...lines, bytes(framing, `Connection: close${CRLF}${CRLF}`), original.body]),
      );
      assert.match(answer.toString('latin1'), /^HTTP\/1\.1 200 /);
      const captured = await newest();
      assert.equal(captured.method, original.method);
      assert.equal(captured.content_length, original.body.length);

      const command = buildCurlCommand(captured, base);
      for (const part of original.contains) assert.ok(command.includes(part), `${part} in ${command.slice(0, 2000)}`);
      for (const part of original.lacks ?? []) assert.ok(!command.includes(part), `no ${part} in ${command.slice(0, 2000)}`);
      const script = join(dir, 'command.sh');
      writeFileSync(script, command);
      const { stdout } = await run('bash', [script], { timeout: 20_000, maxBuffer: 1 << 20 });
      if (original.method !== 'HEAD') assert.match(stdout, /^\{"ok":true,"bin_id":"bin_\w+","request_id":"req_\w+"\}$/);

      const again = await newest();
      assert.notEqual(again.request_id, captured.request_id);
      assert.deepEqual(comparable(again), comparable(captured));
      const sent = again.body_encoding === 'base64' ? Buffer.from(again.body, 'base64') : Buffer.from(again.body, 'utf8');
      assert.deepEqual(sent, original.body);
    });
  }

  it('the command reads as the doc comment shows', () => {
    const command = buildCurlCommand(
      {
        method: 'PUT',
        path: '/v1/catch/bin_x',
        query_string: 'a=1',
        body: "it's",
        body_encoding: 'utf8',
        headers: {
          'content-type': 'text/plain',
          'user-agent': 'x',
          accept: 'text/plain',
          host: 'h',
          'content-length': '4',
          connection: 'close',
        },
      },
      'http://localhost:8080',
    );
    assert.equal(
      command,
      [
        "curl -X PUT 'http://localhost:8080/v1/catch/bin_x?a=1' \\",
        "  -H 'content-type: text/plain' \\",
        "  -H 'user-agent: x' \\",
        "  -H 'accept: text/plain' \\",
        "  --data-binary 'it'\\''s'",
      ].join('\n'),
    );
  });

  it('quote() makes one bash word of any text', async () => {
    const samples = ['', 'plain', "it's", 'a b', '$HOME `id` "x"', 'tab\there', 'cr\r\nlf', 'back\\slash\\', "\x01\x1f\x7f'\\", 'ü ✓ 😀'];
    for (const sample of samples) {
      const { stdout } = await run('bash', ['-c', `printf %s ${quote(sample)}`]);
      assert.equal(stdout, sample, quote(sample));
    }
  });
});
