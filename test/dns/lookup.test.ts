import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestZone } from './zone.js';

describe('DNS lookup against a local test server', () => {
  const zone = useTestZone();

  const get = (query: string) => zone.t.app.inject({ method: 'GET', url: `/v1/lookup?${query}`, headers: zone.t.auth });
  const records = async (query: string) => {
    const res = await get(query);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().records as unknown[];
  };

  it('A records carry their TTLs', async () => {
    const res = await get('domain=example.test&type=A');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['domain', 'elapsed_ms', 'records', 'type']);
    assert.equal(body.domain, 'example.test');
    assert.equal(body.type, 'A');
    assert.equal(typeof body.elapsed_ms, 'number');
    assert.deepEqual(
      body.records.sort((a: { address: string }, b: { address: string }) => a.address.localeCompare(b.address)),
      [
        { address: '192.0.2.1', ttl: 300 },
        { address: '192.0.2.2', ttl: 120 },
      ],
    );
  });

  it('AAAA records carry their TTLs', async () => {
    assert.deepEqual(await records('domain=example.test&type=AAAA'), [{ address: '2001:db8::1', ttl: 600 }]);
  });

  it('type is case-insensitive and defaults to A', async () => {
    assert.deepEqual((await get('domain=example.test&type=aaaa')).json().type, 'AAAA');
    assert.equal((await get('domain=example.test')).json().type, 'A');
  });

  it('CNAME', async () => {
    assert.deepEqual(await records('domain=www.example.test&type=CNAME'), [{ value: 'example.test' }]);
  });

  it('MX', async () => {
    const mx = await records('domain=example.test&type=MX');
    assert.deepEqual(
      mx.sort((a, b) => (a as { priority: number }).priority - (b as { priority: number }).priority),
      [
        { exchange: 'mx1.example.test', priority: 10 },
        { exchange: 'mx2.example.test', priority: 20 },
      ],
    );
  });

  it('MX: a null MX (RFC 7505) names the root, "."', async () => {
    assert.deepEqual(await records('domain=nullmx.test&type=MX'), [{ exchange: '.', priority: 0 }]);
  });

  it('SRV: a target of "." (RFC 2782: the service is decidedly not available there) is ".", as a null MX is', async () => {
    assert.deepEqual(await records('domain=_imap._tcp.nullsrv.test&type=SRV'), [{ name: '.', port: 0, priority: 0, weight: 0 }]);
  });

  it('A: a TTL with the top bit set is 0 (RFC 2181 §8); 2^31-1 is kept', async () => {
    const found = (await records('domain=bigttl.test&type=A')) as { address: string; ttl: number }[];
    assert.deepEqual(
      found.sort((a, b) => a.address.localeCompare(b.address)),
      [
        { address: '192.0.2.7', ttl: 0 },
        { address: '192.0.2.8', ttl: 2147483647 },
      ],
    );
  });

  it('NS', async () => {
    assert.deepEqual((await records('domain=example.test&type=NS')).map((r) => (r as { value: string }).value).sort(), [
      'ns1.example.test',
      'ns2.example.test',
    ]);
  });

  it('TXT joins a record split into several strings', async () => {
    const values = (await records('domain=example.test&type=TXT')).map((r) => (r as { value: string }).value);
    assert.ok(values.includes('part one part two part three'));
    assert.ok(values.includes('hello world'));
    assert.equal(values.length, 3);
  });

  it('TXT text is read as UTF-8 when its bytes are UTF-8 (even split across strings), else one character per byte', async () => {
    assert.deepEqual(await records('domain=utf8.example.test&type=TXT'), [{ value: 'caf\u00e9 \u2615 \u65e5\u672c' }]);
    assert.deepEqual(await records('domain=split.example.test&type=TXT'), [{ value: 'caf\u00e9!' }]);
    assert.deepEqual(await records('domain=latin1.example.test&type=TXT'), [{ value: 'caf\u00e9' }]);
  });

  it('SOA', async () => {
    assert.deepEqual(await records('domain=example.test&type=SOA'), [
      {
        nsname: 'ns1.example.test',
        hostmaster: 'hostmaster.example.test',
        serial: 2026112201,
        refresh: 7200,
        retry: 3600,
        expire: 1209600,
        minttl: 300,
      },
    ]);
  });

  it('SRV', async () => {
    assert.deepEqual(await records('domain=_sip._tcp.example.test&type=SRV'), [
      { name: 'sip.example.test', port: 5060, priority: 10, weight: 60 },
    ]);
  });

  it('CAA with the issuer-critical flag', async () => {
    const caa = await records('domain=example.test&type=CAA');
    assert.deepEqual(
      caa.sort((a, b) => (a as { tag: string }).tag.localeCompare((b as { tag: string }).tag)),
      [
        { critical: true, tag: 'iodef', value: 'mailto:security@example.test' },
        { critical: false, tag: 'issue', value: 'letsencrypt.org' },
      ],
    );
  });

  it('CAA with a tag named "critical" keeps its tag and value', async () => {
    assert.deepEqual(await records('domain=caacritical.test&type=CAA'), [{ critical: false, tag: 'critical', value: 'kept' }]);
  });

  it('PTR from an IPv4 address builds the in-addr.arpa name', async () => {
    const res = await get('domain=192.0.2.1&type=PTR');
    assert.deepEqual(res.json().records, [{ value: 'host.example.test' }]);
    assert.equal(res.json().domain, '192.0.2.1');
    assert.ok(zone.dns.queries.some((q) => q.name === '1.2.0.192.in-addr.arpa' && q.type === 'PTR'));
  });

  it('PTR from an IPv6 address builds the ip6.arpa name', async () => {
    assert.deepEqual(await records('domain=2001:db8::1&type=PTR'), [{ value: 'v6host.example.test' }]);
  });

  it('PTR accepts the reverse name itself', async () => {
    assert.deepEqual(await records('domain=1.2.0.192.in-addr.arpa&type=ptr'), [{ value: 'host.example.test' }]);
  });

  it('a UDP answer truncated (TC bit) is retried over TCP and arrives whole', async () => {
    const a = await records('domain=big.example.test&type=A');
    assert.equal(a.length, 120);
    const asked = zone.dns.queries.filter((q) => q.name === 'big.example.test');
    assert.deepEqual(
      asked.map((q) => q.transport),
      ['udp', 'tcp'],
    );
  });

  it('NXDOMAIN answers 200 with no records', async () => {
    const res = await get('domain=nothing-here.example.test&type=A');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().records, []);
  });

  it('a name without records of the type (NODATA) answers 200 with no records', async () => {
    assert.deepEqual(await records('domain=txtonly.example.test&type=MX'), []);
  });

  it('a unicode name is queried in punycode', async () => {
    const res = await get(`domain=${encodeURIComponent('MÜNCHEN.test')}&type=A`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().domain, 'xn--mnchen-3ya.test');
    assert.deepEqual(res.json().records, [{ address: '192.0.2.77', ttl: 300 }]);
  });

  it('a final dot and upper case are accepted', async () => {
    const res = await get('domain=Example.TEST.&type=NS');
    assert.equal(res.json().domain, 'example.test');
    assert.equal(res.json().records.length, 2);
  });

  it('GET /v1/lookup and POST /v1/devtools/dns-lookup give the same result', async () => {
    const viaGet = (await get('domain=example.test&type=MX')).json();
    const res = await zone.t.app.inject({
      method: 'POST',
      url: '/v1/devtools/dns-lookup',
      headers: zone.t.auth,
      payload: { domain: 'example.test', type: 'MX' },
    });
    assert.equal(res.statusCode, 200);
    const viaPost = res.json();
    delete viaGet.elapsed_ms;
    delete viaPost.elapsed_ms;
    assert.deepEqual(viaPost, viaGet);
  });

  it('repeated lookups are answered from the cache until the TTL runs out', async () => {
    const count = () => zone.dns.queries.filter((q) => q.name === 'example.test' && q.type === 'SOA').length;
    await records('domain=example.test&type=SOA');
    const before = count();
    await records('domain=example.test&type=SOA');
    await records('domain=example.test&type=soa');
    assert.equal(count(), before);
    zone.t.clock.advance(61_000);
    await records('domain=example.test&type=SOA');
    assert.equal(count(), before + 1);
  });

  it('the cache honours the shortest TTL of an A answer', async () => {
    const count = () => zone.dns.queries.filter((q) => q.name === 'example.test' && q.type === 'A').length;
    zone.t.clock.advance(3600_000); // expire what earlier tests cached
    await records('domain=example.test&type=A');
    const before = count();
    zone.t.clock.advance(100_000);
    await records('domain=example.test&type=A');
    assert.equal(count(), before);
    zone.t.clock.advance(21_000);
    await records('domain=example.test&type=A');
    assert.equal(count(), before + 1);
  });

  it('an answer whose TTL has the top bit set (0 by RFC 2181 §8) is cached for the 1 s minimum, not an hour', async () => {
    const count = () => zone.dns.queries.filter((q) => q.name === 'bigttl.test' && q.type === 'A').length;
    zone.t.clock.advance(3600_000); // expire what earlier tests cached
    await records('domain=bigttl.test&type=A');
    const before = count();
    await records('domain=bigttl.test&type=A');
    assert.equal(count(), before, 'cached within its second');
    zone.t.clock.advance(1_500);
    await records('domain=bigttl.test&type=A');
    assert.equal(count(), before + 1, 'asked again once the second has passed');
  });

  it('selector is ignored for types other than DKIM', async () => {
    const res = await zone.t.app.inject({
      method: 'POST',
      url: '/v1/devtools/dns-lookup',
      headers: zone.t.auth,
      payload: { domain: 'example.test', type: 'AAAA', selector: 'not checked here' },
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().records, [{ address: '2001:db8::1', ttl: 600 }]);
  });

  it('without a key the lookup is refused', async () => {
    const res = await zone.t.app.inject({ method: 'GET', url: '/v1/lookup?domain=example.test' });
    assert.equal(res.statusCode, 401);
  });
});
