import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startDnsServer, type TestDnsServer } from '../dns/dns-server.js';
import { assertBuilt, issueKey, runCli, startService, type Service } from './cli-helpers.js';

// `devutil call` for any operation of /openapi.json, and the short forms of the common tools (CONTRACT §9).

/** RFC 6238 code of a base32 secret at `unixSeconds` (SHA-1, 6 digits, 30 s). */
function totpCode(secret: string, unixSeconds: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secret.replace(/=+$/, '')) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(unixSeconds / 30)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[19]! & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

describe('devutil call and the tool short forms', () => {
  let service: Service;
  let dns: TestDnsServer;
  let env: Record<string, string>;
  let dir: string;
  before(async () => {
    assertBuilt();
    dns = await startDnsServer({
      'shop.test': [
        { type: 'A', ttl: 300, data: '192.0.2.10' },
        { type: 'MX', ttl: 300, data: { preference: 10, exchange: 'mail.shop.test' } },
        // A zone's owner chooses its TXT text: escape sequences in it must not reach the terminal.
        { type: 'TXT', ttl: 300, data: 'hi\x1b]0;pwned\x07' },
      ],
    });
    service = await startService({ DNS_SERVERS: dns.address });
    env = { DEVUTIL_URL: service.url, DEVUTIL_KEY: await issueKey(service), XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'devutil-cfg-')) };
    dir = mkdtempSync(join(tmpdir(), 'devutil-call-'));
  });
  after(async () => {
    await service?.stop();
    await dns?.close();
  });
  const devutil = (args: string[], input?: string | Buffer) => runCli(args, { env, input });
  const json = async (args: string[], input?: string) => {
    const run = await devutil(args, input);
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout) as Record<string, unknown>;
  };

  it('call --list lists every operationId with its method, path and summary; OPERATION --help lists its fields', async () => {
    const list = await devutil(['call', '--list']);
    assert.equal(list.status, 0, list.stderr);
    assert.match(list.stdout, /^OPERATION +METHOD +PATH +SUMMARY$/m);
    assert.match(list.stdout, /^transformJson +POST +\/v1\/json-transform +Query and reshape JSON with JMESPath$/m);
    for (const id of ['createBin', 'verifyJwt', 'lookupDns', 'scoreFormSpam', 'lookupGeoIp', 'hashData'])
      assert.match(list.stdout, new RegExp(`^${id} `, 'm'));
    const help = await devutil(['call', 'transformJson', '--help']);
    assert.equal(help.status, 0);
    assert.match(
      help.stdout,
      /^Usage: devutil call transformJson \[field=value \.\.\.\] \[--data @file\.json \| -\]\n\nQuery and reshape JSON with JMESPath\nPOST \/v1\/json-transform\n/,
    );
    assert.match(help.stdout, /^ {2}data +any, required: Any JSON value to query\.$/m);
    assert.match(help.stdout, /^ {2}expression +string, required: /m);
    assert.match(help.stdout, /^ {2}legacy_literals +boolean, default false: /m);
    const queryHelp = await devutil(['call', 'generatePassword', '--help']);
    assert.match(queryHelp.stdout, /^ {2}length +integer, default 16, in query$/m);
  });

  it('one operation of each area: webhook, devtools, auth, dns, email, geo', async () => {
    const bin = (await json(['call', 'createBin', 'name=from-call', 'ttl_seconds=600'])) as {
      bin: { name: string; bin_id: string };
      url: string;
    };
    assert.equal(bin.bin.name, 'from-call');
    assert.equal(bin.url, `${service.url}/v1/catch/${bin.bin.bin_id}`);
    assert.equal(((await json(['call', 'getBin', `bin_id=${bin.bin.bin_id}`])) as { bin: { name: string } }).bin.name, 'from-call');

    writeFileSync(join(dir, 'body.json'), '{"data":{"a":[1,2,3]},"expression":"a[0]"}');
    // Independent calls, side by side.
    const [transformed, byPath, fromStdin, hashed, passwords, lookup, spam, geo] = await Promise.all([
      json(['call', 'transformJson', 'data={"people":[{"age":36},{"age":41}]}', 'expression=people[?age > `40`].age']),
      // The same by path, with the body from a file and a field over it.
      json(['call', '/v1/json-transform', '--data', `@${join(dir, 'body.json')}`, 'expression=a[2]']),
      json(['call', 'transformJson', '--data', '-'], '{"data":[5],"expression":"[0]"}'),
      json(['call', 'hashData', 'data=hello', 'algorithm=sha256']),
      json(['call', 'generatePassword', 'length=20', 'count=3', 'symbols=false']),
      json(['call', 'lookupDns', 'domain=shop.test', 'type=MX']),
      json(['call', 'scoreFormSpam', 'message=hello', 'honeypot=http://bot.example']),
      json(['call', 'lookupGeoIp', 'ip=8.8.8.8']),
    ]);
    assert.deepEqual(transformed, { result: [41], expression: 'people[?age > `40`].age' });
    assert.deepEqual(byPath, { result: 3, expression: 'a[2]' });
    assert.deepEqual(fromStdin, { result: 5, expression: '[0]' });
    assert.deepEqual(hashed, { hash: createHash('sha256').update('hello').digest('hex'), algorithm: 'sha256', encoding: 'hex' });
    const generated = passwords.passwords as string[];
    assert.equal(generated.length, 3);
    for (const p of generated) assert.match(p, /^[A-Za-z0-9]{20}$/);
    assert.deepEqual([lookup.domain, lookup.records], ['shop.test', [{ exchange: 'mail.shop.test', priority: 10 }]]);
    assert.equal(spam.is_spam, true);
    assert.deepEqual(
      (spam.reasons as { rule: string }[]).map((r) => r.rule),
      ['honeypot'],
    );
    assert.deepEqual([geo.ip, geo.country_code, geo.city, geo.reserved], ['8.8.8.8', 'US', 'Mountain View', false]);
  });

  it('call takes a path with its parameters filled in, and METHOD /path where a path has several operations', async () => {
    const { bin } = (await json(['call', 'createBin', 'name=by-path'])) as { bin: { bin_id: string } };
    const catchRes = await fetch(`${service.url}/v1/catch/${bin.bin_id}/hook`, { method: 'POST', body: 'x' });
    assert.equal(catchRes.status, 200);
    const [got, listed, bare, concrete, template] = await Promise.all([
      devutil(['call', `/v1/bins/${bin.bin_id}`]),
      json(['call', `GET /v1/bins/${bin.bin_id}/requests`, 'limit=1']),
      devutil(['call', '/v1/bins']),
      devutil(['call', `/v1/bins/${bin.bin_id}/requests`]),
      devutil(['call', '/v1/bins/{bin_id}/requests']),
    ]);
    // GET and DELETE share /v1/bins/{bin_id}: no method is guessed.
    assert.equal(got.status, 2);
    assert.match(
      got.stderr,
      /has several operations: getBin \(GET\), deleteBin \(DELETE\); name one, as in devutil call 'GET \/v1\/bins\/bin_/,
    );
    const requests = listed.requests as { path: string }[];
    assert.deepEqual(
      requests.map((r) => r.path),
      [`/v1/catch/${bin.bin_id}/hook`],
    );
    assert.deepEqual(
      [bare.status, bare.stderr],
      [2, "error: /v1/bins has several operations: createBin (POST), listBins (GET); name one, as in devutil call 'POST /v1/bins'\n"],
    );
    assert.equal(concrete.status, 2);
    assert.match(
      concrete.stderr,
      /^error: \/v1\/bins\/bin_\w+\/requests has several operations: listRequests \(GET\), clearRequests \(DELETE\); name one/,
    );
    assert.equal(template.status, 2);
    const deleted = await json(['call', `DELETE /v1/bins/${bin.bin_id}/requests`]);
    assert.deepEqual([deleted.bin_id, deleted.deleted], [bin.bin_id, 1]);
    const fields = await devutil(['call', `GET /v1/bins/${bin.bin_id}`, `bin_id=${bin.bin_id}`]);
    assert.equal(fields.status, 0, 'a field may name the parameter again');
    const conflicting = await devutil(['call', `GET /v1/bins/${bin.bin_id}`, 'bin_id=bin_other']);
    assert.deepEqual([conflicting.status, conflicting.stderr], [2, `error: bin_id=bin_other differs from ${bin.bin_id} in the path\n`]);
    // A path value is sent as written, `$` included (no replacement pattern).
    const dollar = await devutil(['call', 'GET /v1/mocks/mock_a$&b']);
    assert.equal(dollar.status, 1, dollar.stderr);
    assert.match(dollar.stderr, /\(code: not_found, HTTP 404\)/);
  });

  it('call refuses unknown fields and mistyped values (exit 2) and reports API errors (exit 1)', async () => {
    const [unknown, typed, noOp, missing, invalid] = await Promise.all([
      devutil(['call', 'transformJson', 'nope=1']),
      devutil(['call', 'generatePassword', 'length=long']),
      devutil(['call', 'frobnicate']),
      devutil(['call', 'getBin']),
      devutil(['call', 'transformJson', 'data=1', 'expression=[[']),
    ]);
    assert.deepEqual(
      [unknown.status, unknown.stderr],
      [2, 'error: transformJson has no field "nope" (devutil call transformJson --help lists them)\n'],
    );
    assert.deepEqual([typed.status, typed.stderr], [2, 'error: length=long: expected integer\n']);
    assert.deepEqual([noOp.status, noOp.stderr], [2, 'error: no operation "frobnicate" (devutil call --list lists them)\n']);
    assert.deepEqual([missing.status, missing.stderr], [2, 'error: getBin needs bin_id=...\n']);
    assert.equal(invalid.status, 1);
    assert.match(invalid.stderr, /^Error: .+ \(code: invalid_expression, HTTP 400\)\n$/);
  });

  it('call: @ alone and @@text are text, a mistyped JSON value is refused; --list --json is one array', async () => {
    const [current, escaped, badJson, listed] = await Promise.all([
      devutil(['call', 'transformJson', 'data={"a":[1,2]}', 'expression=@']),
      devutil(['call', 'transformJson', 'data={"a":[1,2]}', 'expression=@@.a']),
      devutil(['call', 'transformJson', 'data={bad', 'expression=a']),
      devutil(['call', '--list', '--json']),
    ]);
    assert.deepEqual([current.status, JSON.parse(current.stdout)], [0, { result: { a: [1, 2] }, expression: '@' }]);
    assert.deepEqual([escaped.status, JSON.parse(escaped.stdout)], [0, { result: [1, 2], expression: '@.a' }]);
    assert.deepEqual(
      [badJson.status, badJson.stdout, badJson.stderr],
      [2, '', 'error: data is not JSON (to send text that starts with [ or {, write it as a JSON string)\n'],
    );
    const operations = JSON.parse(listed.stdout) as { operation: string; method: string; path: string; summary: string }[];
    const transform = operations.find((op) => op.operation === 'transformJson')!;
    assert.deepEqual([transform.method, transform.path], ['POST', '/v1/json-transform']);
    assert.match(transform.summary, /JMESPath/);
    assert.ok(operations.length > 50);
  });

  it('short forms read a file or standard input and print a string result alone', async () => {
    writeFileSync(join(dir, 'people.json'), '{"people":[{"name":"Ada","age":36},{"name":"Alan","age":41}]}');
    const binary = Buffer.from([0, 1, 2, 0xfe, 0xff, 0x80, 0x0a]);
    writeFileSync(join(dir, 'blob.bin'), binary);
    writeFileSync(join(dir, 'big.bin'), Buffer.alloc(3 * 1024 * 1024, 7));
    // Independent commands, side by side.
    const [fromFile, fromStdin, notJson, hashed, md5, encoded, urlSafe, decoded, decodedText, signed, generated, a, mx, tooBig, txt] =
      await Promise.all([
        devutil(['jmespath', 'people[1].name', join(dir, 'people.json')]),
        devutil(['jmespath', 'people[*].age'], '{"people":[{"age":1},{"age":2}]}'),
        devutil(['jmespath', 'a'], 'not json'),
        devutil(['hash', join(dir, 'blob.bin')]),
        devutil(['hash', '--algorithm', 'md5', '--encoding', 'base64'], 'hello'),
        devutil(['base64', 'encode', join(dir, 'blob.bin')]),
        devutil(['base64', 'encode', '--url-safe', '--no-padding'], Buffer.from([0xfb, 0xff])),
        devutil(['base64', 'decode'], `${binary.toString('base64')}\n`),
        devutil(['base64', 'decode'], 'aGVsbG8='),
        devutil(['jwt', 'sign', '{"sub":"42"}', '--secret', 's3cret', '--issuer', 'devutil']),
        devutil(['totp', 'generate', '--issuer', 'Acme', '--account', 'ada@example.com']),
        devutil(['dns', 'shop.test']),
        devutil(['dns', 'shop.test', 'MX']),
        devutil(['hash', join(dir, 'big.bin')]),
        devutil(['dns', 'shop.test', 'TXT']),
      ]);
    assert.equal(fromFile.stdout, 'Alan\n');
    assert.equal(fromStdin.stdout, '[\n  1,\n  2\n]\n');
    assert.deepEqual(
      [notJson.status, notJson.stderr],
      [2, 'error: standard input is not JSON: Unexpected token \'o\', "not json" is not valid JSON\n'],
    );
    assert.equal(hashed.stdout, `${createHash('sha256').update(binary).digest('hex')}\n`);
    assert.equal(md5.stdout, `${createHash('md5').update('hello').digest('base64')}\n`);
    assert.equal(encoded.stdout, `${binary.toString('base64')}\n`);
    assert.equal(urlSafe.stdout, '-_8\n');
    assert.deepEqual(decoded.stdoutBytes, binary);
    assert.equal(decodedText.stdout, 'hello');
    assert.equal(a.stdout, '192.0.2.10  300\n');
    assert.equal(mx.stdout, 'mail.shop.test  10\n');
    assert.equal(txt.stdout, 'hi\\x1b]0;pwned\\x07\n');
    // Over the JSON body limit: said before sending (the service would answer 413 to a body fetch is still sending).
    assert.deepEqual(
      [tooBig.status, tooBig.stdout, tooBig.stderr],
      [2, '', "error: the request's JSON body would be 4.1 MiB; the service takes at most 2 MiB\n"],
    );

    assert.equal(signed.status, 0, signed.stderr);
    assert.match(signed.stdout, /^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    const token = signed.stdout.trim();
    const secret = generated.stdout.trim();
    assert.match(secret, /^[A-Z2-7]{16,}$/);
    assert.match(generated.stderr, /^otpauth:\/\/totp\/Acme:ada%40example\.com\?/);
    const now = Math.floor(Date.now() / 1000);
    const [jwtDecoded, valid, forged, codeOk, codeWrong] = await Promise.all([
      devutil(['jwt', 'decode'], token),
      devutil(['jwt', 'verify', token, '--secret', 's3cret']),
      devutil(['jwt', 'verify', token, '--secret', 'other']),
      devutil(['totp', 'verify', totpCode(secret, now), '--secret', secret]),
      devutil(['totp', 'verify', totpCode(secret, now + 3600), '--secret', secret]),
    ]);
    const { header, payload } = JSON.parse(jwtDecoded.stdout) as { header: unknown; payload: { sub: string; iss: string } };
    assert.deepEqual([header, payload.sub, payload.iss], [{ alg: 'HS256', typ: 'JWT' }, '42', 'devutil']);
    assert.deepEqual([valid.status, valid.stdout], [0, 'valid\n']);
    assert.deepEqual(
      [forged.status, forged.stdout],
      [1, 'invalid (invalid_signature): the signature does not match the header and payload with this key\n'],
    );
    assert.equal(codeOk.status, 0);
    assert.match(codeOk.stdout, /^valid \(step (-1|0|1)\)\n$/);
    assert.deepEqual([codeWrong.status, codeWrong.stdout], [1, 'invalid\n']);

    // The payload from standard input; the token alone on stdout, so it pipes into verify.
    const piped = await devutil(['jwt', 'sign', '--secret', 's3cret'], '{"sub":"7"}');
    assert.equal(piped.status, 0, piped.stderr);
    assert.match(piped.stdout, /^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    assert.deepEqual(await devutil(['jwt', 'verify', '--secret', 's3cret'], piped.stdout).then((r) => [r.status, r.stdout]), [
      0,
      'valid\n',
    ]);
  });
});
