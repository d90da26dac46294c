import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { startDnsServer, type TestDnsServer } from './dns-server.js';

interface BadCase {
  name: string;
  body: Record<string, unknown>;
  path: string;
  message: string;
}

const CASES = JSON.parse(readFileSync(new URL('./fixtures/bad-input.json', import.meta.url), 'utf8')) as BadCase[];

describe('DNS lookup refuses bad input with 422 (both paths)', () => {
  let dns: TestDnsServer;
  let t: TestApp;
  before(async () => {
    dns = await startDnsServer({});
    t = await buildTestApp({ env: { DNS_SERVERS: dns.address } });
  });
  after(async () => {
    await t.close();
    await dns.close();
  });

  for (const c of CASES) {
    it(`POST: ${c.name}`, async () => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/devtools/dns-lookup', headers: t.auth, payload: c.body });
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().code, 'validation_error');
      assert.deepEqual(res.json().errors, [{ path: c.path, message: c.message }]);
    });

    if (typeof c.body.type !== 'number') {
      it(`GET: ${c.name}`, async () => {
        const query = new URLSearchParams(c.body as Record<string, string>).toString();
        const res = await t.app.inject({ method: 'GET', url: `/v1/lookup?${query}`, headers: t.auth });
        assert.equal(res.statusCode, 422, res.body);
        assert.deepEqual(res.json().errors, [{ path: c.path, message: c.message }]);
      });
    }
  }

  it('no bad input reaches the DNS server', () => {
    assert.deepEqual(dns.queries, []);
  });
});
