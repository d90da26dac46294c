import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const KNOWN = JSON.parse(readFileSync(new URL('./fixtures/known-addresses.json', import.meta.url), 'utf8')) as { ip: string }[];

const RESERVED = [
  '127.0.0.1',
  '10.1.2.3',
  '172.16.5.4',
  '192.168.1.10',
  '100.64.0.1',
  '169.254.10.20',
  '0.0.0.0',
  '224.0.0.251',
  '255.255.255.255',
  '192.0.2.1',
  '198.51.100.7',
  '203.0.113.9',
  '198.18.0.1',
  '::1',
  '::',
  'fc00::1',
  'fd12:3456:789a::1',
  'fe80::1',
  'ff02::1',
  '2001:db8::1',
  '::ffff:192.168.0.1',
  '::ffff:7f00:1',
  // The same private addresses written other ways: every spelling of IPv4-mapped, IPv4-translated, IPv4-compatible, NAT64.
  '0:0:0:0:0:ffff:192.168.1.1',
  '0:0:0:0:0:FFFF:C0A8:0101',
  '::ffff:0:192.168.1.1',
  '::192.168.1.1',
  '64:ff9b::c0a8:101',
  '64:ff9b::10.0.0.1',
  // 6to4 sites of private addresses (RFC 3056: the IPv4 address follows 2002:).
  '2002:c0a8:101::1',
  '2002:a00:1:5::abcd',
  '2002:7f00:1::',
];

describe('geo IP lookup', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const lookup = (query: string, remoteAddress?: string) =>
    t.app.inject({ method: 'GET', url: `/v1/geo/ip-lookup${query}`, headers: t.auth, ...(remoteAddress ? { remoteAddress } : {}) });

  for (const expected of KNOWN) {
    it(`locates ${expected.ip} from the bundled database`, async () => {
      const res = await lookup(`?ip=${encodeURIComponent(expected.ip)}`);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), expected);
    });
  }

  for (const ip of RESERVED) {
    it(`${ip} is reserved, with every other field null`, async () => {
      const res = await lookup(`?ip=${encodeURIComponent(ip)}`);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {
        ip,
        country_code: null,
        country: null,
        region: null,
        city: null,
        latitude: null,
        longitude: null,
        reserved: true,
      });
    });
  }

  for (const ip of [
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '0:0:0:0:0:ffff:808:808',
    '0000:0000:0000:0000:0000:ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2002:0808:0808:1:2:3:4:5',
  ]) {
    it(`an IPv6 address carrying an IPv4 one is looked up as IPv4 however it is written (${ip})`, async () => {
      const res = await lookup(`?ip=${encodeURIComponent(ip)}`);
      assert.deepEqual([res.json().ip, res.json().country_code, res.json().city, res.json().reserved], [ip, 'US', 'Mountain View', false]);
    });
  }

  it("without ip the caller's address is used", async () => {
    const res = await lookup('', '81.2.69.142');
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().ip, '81.2.69.142');
    assert.equal(res.json().country_code, 'GB');
  });

  for (const query of ['?ip=', '?ip']) {
    it(`an empty ip (${query}) is the caller's address, as an absent one`, async () => {
      const res = await lookup(query, '81.2.69.142');
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().ip, '81.2.69.142');
      assert.equal(res.json().country_code, 'GB');
    });
  }

  it('spaces around a pasted address are ignored', async () => {
    const res = await lookup('?ip=%2081.2.69.142%20%09');
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual([res.json().ip, res.json().country_code], ['81.2.69.142', 'GB']);
  });

  it('without ip a loopback caller is reserved', async () => {
    const res = await lookup('');
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().ip, '127.0.0.1');
    assert.equal(res.json().reserved, true);
  });

  const BAD: [string, string, string][] = [
    ['999.1.1.1', 'ip', 'must be an IPv4 or IPv6 address'],
    ['::g', 'ip', 'must be an IPv4 or IPv6 address'],
    ['fe80::1%eth0', 'ip', 'must be an IPv4 or IPv6 address'],
    ['example.com', 'ip', 'must be an IPv4 or IPv6 address'],
    ['8.8. 8.8', 'ip', 'must be an IPv4 or IPv6 address'],
  ];
  for (const [ip, path, message] of BAD) {
    it(`ip ${JSON.stringify(ip)} is refused with 422`, async () => {
      const res = await lookup(`?ip=${encodeURIComponent(ip)}`);
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().code, 'validation_error');
      assert.deepEqual(res.json().errors, [{ path, message }]);
    });
  }

  it('an unknown query parameter is refused with 422', async () => {
    const res = await lookup('?address=8.8.8.8');
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().errors, [{ path: 'address', message: 'is not a known field' }]);
  });

  it('needs an API key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/geo/ip-lookup?ip=8.8.8.8' });
    assert.equal(res.statusCode, 401);
  });
});
