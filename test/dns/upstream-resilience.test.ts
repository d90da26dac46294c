import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { COMMON_DKIM_SELECTORS } from '../../src/areas/dns/dkim.js';
import { MAX_QUERIES_PER_CALLER, MAX_RESOLVERS } from '../../src/areas/dns/dns-client.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { startDnsServer, type DnsServerOptions, type TestDnsServer } from './dns-server.js';

const ZONE = {
  'two.example.test': [{ type: 'A', data: '192.0.2.2' }],
  'three.example.test': [{ type: 'A', data: '192.0.2.3' }],
  'four.example.test': [{ type: 'A', data: '192.0.2.4' }],
};

// The two suites wait on timers (1.5 s resends, 5 s timeouts), so they run side by side.
describe('DNS upstreams that die or are flooded', { concurrency: true }, () => {
  describe('DNS_SERVERS whose first server stops answering', { concurrency: 1 }, () => {
    // Flipping `silent` makes a server die or come back.
    const first: DnsServerOptions = { silent: true };
    const second: DnsServerOptions = {};
    let a: TestDnsServer;
    let b: TestDnsServer;
    let t: TestApp;

    before(async () => {
      a = await startDnsServer(ZONE, first);
      b = await startDnsServer(ZONE, second);
      t = await buildTestApp({ env: { DNS_SERVERS: `${a.address},${b.address}` } });
    });
    after(async () => {
      await t.close();
      await a.close();
      await b.close();
    });

    async function lookup(domain: string) {
      const started = performance.now();
      const res = await t.app.inject({ method: 'GET', url: `/v1/lookup?domain=${domain}&type=A`, headers: t.auth });
      return { res, took: performance.now() - started, addresses: res.json().records?.map((r: { address: string }) => r.address) };
    }

    it('once the second server answered a resend (NXDOMAIN counts), the next query starts there: no 1.5 s wait', async () => {
      const missing = await lookup('missing.example.test');
      assert.equal(missing.res.statusCode, 200, missing.res.body);
      assert.deepEqual(missing.addresses, []);
      assert.ok(missing.took >= 1400 && missing.took < 3000, `first query took ${missing.took} ms`);

      const next = await lookup('two.example.test');
      assert.equal(next.res.statusCode, 200, next.res.body);
      assert.deepEqual(next.addresses, ['192.0.2.2']);
      assert.ok(next.took < 700, `second query took ${next.took} ms`);
      assert.deepEqual(
        a.queries.map((q) => q.name),
        ['missing.example.test'],
      );
    });

    it('when the preferred server dies and the first comes back, queries still succeed by the resend, then start on the first', async () => {
      second.silent = true;
      first.silent = false;
      const resent = await lookup('three.example.test');
      assert.equal(resent.res.statusCode, 200, resent.res.body);
      assert.deepEqual(resent.addresses, ['192.0.2.3']);
      assert.ok(resent.took >= 1400 && resent.took < 3000, `took ${resent.took} ms`);

      const next = await lookup('four.example.test');
      assert.equal(next.res.statusCode, 200, next.res.body);
      assert.deepEqual(next.addresses, ['192.0.2.4']);
      assert.ok(next.took < 700, `took ${next.took} ms`);
      assert.deepEqual(
        b.queries.filter((q) => q.name === 'four.example.test'),
        [],
      );
    });
  });

  describe('a flood of distinct DNS queries against a silent server', { concurrency: 1 }, () => {
    it('at most MAX_RESOLVERS resolvers (sockets) work at once, every lookup is 504 within 5 s, and no turn is lost', async () => {
      const options: DnsServerOptions = { silent: true };
      const dns = await startDnsServer({}, options);
      const t = await buildTestApp({ env: { DNS_SERVERS: dns.address } });
      // More queries than MAX_RESOLVERS, though each waits on a silent server and sends a resend too,
      // from more callers than the turns need (one caller alone gets MAX_QUERIES_PER_CALLER of them).
      const count = MAX_RESOLVERS + 44;
      const callers = await Promise.all(Array.from({ length: 12 }, () => t.newKey()));
      const lookupAll = (prefix: string) => {
        const started = performance.now();
        return Array.from({ length: count }, (_, i) =>
          t.app
            .inject({
              method: 'GET',
              url: `/v1/lookup?domain=${prefix}${i}.flood.test&type=A`,
              headers: { 'x-api-key': callers[i % callers.length]!.secret },
            })
            .then((res) => ({ res, took: performance.now() - started })),
        );
      };
      try {
        const silent = lookupAll('s');
        // Each resolver sends one datagram; none gives up before 5 s, so by 4.5 s every one started is still working.
        await sleep(4500);
        const sent = dns.queries.length;
        assert.ok(
          sent <= MAX_RESOLVERS && sent >= MAX_RESOLVERS / 2,
          `${sent} datagrams for ${count} queries (a first try and a resend each)`,
        );

        for (const { res, took } of await Promise.all(silent)) {
          assert.equal(res.statusCode, 504, res.body);
          assert.equal(res.json().code, 'upstream_timeout');
          assert.ok(took < 5600, `took ${took} ms`);
        }

        options.silent = false;
        const answered = await Promise.all(lookupAll('a'));
        for (const { res } of answered) {
          assert.equal(res.statusCode, 200, res.body);
          assert.deepEqual(res.json().records, []);
        }
        assert.ok(Math.max(...answered.map((r) => r.took)) < 2000, 'answered lookups waited for turns that were never given back');
      } finally {
        await t.close();
        await dns.close();
      }
    });

    it('a name one caller queued behind its own share is answered at once for another caller who asks the same', async () => {
      const slowNames = ['slow-a.test', 'slow-b.test'];
      // 44 DKIM names answer after 6 s: one caller runs 32 of them, and its next queries wait.
      const delayMs = Object.fromEntries(
        slowNames.flatMap((domain) => COMMON_DKIM_SELECTORS.map((selector) => [`${selector}._domainkey.${domain}`, 6000])),
      );
      const dns = await startDnsServer({ 'fast.test': [{ type: 'MX', data: { preference: 10, exchange: 'mx.fast.test' } }] }, { delayMs });
      const t = await buildTestApp({ env: { DNS_SERVERS: dns.address } });
      const other = await t.newKey();
      try {
        const flood = slowNames.map((domain) =>
          t.app.inject({ method: 'GET', url: `/v1/lookup?domain=${domain}&type=DKIM`, headers: t.auth }),
        );
        await sleep(100);
        // The flooding caller asks fast.test too: its query waits behind its own share.
        const queued = t.app.inject({ method: 'GET', url: '/v1/lookup?domain=fast.test&type=MX', headers: t.auth });
        await sleep(50);
        const started = performance.now();
        const mine = await t.app.inject({
          method: 'GET',
          url: '/v1/lookup?domain=fast.test&type=MX',
          headers: { 'x-api-key': other.secret },
        });
        const took = performance.now() - started;
        assert.equal(mine.statusCode, 200, mine.body);
        assert.deepEqual(mine.json().records, [{ exchange: 'mx.fast.test', priority: 10 }]);
        assert.ok(took < 1000, `the other caller waited ${took} ms for a query queued by the flooding one`);
        // The shared query answered the flooding caller as well.
        assert.equal((await queued).statusCode, 200);
        for (const res of await Promise.all(flood)) assert.equal(res.statusCode, 504, res.body);
      } finally {
        await t.close();
        await dns.close();
      }
    });

    it("the queries of a lookup end with it: SPF includes asked late (reported include_failed) do not hold the caller's turns", async () => {
      const domains = ['spf-a.test', 'spf-b.test', 'spf-c.test', 'spf-d.test'];
      const zone: Record<string, { type: string; data: unknown }[]> = { 'fast.test': [{ type: 'A', data: '192.0.2.9' }] };
      const delayMs: Record<string, number> = {};
      for (const domain of domains) {
        const includes = Array.from({ length: 10 }, (_, i) => `i${i}.${domain}`);
        zone[domain] = [{ type: 'TXT', data: `v=spf1 ${includes.map((name) => `include:${name}`).join(' ')} -all` }];
        // The record comes at 4.7 s, its includes would come after 6 s.
        delayMs[domain] = 4700;
        for (const name of includes) {
          zone[name] = [{ type: 'TXT', data: 'v=spf1 -all' }];
          delayMs[name] = 6000;
        }
      }
      const dns = await startDnsServer(zone, { delayMs });
      const t = await buildTestApp({ env: { DNS_SERVERS: dns.address } });
      try {
        const lookups = await Promise.all(
          domains.map((domain) => t.app.inject({ method: 'GET', url: `/v1/lookup?domain=${domain}&type=SPF`, headers: t.auth })),
        );
        // Each record came at 4.7 s, past the time its includes had (they end 0.5 s before the lookup's 5 s).
        for (const res of lookups) {
          assert.equal(res.statusCode, 200, res.body);
          assert.deepEqual(new Set(res.json().records[0].warnings.map((w: { code: string }) => w.code)), new Set(['include_failed']));
        }
        await sleep(300);
        const started = performance.now();
        const fast = await t.app.inject({ method: 'GET', url: '/v1/lookup?domain=fast.test&type=A', headers: t.auth });
        const took = performance.now() - started;
        assert.equal(fast.statusCode, 200, fast.body);
        assert.ok(took < 1000, `the same caller waited ${took} ms behind queries of lookups already answered`);
      } finally {
        await t.close();
        await dns.close();
      }
    });

    it("a caller joining a query asked late in another's lookup keeps its own 5 s, not that lookup's last moments", async () => {
      const zone = {
        'late.test': [{ type: 'TXT', data: 'v=spf1 include:shared.test -all' }],
        'shared.test': [{ type: 'TXT', data: 'v=spf1 ip4:192.0.2.1 -all' }],
      };
      // late.test's record comes at 4 s: its include, shared.test (answered in 0.9 s), is asked with 0.5 s of that
      // lookup's follow-up time left (they end 0.5 s before its 5 s).
      const dns = await startDnsServer(zone, { delayMs: { 'late.test': 4000, 'shared.test': 900 } });
      const t = await buildTestApp({ env: { DNS_SERVERS: dns.address } });
      const other = await t.newKey();
      try {
        const late = t.app.inject({ method: 'GET', url: '/v1/lookup?domain=late.test&type=SPF', headers: t.auth });
        while (!dns.queries.some((q) => q.name === 'shared.test')) await sleep(5);
        await sleep(100);
        const started = performance.now();
        const mine = await t.app.inject({
          method: 'GET',
          url: '/v1/lookup?domain=shared.test&type=TXT',
          headers: { 'x-api-key': other.secret },
        });
        const took = performance.now() - started;
        assert.equal(mine.statusCode, 200, `${mine.statusCode} after ${Math.round(took)} ms: ${mine.body}`);
        assert.deepEqual(mine.json().records, [{ value: 'v=spf1 ip4:192.0.2.1 -all' }]);
        // late.test's own lookup answers with its record before its 5 s (the shared query, kept alive by the
        // other caller, may even have brought its include in time).
        const lateAnswer = await late;
        assert.equal(lateAnswer.statusCode, 200, lateAnswer.body);
        assert.equal(lateAnswer.json().records[0].value, 'v=spf1 include:shared.test -all');
        // One query served both.
        assert.equal(dns.queries.filter((q) => q.name === 'shared.test').length, 1);
      } finally {
        await t.close();
        await dns.close();
      }
    });

    it('one caller flooding slow names holds at most its share of the turns: another caller is answered at once', async () => {
      const slowNames = Array.from({ length: 6 }, (_, i) => `slow${i}.test`);
      // Every DKIM name under the slow domains answers after 6 s (past the 5 s budget); fast.test at once.
      const delayMs = Object.fromEntries(
        slowNames.flatMap((domain) => COMMON_DKIM_SELECTORS.map((selector) => [`${selector}._domainkey.${domain}`, 6000])),
      );
      const options: DnsServerOptions = { delayMs };
      const dns = await startDnsServer({ 'fast.test': [{ type: 'A', data: '192.0.2.9' }] }, options);
      const t = await buildTestApp({ env: { DNS_SERVERS: dns.address } });
      const other = await t.newKey();
      try {
        const slowLookups = slowNames.map((domain) =>
          t.app.inject({ method: 'GET', url: `/v1/lookup?domain=${domain}&type=DKIM`, headers: t.auth }),
        );
        // DKIM without a selector asks 22 names per domain: 132 queries, more than all the turns.
        await sleep(200);
        const seenBefore = dns.queries.length;
        assert.ok(
          seenBefore <= MAX_QUERIES_PER_CALLER * 2,
          `${seenBefore} datagrams from one caller (its share: ${MAX_QUERIES_PER_CALLER} queries)`,
        );
        assert.ok(seenBefore >= MAX_QUERIES_PER_CALLER, `${seenBefore} datagrams: the caller should have its full share running`);

        const started = performance.now();
        const fast = await t.app.inject({
          method: 'GET',
          url: '/v1/lookup?domain=fast.test&type=A',
          headers: { 'x-api-key': other.secret },
        });
        const took = performance.now() - started;
        assert.equal(fast.statusCode, 200, fast.body);
        assert.deepEqual(
          fast.json().records.map((r: { address: string }) => r.address),
          ['192.0.2.9'],
        );
        assert.ok(took < 1000, `the other caller waited ${took} ms`);

        for (const res of await Promise.all(slowLookups)) assert.equal(res.statusCode, 504, res.body);
      } finally {
        await t.close();
        await dns.close();
      }
    });
  });
});
