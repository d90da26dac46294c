import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestZone } from './zone.js';

interface Warning {
  code: string;
}

describe('mail checks: SPF, DMARC, DKIM', () => {
  const zone = useTestZone();

  const lookup = async (query: string) => {
    const res = await zone.t.app.inject({ method: 'GET', url: `/v1/lookup?${query}`, headers: zone.t.auth });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const codes = (record: { warnings: Warning[] }) => record.warnings.map((w) => w.code);

  it('SPF: the v=spf1 record with its mechanisms parsed', async () => {
    const body = await lookup('domain=example.test&type=spf');
    assert.equal(body.type, 'SPF');
    assert.deepEqual(body.records, [
      {
        value: 'v=spf1 ip4:192.0.2.0/24 ip6:2001:db8::/32 a mx include:_spf.example.net redirect=_spf.example.org ~all',
        mechanisms: [
          { qualifier: '+', mechanism: 'ip4', value: '192.0.2.0/24' },
          { qualifier: '+', mechanism: 'ip6', value: '2001:db8::/32' },
          { qualifier: '+', mechanism: 'a', value: null },
          { qualifier: '+', mechanism: 'mx', value: null },
          { qualifier: '+', mechanism: 'include', value: '_spf.example.net' },
          { qualifier: null, mechanism: 'redirect', value: '_spf.example.org' },
          { qualifier: '~', mechanism: 'all', value: null },
        ],
        // redirect= next to all is ignored (RFC 7208 §6.1): a, mx, include, and the include's include and its a.
        lookup_count: 5,
        valid: true,
        warnings: [
          { code: 'redirect_ignored', message: '"redirect=_spf.example.org" is never followed: the record has "all" (RFC 7208 §6.1).' },
        ],
      },
    ]);
  });

  it('SPF: a redirect= in a record with all is neither followed nor counted', async () => {
    // nested.test alone takes 13 lookups; behind an ignored redirect it takes none.
    const [record] = (await lookup('domain=redirectall.test&type=SPF')).records;
    assert.deepEqual([record.lookup_count, record.valid, codes(record)], [0, true, ['redirect_ignored']]);
  });

  it('SPF: a syntax error inside an included record makes the check a permerror', async () => {
    const [record] = (await lookup('domain=incbad.test&type=SPF')).records;
    assert.deepEqual([record.valid, codes(record)], [false, ['include_invalid']]);
    assert.match(record.warnings[0].message, /badinc\.test is invalid.*300\.1\.1\.1.*"foo"/);
  });

  it('SPF: lookup_count includes the records reached through include and redirect', async () => {
    const [record] = (await lookup('domain=nested.test&type=SPF')).records;
    assert.equal(record.lookup_count, 13);
    assert.equal(record.valid, false);
    assert.deepEqual(codes(record), ['too_many_dns_lookups']);
    assert.match(record.warnings[0].message, /13 DNS-querying terms with its includes/);
  });

  it('SPF: an include loop, an include without SPF and a failed include are flagged', async () => {
    const [loop] = (await lookup('domain=loop.test&type=SPF')).records;
    assert.deepEqual([codes(loop), loop.valid, loop.lookup_count], [['include_loop'], false, 2]);
    const [missing] = (await lookup('domain=nospfinclude.test&type=SPF')).records;
    assert.deepEqual([codes(missing), missing.valid], [['include_without_spf'], false]);
    const [failed] = (await lookup('domain=failinclude.test&type=SPF')).records;
    assert.deepEqual([codes(failed), failed.valid], [['include_failed'], true]);
    assert.match(failed.warnings[0].message, /SERVFAIL/);
  });

  it('SPF: two SPF records are flagged on each', async () => {
    const { records } = await lookup('domain=twospf.test&type=SPF');
    assert.equal(records.length, 2);
    for (const r of records) {
      assert.equal(r.valid, false);
      assert.deepEqual(codes(r), ['multiple_spf_records']);
    }
  });

  it('SPF: more than 10 DNS-querying terms is flagged', async () => {
    const [record] = (await lookup('domain=manylookups.test&type=SPF')).records;
    assert.equal(record.lookup_count, 11);
    assert.equal(record.valid, false);
    assert.deepEqual(codes(record).sort(), ['plus_all', 'ptr_mechanism', 'too_many_dns_lookups']);
  });

  it('SPF: unparseable terms and terms after all are flagged', async () => {
    const [record] = (await lookup('domain=badspf.test&type=SPF')).records;
    assert.equal(record.valid, false);
    assert.deepEqual(codes(record), ['invalid_term', 'invalid_term', 'terms_after_all']);
  });

  it("SPF: arguments outside RFC 7208's grammar make the record invalid (permerror): bad addresses, prefix lengths, a domain-less a:, all with an argument, a second redirect", async () => {
    const [record] = (await lookup('domain=badsyntaxspf.test&type=SPF')).records;
    assert.equal(record.valid, false);
    assert.deepEqual(codes(record), [
      'invalid_term',
      'invalid_term',
      'invalid_term',
      'invalid_term',
      'invalid_term',
      'invalid_term',
      'invalid_term',
      'invalid_term',
      'redirect_ignored',
    ]);
    assert.match(
      record.warnings.map((w: { message: string }) => w.message).join(' '),
      /999\.1\.1\.1.*zz.*\/33.*\/129.*needs a domain.*\/33.*more than once.*takes no argument/,
    );
    const [good] = (await lookup('domain=goodsyntaxspf.test&type=SPF')).records;
    assert.deepEqual([good.valid, good.warnings], [true, []]);
  });

  it('SPF: a domain without one answers no records', async () => {
    assert.deepEqual((await lookup('domain=nodkim.test&type=SPF')).records, []);
  });

  it('DMARC: v must be exactly DMARC1; tag names and keywords match in any case; bad adkim/aspf/fo/rf/ri are flagged', async () => {
    // v=dmarc1 is no DMARC record (RFC 7489 §6.4: the value must match precisely): one record remains.
    const { records } = await lookup('domain=cases.test&type=DMARC');
    assert.equal(records.length, 1);
    const [record] = records;
    assert.deepEqual([record.policy, record.subdomain_policy, record.valid], ['reject', 'none', true]);
    assert.deepEqual(codes(record), [
      'invalid_tag_value',
      'invalid_tag_value',
      'invalid_tag_value',
      'invalid_tag_value',
      'invalid_tag_value',
    ]);
    assert.match(record.warnings.map((w: { message: string }) => w.message).join(' '), /adkim=x.*aspf=q.*fo=9.*rf=foo.*ri=abc/);
  });

  it('DMARC: a 60 kB rf list that ends badly is flagged at once (checked part by part, no backtracking)', async () => {
    const started = performance.now();
    const [record] = (await lookup('domain=longrf.test&type=DMARC')).records;
    const ms = performance.now() - started;
    assert.deepEqual([record.policy, record.valid, codes(record)], ['reject', true, ['invalid_tag_value']]);
    assert.ok(record.value.length > 60_000);
    // The quadratic pattern took 1.5 s here; parts take a few milliseconds (the answer comes over TCP).
    assert.ok(ms < 500, `${ms.toFixed(0)} ms`);
    const [ok] = (await lookup('domain=dupcase.test&type=DMARC')).records;
    assert.equal(
      ok.warnings.some((w: { message: string }) => /^rf=/.test(w.message)),
      false,
      'rf=afrf is still accepted',
    );
  });

  it('DMARC: a repeated tag, in the same case or another, makes the record invalid (first value used)', async () => {
    const [dup] = (await lookup('domain=dup.test&type=DMARC')).records;
    assert.deepEqual([dup.policy, dup.valid, codes(dup)], ['reject', false, ['duplicate_tag']]);
    const [dupCase] = (await lookup('domain=dupcase.test&type=DMARC')).records;
    assert.deepEqual([dupCase.policy, dupCase.valid, codes(dupCase)], ['reject', false, ['duplicate_tag']]);
  });

  it('DKIM and DMARC on a domain too long for some of their names: those names are not asked, 200 with no records', async () => {
    const long = `${Array(4).fill('b'.repeat(60)).join('.')}.test`; // 249 characters
    for (const type of ['DKIM', 'DMARC']) {
      const res = await zone.t.app.inject({ method: 'GET', url: `/v1/lookup?domain=${long}&type=${type}`, headers: zone.t.auth });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().records, []);
    }
    assert.ok(!zone.dns.queries.some((q) => q.name.length > 253));
  });

  it('DMARC: tags parsed and the policy named', async () => {
    const body = await lookup('domain=example.test&type=DMARC');
    assert.deepEqual(body.records, [
      {
        value: 'v=DMARC1; p=reject; sp=quarantine; rua=mailto:dmarc@example.test; pct=100; adkim=s',
        tags: { v: 'DMARC1', p: 'reject', sp: 'quarantine', rua: 'mailto:dmarc@example.test', pct: '100', adkim: 's' },
        policy: 'reject',
        subdomain_policy: 'quarantine',
        valid: true,
        warnings: [],
      },
    ]);
  });

  it('DMARC: a record without a policy is flagged and tag names stay plain data', async () => {
    const [record] = (await lookup('domain=twospf.test&type=dmarc')).records;
    assert.equal(record.policy, null);
    assert.equal(record.valid, false);
    assert.deepEqual(codes(record), ['missing_policy', 'invalid_pct']);
    assert.equal(record.tags.constructor, 'kept');
    assert.equal(record.tags.toString, 'also');
  });

  it('DKIM with a selector: key type and RSA size read from a real 2048-bit key', async () => {
    const body = await lookup('domain=example.test&type=DKIM&selector=google');
    assert.equal(body.records.length, 1);
    const [record] = body.records;
    assert.equal(record.selector, 'google');
    assert.equal(record.key_type, 'rsa');
    assert.equal(record.key_bits, 2048);
    assert.equal(record.valid, true);
    assert.deepEqual(record.warnings, []);
    assert.equal(record.tags.v, 'DKIM1');
    assert.match(record.value, /^v=DKIM1; k=rsa; p=MII/);
  });

  it('DKIM with an uncommon selector', async () => {
    const [record] = (await lookup('domain=example.test&type=DKIM&selector=2024a')).records;
    assert.equal(record.key_bits, 1024);
  });

  it('DKIM without a selector tries the common ones', async () => {
    const { records } = await lookup('domain=example.test&type=DKIM');
    assert.deepEqual(
      records.map((r: { selector: string; key_bits: number }) => [r.selector, r.key_bits]),
      [
        ['google', 2048],
        ['selector1', 2048],
      ],
    );
  });

  it('DKIM without a selector when no common selector exists answers 200 with no records', async () => {
    const res = await zone.t.app.inject({
      method: 'POST',
      url: '/v1/devtools/dns-lookup',
      headers: zone.t.auth,
      payload: { domain: 'nodkim.test', type: 'DKIM' },
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().records, []);
  });

  it('DKIM: an ed25519 key is 256 bits', async () => {
    const [record] = (await lookup('domain=example.test&type=DKIM&selector=ed')).records;
    assert.deepEqual([record.key_type, record.key_bits, record.valid], ['ed25519', 256, true]);
  });

  it('DKIM: a broken key, a revoked key and a weak key are flagged', async () => {
    const [bad] = (await lookup('domain=example.test&type=DKIM&selector=bad')).records;
    assert.deepEqual([bad.key_bits, bad.valid, codes(bad)], [null, false, ['invalid_key']]);
    const [revoked] = (await lookup('domain=example.test&type=DKIM&selector=revoked')).records;
    assert.deepEqual([revoked.key_bits, revoked.valid, codes(revoked)], [null, false, ['key_revoked']]);
    const [weak] = (await lookup('domain=example.test&type=DKIM&selector=weak')).records;
    assert.deepEqual([weak.key_bits, weak.valid, codes(weak)], [512, false, ['weak_key']]);
    const [late] = (await lookup('domain=example.test&type=DKIM&selector=late')).records;
    assert.deepEqual([late.key_bits, late.valid, codes(late)], [1024, false, ['invalid_version']]);
    assert.match(late.warnings[0].message, /must be the first tag/);
  });
});
