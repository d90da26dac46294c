import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { replay, seedCapture, startTarget, type TargetServer } from './replay-helpers.js';

type Answer = { address: string; family: number }[];

/**
 * Replay through HTTP with the service's name resolution replaced by a table (the app's
 * `resolveHost`), so names can resolve to any address without DNS. Every name that resolves to a
 * non-loopback address here is refused before a connection is tried: no traffic leaves loopback.
 */
describe('replay: what a target name resolves to', () => {
  const asked: string[] = [];
  const TABLE: Record<string, Answer[]> = {
    'internal.test': [[{ address: '10.0.0.5', family: 4 }]],
    // One public address does not make the others acceptable.
    'mixed.test': [
      [
        { address: '93.184.216.34', family: 4 },
        { address: '169.254.169.254', family: 4 },
      ],
    ],
    'ula.test': [
      [
        { address: '2606:4700::1', family: 6 },
        { address: 'fd00::1', family: 6 },
      ],
    ],
    'loop.test': [[{ address: '127.0.0.1', family: 4 }]],
    'mapped.test': [[{ address: '::ffff:127.0.0.1', family: 6 }]],
    // A rebinding name: loopback when checked, another loopback address on every later lookup.
    'rebind.test': [[{ address: '127.0.0.1', family: 4 }], [{ address: '127.0.0.2', family: 4 }]],
  };
  const resolveHost = async (hostname: string): Promise<Answer> => {
    const answers = TABLE[hostname];
    if (!answers) throw Object.assign(new Error(`no such name ${hostname}`), { code: 'ENOTFOUND' });
    const n = asked.filter((h) => h === hostname).length;
    asked.push(hostname);
    return answers[Math.min(n, answers.length - 1)]!;
  };

  let guarded: TestApp;
  let allowed: TestApp;
  let checked: TargetServer;
  let other: http.Server;
  const otherHits: string[] = [];

  before(async () => {
    checked = await startTarget((_req, res) => {
      res.writeHead(202, { 'x-target': 'checked' });
      res.end('from the checked address');
    });
    // The same port on 127.0.0.2: where a second lookup would send the request.
    other = http.createServer((req, res) => {
      otherHits.push(req.url ?? '');
      res.end('from the rebound address');
    });
    await new Promise<void>((resolve, reject) => {
      other.once('error', reject);
      other.listen(checked.port, '127.0.0.2', resolve);
    });
    guarded = await buildTestApp({ resolveHost });
    allowed = await buildTestApp({ resolveHost, env: { REPLAY_ALLOW_HOSTS: `rebind.test:${checked.port}` } });
  });
  after(async () => {
    await checked.close();
    other.closeAllConnections();
    await new Promise<void>((resolve) => other.close(() => resolve()));
    await guarded.close();
    await allowed.close();
  });

  for (const [name, shown] of [
    ['internal.test', /internal\.test resolves to 10\.0\.0\.5 \(private\)/],
    ['mixed.test', /mixed\.test resolves to 169\.254\.169\.254 \(link_local\)/],
    ['ula.test', /ula\.test resolves to fd00::1 \(/],
    ['loop.test', /loop\.test resolves to 127\.0\.0\.1 \(loopback\)/],
    ['mapped.test', /mapped\.test resolves to ::ffff:127\.0\.0\.1 \(loopback\)/],
  ] as const) {
    it(`a name that resolves to a non-public address (${name}) → 422 target_not_allowed naming it, nothing sent`, async () => {
      const seeded = await seedCapture(guarded);
      const before = asked.length;
      const res = await replay(guarded, seeded, { target_url: `http://${name}:8080/hook` });
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().code, 'target_not_allowed');
      assert.match(res.json().detail, shown);
      assert.deepEqual(asked.slice(before), [name], 'resolved once, through the service resolution');
    });
  }

  it('a name that does not resolve → 502 upstream_error', async () => {
    const seeded = await seedCapture(guarded);
    const res = await replay(guarded, seeded, { target_url: 'http://nowhere.test/hook' });
    assert.equal(res.statusCode, 502);
    assert.equal(res.json().code, 'upstream_error');
    assert.match(res.json().detail, /Could not resolve nowhere\.test: ENOTFOUND/);
  });

  it('connects to the address it checked: a second lookup answering another address is never asked (no DNS rebinding)', async () => {
    const seeded = await seedCapture(allowed);
    const before = asked.length;
    const res = await replay(allowed, seeded, { target_url: `http://rebind.test:${checked.port}/hook?x=1` });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().response_status, 202);
    assert.equal(res.json().response_body, 'from the checked address');
    assert.deepEqual(asked.slice(before), ['rebind.test'], 'one lookup: the connection reuses the checked address');
    assert.equal(checked.received.length, 1);
    assert.equal(checked.received[0]!.url, '/hook?x=1');
    // The Host header keeps the name the caller gave.
    assert.equal(checked.received[0]!.headers.host, `rebind.test:${checked.port}`);
    assert.deepEqual(otherHits, []);
    // The rebound address is really there: a second replay would have reached it had it looked again.
    assert.equal(await (await fetch(`http://127.0.0.2:${checked.port}/probe`)).text(), 'from the rebound address');
  });
});
