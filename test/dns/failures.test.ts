import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { buildTestApp } from '../helpers/app.js';
import { startDnsServer } from './dns-server.js';
import { useTestZone } from './zone.js';

describe('DNS upstream failures', () => {
  const zone = useTestZone();

  it('SERVFAIL answers 502 upstream_error', async () => {
    const res = await zone.t.app.inject({ method: 'GET', url: '/v1/lookup?domain=servfail.example.test&type=A', headers: zone.t.auth });
    assert.equal(res.statusCode, 502);
    assert.equal(res.json().code, 'upstream_error');
    assert.match(res.json().detail, /SERVFAIL/);
  });

  it('REFUSED answers 502 upstream_error', async () => {
    const res = await zone.t.app.inject({
      method: 'POST',
      url: '/v1/devtools/dns-lookup',
      headers: zone.t.auth,
      payload: { domain: 'refused.example.test', type: 'TXT' },
    });
    assert.equal(res.statusCode, 502);
    assert.equal(res.json().code, 'upstream_error');
  });

  it('a failure is not cached: the next lookup asks again', async () => {
    const count = () => zone.dns.queries.filter((q) => q.name === 'servfail.example.test' && q.type === 'MX').length;
    await zone.t.app.inject({ method: 'GET', url: '/v1/lookup?domain=servfail.example.test&type=MX', headers: zone.t.auth });
    const first = count();
    await zone.t.app.inject({ method: 'GET', url: '/v1/lookup?domain=servfail.example.test&type=MX', headers: zone.t.auth });
    assert.ok(count() > first);
  });
});

describe('DNS upstream failures in the log', () => {
  it('a 502 is a warning naming the reason, without a stack trace', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const dns = await startDnsServer({}, { failing: { 'servfail.example.test': 'SERVFAIL' } });
    const t = await buildTestApp({ env: { DNS_SERVERS: dns.address }, logger: { level: 'info', stream } });
    try {
      for (const url of ['/v1/lookup?domain=servfail.example.test&type=A', '/v1/lookup?domain=servfail.example.test&type=MX']) {
        assert.equal((await t.app.inject({ method: 'GET', url, headers: t.auth })).statusCode, 502);
      }
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/devtools/dns-lookup',
        headers: t.auth,
        payload: { domain: 'servfail.example.test', type: 'TXT' },
      });
      assert.equal(res.statusCode, 502);
    } finally {
      await t.close();
      await dns.close();
    }
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => (l.level as number) >= 40);
    assert.equal(entries.length, 3, lines.join(''));
    for (const entry of entries) {
      assert.deepEqual([entry.level, entry.msg, entry.code], [40, 'upstream failed', 'upstream_error']);
      assert.match(String(entry.detail), /SERVFAIL/);
      assert.equal(entry.err, undefined);
      // Each line names its request, once (requests share the app's logger).
      assert.match(String(entry.reqId), /^[A-Za-z0-9]{12}-[0-9a-z]+$/);
    }
  });
});

describe('DNS server unreachable or silent', () => {
  it('nothing listening on the resolver port answers 502 upstream_error', async () => {
    const probe = createSocket('udp4');
    await new Promise<void>((resolve) => probe.bind(0, '127.0.0.1', resolve));
    const port = probe.address().port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const t = await buildTestApp({ env: { DNS_SERVERS: `127.0.0.1:${port}` } });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/v1/lookup?domain=example.test&type=A', headers: t.auth });
      assert.equal(res.statusCode, 502);
      assert.equal(res.json().code, 'upstream_error');
    } finally {
      await t.close();
    }
  });

  it('a server that never answers gives 504 upstream_timeout after 5 s', async () => {
    const silent = await startDnsServer({}, { silent: true });
    const t = await buildTestApp({ env: { DNS_SERVERS: silent.address } });
    try {
      const started = Date.now();
      const res = await t.app.inject({ method: 'GET', url: '/v1/lookup?domain=example.test&type=A', headers: t.auth });
      const took = Date.now() - started;
      assert.equal(res.statusCode, 504);
      assert.equal(res.json().code, 'upstream_timeout');
      assert.ok(took >= 4900 && took < 7000, `took ${took} ms`);
      assert.ok(silent.queries.length >= 1);
    } finally {
      await t.close();
      await silent.close();
    }
  });
});

