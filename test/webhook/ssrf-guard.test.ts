import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { classifyAddress } from '../../src/areas/webhook/ssrf-address.js';
import { checkTarget, isAllowListed, parseTargetUrl } from '../../src/areas/webhook/ssrf-guard.js';
import { DevutilError } from '../../src/errors.js';

const vectors = JSON.parse(readFileSync(new URL('./fixtures/ssrf-addresses.json', import.meta.url), 'utf8')) as {
  cases: [string, string][];
  not_addresses: string[];
};

/** A resolver that answers from a table and never touches the network. */
function fakeResolver(table: Record<string, string[]>) {
  return async (hostname: string) => {
    const list = table[hostname];
    if (!list) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

const CLOSED = { allowPrivate: false, allowHosts: [] as string[] };

describe('SSRF address classifier', () => {
  for (const [address, kind] of vectors.cases) {
    it(`${address} is ${kind}`, () => assert.equal(classifyAddress(address), kind));
  }
  it('text that is not an IP address is not classified', () => {
    for (const text of vectors.not_addresses) assert.equal(classifyAddress(text), null, text);
  });
});

describe('SSRF target parsing and checking', () => {
  it('normalises numeric IPv4 forms the way WHATWG URL does', () => {
    for (const form of ['127.1', '2130706433', '0x7f000001', '0177.0.0.1', '127.0.1']) {
      assert.equal(parseTargetUrl(`http://${form}:8080/x`).hostname, '127.0.0.1', form);
    }
    assert.equal(parseTargetUrl('http://[::ffff:127.0.0.1]/').hostname, '[::ffff:7f00:1]');
  });

  it('refuses non-http schemes and relative URLs with validation_error on target_url', () => {
    for (const text of ['ftp://example.com/x', '/relative', 'example.com/x', 'file:///etc/passwd', 'javascript:alert(1)']) {
      assert.throws(
        () => parseTargetUrl(text),
        (err: DevutilError) => {
          assert.equal(err.code, 'validation_error');
          assert.equal(err.errors?.[0].path, 'target_url');
          return true;
        },
        text,
      );
    }
  });

  it('refuses a name when any one of its addresses is not public', async () => {
    const resolve = fakeResolver({ 'mixed.test': ['93.184.215.14', '10.0.0.5'], 'meta.test': ['169.254.169.254'], 'v6.test': ['fd00::1'] });
    for (const host of ['mixed.test', 'meta.test', 'v6.test']) {
      await assert.rejects(
        checkTarget(parseTargetUrl(`https://${host}/`), { ...CLOSED, resolve }),
        (err: DevutilError) => {
          assert.equal(err.code, 'target_not_allowed');
          assert.equal(err.status, 422);
          return true;
        },
        host,
      );
    }
  });

  it('connects to the address it checked when every address is public', async () => {
    const resolve = fakeResolver({ 'ok.test': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'] });
    const target = await checkTarget(parseTargetUrl('https://ok.test/hook'), { ...CLOSED, resolve });
    assert.deepEqual(
      { address: target.address, family: target.family, port: target.port, hostname: target.hostname },
      { address: '93.184.215.14', family: 4, port: 443, hostname: 'ok.test' },
    );
  });

  it('refuses localhost names without resolving them', async () => {
    const resolve = async () => assert.fail('must not resolve');
    for (const host of ['localhost', 'LOCALHOST', 'api.localhost', 'localhost.']) {
      await assert.rejects(checkTarget(parseTargetUrl(`http://${host}/`), { ...CLOSED, resolve }), { code: 'target_not_allowed' });
    }
  });

  it('an unresolvable name is an upstream_error (502)', async () => {
    await assert.rejects(checkTarget(parseTargetUrl('http://nowhere.test/'), { ...CLOSED, resolve: fakeResolver({}) }), {
      code: 'upstream_error',
    });
  });

  it('REPLAY_ALLOW_PRIVATE lifts the guard and REPLAY_ALLOW_HOSTS exempts host or host:port', async () => {
    const resolve = fakeResolver({ 'intranet.test': ['10.1.2.3'] });
    const url = parseTargetUrl('http://intranet.test:8080/');
    assert.equal((await checkTarget(url, { allowPrivate: true, allowHosts: [], resolve })).address, '10.1.2.3');
    assert.equal((await checkTarget(url, { allowPrivate: false, allowHosts: ['intranet.test'], resolve })).address, '10.1.2.3');
    assert.equal((await checkTarget(url, { allowPrivate: false, allowHosts: ['intranet.test:8080'], resolve })).address, '10.1.2.3');
    await assert.rejects(checkTarget(url, { allowPrivate: false, allowHosts: ['intranet.test:9090'], resolve }), {
      code: 'target_not_allowed',
    });
  });

  it('allow-list entries compare in WHATWG form (ports, IPv6 brackets, numeric hosts)', () => {
    assert.equal(isAllowListed(parseTargetUrl('http://127.1:3000/'), ['127.0.0.1:3000']), true);
    assert.equal(isAllowListed(parseTargetUrl('http://127.0.0.1/'), ['127.0.0.1:80']), true);
    assert.equal(isAllowListed(parseTargetUrl('https://127.0.0.1/'), ['127.0.0.1:80']), false);
    assert.equal(isAllowListed(parseTargetUrl('http://[::1]:3000/'), ['::1']), true);
    assert.equal(isAllowListed(parseTargetUrl('http://[::1]:3000/'), ['[::1]:3000']), true);
    assert.equal(isAllowListed(parseTargetUrl('http://[::1]:3000/'), ['[::1]:3001']), false);
  });
});
