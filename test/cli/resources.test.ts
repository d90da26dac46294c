import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assertBuilt, issueKey, runCli, startCli, startService, startTargetApp, type Service, type TargetApp } from './cli-helpers.js';

// Bins, captured requests, replay, mocks and tail from the terminal (CONTRACT §9, §2).

describe('devutil bins, requests, replay, mocks and tail', () => {
  let service: Service;
  let target: TargetApp;
  let env: Record<string, string>;
  before(async () => {
    assertBuilt();
    service = await startService({ REPLAY_ALLOW_PRIVATE: 'true' });
    target = await startTargetApp();
    env = { DEVUTIL_URL: service.url, DEVUTIL_KEY: await issueKey(service), XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'devutil-cfg-')) };
  });
  after(async () => {
    await target?.close();
    await service?.stop();
  });
  const devutil = (...args: string[]) => runCli(args, { env });

  it('bins create prints the catch URL alone; list, show and delete; requests list, show (--body: exact bytes) and replay', async () => {
    const created = await devutil('bins', 'create', '--name', 'stripe', '--ttl', '3600');
    assert.equal(created.status, 0, created.stderr);
    const [, binId] = /^http:\/\/127\.0\.0\.1:\d+\/v1\/catch\/(bin_[\w-]+)\n$/.exec(created.stdout)!;
    assert.match(created.stderr, new RegExp(`^Created ${binId}, expires \\d{4}-`));
    const catchUrl = created.stdout.trim();

    const listed = JSON.parse((await devutil('bins', 'list', '--json')).stdout) as {
      total: number;
      bins: { bin_id: string; name: string }[];
    };
    assert.deepEqual(
      listed.bins.filter((b) => b.bin_id === binId).map((b) => b.name),
      ['stripe'],
    );
    const table = (await devutil('bins', 'list')).stdout.split('\n');
    assert.match(table[0]!, /^ID +NAME +REQUESTS +EXPIRES$/);
    assert.ok(table.some((line) => new RegExp(`^${binId} +stripe +0 +\\d{4}-`).test(line)));
    const shown = await devutil('bins', 'show', binId!);
    assert.match(
      shown.stdout,
      new RegExp(`^bin_id: ${binId}\nname: stripe\ncreated_at: .+\nexpires_at: .+\nrequest_count: 0\ncatch_url: /v1/catch/${binId}\n$`),
    );

    const bytes = Buffer.from([0xff, 0x00, 0x41, 0x0a]);
    const first = (await (await fetch(`${catchUrl}/a?x=1`, { method: 'POST', headers: { 'x-sig': 'abc' }, body: bytes })).json()) as {
      request_id: string;
    };
    const second = (await (
      await fetch(`${catchUrl}/b`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"n":2}' })
    ).json()) as {
      request_id: string;
    };
    const requests = (await devutil('requests', 'list', binId!)).stdout.split('\n');
    assert.match(requests[0]!, /^ID +TIME +METHOD +SIZE +PATH$/);
    assert.match(requests[1]!, new RegExp(`^${second.request_id} +\\S+Z +PUT +7 +/b$`));
    assert.match(requests[2]!, new RegExp(`^${first.request_id} +\\S+Z +POST +4 +/a\\?x=1$`));
    const body = await devutil('requests', 'show', binId!, first.request_id, '--body');
    assert.equal(body.status, 0);
    assert.deepEqual(body.stdoutBytes, bytes);
    const newest = await devutil('requests', 'show', binId!);
    assert.match(
      newest.stdout,
      new RegExp(`^\\S+Z  PUT /b  7 B  application/json  127\\.0\\.0\\.1\n  ${second.request_id}\n(  .+: .+\n)+\n  \\{"n":2\\}\n\n$`),
    );
    assert.match(newest.stdout, /^ {2}content-type: application\/json$/m);

    const replayed = await devutil('replay', binId!, second.request_id, '--to', `${target.url}/again`, '--header', 'X-Debug: 1');
    assert.equal(replayed.status, 0, replayed.stderr);
    assert.match(replayed.stdout, new RegExp(`^${target.url}/again  -> 200  \\d+ ms\nok\n$`));
    assert.equal(target.received.at(-1)!.headers['x-debug'], '1');
    assert.equal(target.received.at(-1)!.body.toString(), '{"n":2}');

    const deleted = await devutil('bins', 'delete', binId!);
    assert.equal(deleted.stdout, `Deleted ${binId}\n`);
    const gone = await devutil('bins', 'show', binId!);
    assert.equal(gone.status, 1);
    assert.match(gone.stderr, /^Error: .+ \(code: not_found, HTTP 404\)\n$/);
  });

  it('mocks create with a flag for every field, then show, update, list and delete', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'devutil-mock-'));
    writeFileSync(join(dir, 'reply.json'), '{"status":"paid"}');
    const created = await devutil(
      'mocks', 'create', '--name', 'charge', '--status', '201', '--content-type', 'application/vnd.api+json',
      '--header', 'X-A: 1', '--header', 'X-B: two words', '--body', `@${join(dir, 'reply.json')}`,
      '--delay', '20', '--method', 'POST', '--path', '/charge', '--ttl', '600',
    ); // prettier-ignore
    assert.equal(created.status, 0, created.stderr);
    // The serving URL includes the mock's path.
    const [, mockId] = /^http:\/\/127\.0\.0\.1:\d+\/v1\/mock\/(mock_[\w-]+)\/charge\n$/.exec(created.stdout)!;
    const mockUrl = created.stdout.trim();
    const served = await fetch(mockUrl, { method: 'POST' });
    assert.equal(served.status, 201);
    assert.equal(served.headers.get('content-type'), 'application/vnd.api+json');
    assert.equal(served.headers.get('x-a'), '1');
    assert.equal(served.headers.get('x-b'), 'two words');
    assert.equal(await served.text(), '{"status":"paid"}');
    assert.equal((await fetch(mockUrl)).status, 405);

    const shown = JSON.parse((await devutil('mocks', 'show', mockId!, '--json')).stdout) as { mock: Record<string, unknown> };
    assert.deepEqual(
      [shown.mock.name, shown.mock.status_code, shown.mock.delay_ms, shown.mock.method, shown.mock.path, shown.mock.headers],
      ['charge', 201, 20, 'POST', '/charge', { 'x-a': '1', 'x-b': 'two words' }],
    );
    const updated = await devutil('mocks', 'update', mockId!, '--status', '503', '--any-method', '--response-body', '{"down":true}');
    assert.equal(updated.status, 0, updated.stderr);
    assert.match(updated.stdout, /^status_code: 503$/m);
    const again = await fetch(mockUrl);
    assert.deepEqual([again.status, await again.text()], [503, '{"down":true}']);
    const listed = (await devutil('mocks', 'list')).stdout;
    assert.match(listed, new RegExp(`^${mockId} +charge +503 +\\* +/charge +2$`, 'm'));
    const invalid = await devutil('mocks', 'update', mockId!, '--status', '700');
    assert.equal(invalid.status, 1);
    assert.match(invalid.stderr, /^Error: .+\(code: validation_error, HTTP 422\)\n {2}\/?status_code: .+\n$/);
    // A mock's body is text: a binary file is refused, not served with U+FFFD in place of its bytes.
    writeFileSync(join(dir, 'blob.bin'), Buffer.from([0, 1, 0xff, 0xfe]));
    const binary = await devutil('mocks', 'update', mockId!, '--body', `@${join(dir, 'blob.bin')}`);
    assert.deepEqual(
      [binary.status, binary.stderr],
      [2, `error: --body @${join(dir, 'blob.bin')}: not UTF-8 text (a mock's body is text; binary bodies are not served)\n`],
    );
    assert.equal((await devutil('mocks', 'delete', mockId!)).stdout, `Deleted ${mockId}\n`);
    assert.equal((await devutil('mocks', 'show', mockId!)).status, 1);
  });

  it('tail prints one line per capture; --full adds headers and body; --full --json prints each capture in full', async () => {
    const binUrl = (await devutil('bins', 'create')).stdout.trim();
    const binId = binUrl.split('/').at(-1)!;
    const tail = startCli(['tail', binId], env);
    const full = startCli(['tail', binId, '--full', '--json'], env);
    const fullText = startCli(['tail', binId, '--full'], env);
    try {
      await Promise.all(
        [tail, full, fullText].map(
          (t) =>
            new Promise<void>((resolve) => {
              const check = setInterval(() => t.stderr().includes(`Tailing ${binId}`) && resolve(clearInterval(check)), 20);
            }),
        ),
      );
      await fetch(`${binUrl}/hook?a=1`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
      await tail.waitForLine(/hook/);
      assert.match(tail.lines()[0]!, /^\d{2}:\d{2}:\d{2} {2}POST \/hook\?a=1 {2}5 B {2}text\/plain {2}127\.0\.0\.1$/);
      await full.waitForLine(/^\{/);
      const capture = JSON.parse(full.lines()[0]!) as Record<string, unknown>;
      assert.deepEqual(
        [capture.method, capture.body, capture.query_string, (capture.headers as Record<string, string>)['content-type']],
        ['POST', 'hello', 'a=1', 'text/plain'],
      );
      await fullText.waitForLine(/^ {2}hello$/);
      const printed = fullText.lines();
      assert.match(printed[0]!, /^\d{2}:\d{2}:\d{2} {2}POST \/hook\?a=1 {2}5 B {2}text\/plain {2}127\.0\.0\.1$/);
      assert.equal(printed[1], `  ${capture.request_id as string}`);
      assert.ok(printed.includes('  content-type: text/plain'), printed.join('\n'));
      assert.equal(printed[printed.indexOf('  hello') - 1], '');

      await fetch(`${binUrl}/bytes`, { method: 'PUT', body: Buffer.from([0xff, 0xfe, 0x00]) });
      await fullText.waitForLine(/^ {2}\(3 bytes, not UTF-8: base64\)$/);
      await fullText.waitForLine(/^ {2}\/\/4A$/);
    } finally {
      for (const t of [tail, full, fullText]) t.child.kill('SIGINT');
      assert.deepEqual(await Promise.all([tail.exited, full.exited, fullText.exited]), [0, 0, 0]);
    }
  });
});