describe('DNS upstreams that are slow or lose a datagram', () => {
  const zone = {
    'fast.example.test': [{ type: 'A', data: '192.0.2.1' }],
    'slow.example.test': [{ type: 'A', data: '192.0.2.2' }],
    'lossy.example.test': [{ type: 'A', data: '192.0.2.3' }],
  };

  it('an upstream answering after 3.5 s, once fast answers came before, is answered (the budget is 5 s)', async () => {
    const dns = await startDnsServer(zone, { delayMs: { 'slow.example.test': 3500 } });
    const t = await buildTestApp({ env: { DNS_SERVERS: dns.address } });
    try {
      for (let i = 0; i < 3; i++) {
        const fast = await t.app.inject({
          method: 'POST',
          url: '/v1/devtools/dns-lookup',
          headers: t.auth,
          payload: { domain: 'fast.example.test', type: i === 0 ? 'A' : i === 1 ? 'AAAA' : 'MX' },
        });
        assert.equal(fast.statusCode, 200);
      }
      const started = Date.now();
      const res = await t.app.inject({ method: 'GET', url: '/v1/lookup?domain=slow.example.test&type=A', headers: t.auth });
      const took = Date.now() - started;
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(
        res.json().records.map((r: { address: string }) => r.address),
        ['192.0.2.2'],
      );
      assert.ok(took >= 3400 && took < 4900, `took ${took} ms`);
    } finally {
      await t.close();
      await dns.close();
    }
  });

  it('a lost datagram is sent again: answered after about 1.5 s, not a timeout', async () => {
    const dns = await startDnsServer(zone, { dropFirst: ['lossy.example.test'] });
    const t = await buildTestApp({ env: { DNS_SERVERS: dns.address } });
    try {
      const started = Date.now();
      const res = await t.app.inject({ method: 'GET', url: '/v1/lookup?domain=lossy.example.test&type=A', headers: t.auth });
      const took = Date.now() - started;
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(
        res.json().records.map((r: { address: string }) => r.address),
        ['192.0.2.3'],
      );
      assert.ok(took >= 1400 && took < 3000, `took ${took} ms`);
      assert.deepEqual(
        dns.queries.filter((q) => q.name === 'lossy.example.test').map((q) => q.type),
        ['dropped', 'A'],
      );
    } finally {
      await t.close();
      await dns.close();
    }
  });
});

describe('DNS: an SPF include that never answers', () => {
  it("is reported as include_failed with the domain's own record (200 before the 5 s lookup limit), as a SERVFAIL include is", async () => {
    const dns = await startDnsServer(
      {
        'silentinc.test': [{ type: 'TXT', data: 'v=spf1 ip4:192.0.2.1 include:never.test -all' }],
        'never.test': [{ type: 'TXT', data: 'v=spf1 -all' }],
      },
      { delayMs: { 'never.test': 20_000 } },
    );
    const t = await buildTestApp({ env: { DNS_SERVERS: dns.address } });
    try {
      const started = Date.now();
      const res = await t.app.inject({ method: 'GET', url: '/v1/lookup?domain=silentinc.test&type=SPF', headers: t.auth });
      const took = Date.now() - started;
      assert.equal(res.statusCode, 200, res.body);
      assert.ok(took < 5000, `answered after ${took} ms`);
      const [record] = res.json().records;
      assert.equal(record.value, 'v=spf1 ip4:192.0.2.1 include:never.test -all');
      assert.deepEqual([record.valid, record.warnings.map((w: { code: string }) => w.code)], [true, ['include_failed']]);
    } finally {
      await t.close();
      await dns.close();
    }
  });
});
