import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';
import { startDnsServer, type TestDnsServer, type ZoneRecord } from '../dns/dns-server.js';
import { describedBy, eventually } from '../helpers/tool-pages.js';

const SPF =
  'v=spf1 ip4:192.0.2.0/24 -ip6:2001:db8::/32 a mx:mx1.mail.test/24 include:_spf.mail.test ?exists:%{i}.x.mail.test redirect=_spf.mail.test ~all';
const DMARC =
  'v=DMARC1; p=quarantine; rua=mailto:agg@mail.test,mailto:agg@reports.test; ruf=mailto:fail@mail.test; pct=50; adkim=s; fo=1:d';
const DKIM_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

/** The test zone, served on 127.0.0.1 only: no test query leaves the machine. */
const ZONE: Record<string, ZoneRecord[]> = {
  'mail.test': [
    { type: 'A', ttl: 300, data: '192.0.2.10' },
    { type: 'A', ttl: 3600, data: '192.0.2.11' },
    { type: 'MX', data: { preference: 20, exchange: 'mx2.mail.test' } },
    { type: 'MX', data: { preference: 10, exchange: 'mx1.mail.test' } },
    { type: 'TXT', data: SPF },
    { type: 'TXT', data: 'hello world' },
  ],
  '_spf.mail.test': [{ type: 'TXT', data: 'v=spf1 ip4:198.51.100.0/24 -all' }],
  '_dmarc.mail.test': [{ type: 'TXT', data: DMARC }],
  // Real keys exceed 255 bytes, so they are published as several character-strings.
  'sel._domainkey.mail.test': [{ type: 'TXT', data: ['v=DKIM1; k=rsa; h=sha256; t=s; ', ...(`p=${DKIM_KEY}`.match(/.{1,200}/g) ?? [])] }],
  'nomail.test': [{ type: 'A', data: '192.0.2.5' }],
};

/** Each body row of a table as the texts of its cells (header cells included). */
const rowsOf = (table: Locator) =>
  table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent ?? '')));

interface Lookup {
  domain: string;
  type: string;
  records: Record<string, unknown>[];
}

describe('DNS lookup page in Chromium', { skip: browserSkipReason() }, () => {
  let dns: TestDnsServer;
  let web: WebApp;
  before(async () => {
    dns = await startDnsServer(ZONE, { failing: { 'servfail.test': 'SERVFAIL' }, delayMs: { 'slow.test': 8000 } });
    web = await startWebApp({ DNS_SERVERS: dns.address });
  });
  after(async () => {
    await web?.close();
    await dns?.close();
  });

  /** The API's answer for `body`, from Node with the same key. */
  const lookup = (body: Record<string, string>) => web.api<Lookup>('POST', '/v1/devtools/dns-lookup', body);

  async function runLookup(page: Page, domain: string, type: string, selector?: string) {
    await page.getByLabel('Domain').fill(domain);
    await page.getByLabel('Record type').selectOption(type);
    if (selector !== undefined) await page.getByLabel('DKIM selector').fill(selector);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
  }

  it('A and MX records as tables equal to the API answer; the type picker offers the types the API takes', async () => {
    const { page, assertNoProblems, close } = await web.openSignedIn('/tools/dns');
    await page.getByRole('heading', { level: 1, name: 'DNS lookup' }).waitFor();
    // The heading comes from the tools table; the form arrives with the page's own module, loaded after it.
    await page.getByLabel('Record type').waitFor();
    // The API names the types it takes when refusing one.
    const refusal = await fetch(`${web.url}/v1/devtools/dns-lookup`, {
      method: 'POST',
      headers: { 'x-api-key': web.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ domain: 'mail.test', type: 'XX' }),
    });
    const types = /must be one of ([A-Z, ]+) \(any case\)/.exec(((await refusal.json()) as { detail: string }).detail)![1]!.split(', ');
    assert.deepEqual(await page.getByLabel('Record type').getByRole('option').allInnerTexts(), types);
    assert.equal(await page.getByLabel('DKIM selector').count(), 0);

    await runLookup(page, 'mail.test', 'A');
    const result = page.getByRole('region', { name: 'Result' });
    const aTable = result.getByRole('table', { name: 'A records' });
    await aTable.waitFor();
    const a = await lookup({ domain: 'mail.test', type: 'A' });
    const ttlWords: Record<number, string> = { 300: '5 min', 3600: '1 h' };
    assert.deepEqual(
      await rowsOf(aTable),
      a.records.map((r) => [r.address, `${r.ttl as number} s (${ttlWords[r.ttl as number]})`]),
    );
    assert.equal(a.records.length, 2);
    assert.match(await result.locator('.dns-summary').innerText(), /^2 A records for mail\.test, answered in \d+ ms\.$/);

    await runLookup(page, 'MAIL.test', 'MX');
    const mxTable = result.getByRole('table', { name: 'MX records, by priority' });
    await mxTable.waitFor();
    const mx = await lookup({ domain: 'MAIL.test', type: 'MX' });
    const byPriority = [...mx.records].sort((x, y) => (x.priority as number) - (y.priority as number));
    assert.deepEqual(
      await rowsOf(mxTable),
      byPriority.map((r) => [String(r.priority), r.exchange]),
    );
    assert.deepEqual(await rowsOf(mxTable), [
      ['10', 'mx1.mail.test'],
      ['20', 'mx2.mail.test'],
    ]);
    assert.equal(mx.domain, 'mail.test');
    // Both lookups went to the test's server on 127.0.0.1.
    const asked = dns.queries.filter((q) => q.name === 'mail.test').map((q) => q.type);
    assert.ok(asked.includes('A') && asked.includes('MX'), asked.join(' '));
    assertNoProblems();
    await close();
  });

  it('SPF: one table row per term of the record, in order, each explained; the findings are the API warnings', async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/dns', {
      context: { viewport: { width: 360, height: 740 }, colorScheme: 'dark' },
    });
    await runLookup(page, 'mail.test', 'SPF');
    const table = page.getByRole('table', { name: 'SPF mechanisms' });
    await table.waitFor();
    const spf = (await lookup({ domain: 'mail.test', type: 'SPF' })).records[0] as {
      value: string;
      mechanisms: { qualifier: string | null; mechanism: string; value: string | null }[];
      lookup_count: number;
      warnings: { code: string; message: string }[];
    };
    assert.equal(spf.value, SPF);
    const rows = await rowsOf(table);
    // The record's terms, in order: qualifier (+ when none is written), name, value.
    assert.deepEqual(
      rows.map((r) => r.slice(0, 3)),
      [
        ['+ Pass', 'ip4', '192.0.2.0/24'],
        ['- Fail', 'ip6', '2001:db8::/32'],
        ['+ Pass', 'a', ''],
        ['+ Pass', 'mx', 'mx1.mail.test/24'],
        ['+ Pass', 'include', '_spf.mail.test'],
        ['? Neutral', 'exists', '%{i}.x.mail.test'],
        ['modifier', 'redirect', '_spf.mail.test'],
        ['~ SoftFail', 'all', ''],
      ],
    );
    const names: Record<string, string> = { '+': 'Pass', '-': 'Fail', '~': 'SoftFail', '?': 'Neutral' };
    assert.deepEqual(
      rows.map((r) => r.slice(0, 3)),
      spf.mechanisms.map((m) => [m.qualifier === null ? 'modifier' : `${m.qualifier} ${names[m.qualifier]}`, m.mechanism, m.value ?? '']),
    );
    assert.deepEqual(
      rows.map((r) => r[3]),
      [
        "If the sender's IP address is in the network 192.0.2.0/24: pass (authorised to send).",
        "If the sender's IP address is in the network 2001:db8::/32: fail (not authorised: receivers may reject the mail).",
        "If the sender's IP address is an address (A or AAAA record) of mail.test: pass (authorised to send).",
        "If the sender's IP address is an address of one of the mail servers (MX records) of mx1.mail.test or in the /24 (IPv4) network around one: pass (authorised to send).",
        'If the SPF record of _spf.mail.test gives pass for the sender: pass (authorised to send).',
        'If the name %{i}.x.mail.test (its macros filled in from the message) has an A record: neutral (no statement either way).',
        'Would hand the check to the SPF record of _spf.mail.test when nothing matched, but is ignored: the record has "all".',
        'Any sender not matched by an earlier term: soft fail (probably not authorised: accept but mark as suspicious).',
      ],
    );
    const record = page.getByRole('region', { name: 'SPF record' });
    assert.equal(await record.locator('.dns-badge').innerText(), 'Valid');
    assert.match(await record.getByText('DNS lookups:').innerText(), new RegExp(`^DNS lookups: ${spf.lookup_count} of the 10 `));
    assert.equal(spf.lookup_count, 4);
    assert.deepEqual(
      await record.locator('.dns-warnings li').allInnerTexts(),
      spf.warnings.map((w) => `${w.message} ${w.code}`),
    );
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 360);
    const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, []);
    assertNoProblems();
    await close();
  });

  it('DMARC and DKIM tags as tables of the tags the API read, each explained; the selector field shows for DKIM', async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/dns');
    await runLookup(page, 'mail.test', 'DMARC');
    const dmarcTable = page.getByRole('table', { name: 'DMARC tags' });
    await dmarcTable.waitFor();
    const dmarc = (await lookup({ domain: 'mail.test', type: 'DMARC' })).records[0] as { tags: Record<string, string> };
    const rows = await rowsOf(dmarcTable);
    assert.deepEqual(
      rows.map((r) => r.slice(0, 2)),
      Object.entries(dmarc.tags),
    );
    assert.deepEqual(rows, [
      ['v', 'DMARC1', 'Version: this is a DMARC record.'],
      ['p', 'quarantine', 'Policy for mail that fails DMARC: quarantine: treat it as suspicious (for example, the spam folder).'],
      [
        'rua',
        'mailto:agg@mail.test,mailto:agg@reports.test',
        'Aggregate reports (daily summaries of the checks receivers made) go to mailto:agg@mail.test, mailto:agg@reports.test.',
      ],
      ['ruf', 'mailto:fail@mail.test', 'Failure reports (details of single messages that failed) go to mailto:fail@mail.test.'],
      ['pct', '50', 'The policy applies to 50% of failing mail; the rest gets the next milder policy (reject → quarantine → none).'],
      ['adkim', 's', 'DKIM alignment: the signing domain (d=) is strict: it must equal the From domain exactly.'],
      ['fo', '1:d', 'Failure reports are wanted when any check fails to give an aligned pass; when a DKIM signature fails to verify.'],
    ]);
    const dmarcRecord = page.getByRole('region', { name: 'DMARC record' });
    assert.equal(await dmarcRecord.getByText('Policy:').innerText(), 'Policy: quarantine; subdomains: quarantine (from p).');
    assert.deepEqual(await dmarcRecord.locator('.dns-defaults li').allInnerTexts(), [
      'sp not set: subdomains get the policy of p.',
      'aspf not set (aspf=r): relaxed SPF alignment.',
      'ri not set (ri=86400): aggregate reports daily.',
    ]);

    await runLookup(page, 'mail.test', 'DKIM', 'sel');
    const dkimTable = page.getByRole('table', { name: 'DKIM tags' });
    await dkimTable.waitFor();
    const dkim = (await lookup({ domain: 'mail.test', type: 'DKIM', selector: 'sel' })).records[0] as {
      tags: Record<string, string>;
      key_bits: number;
    };
    assert.equal(dkim.key_bits, 2048);
    const dkimRows = await rowsOf(dkimTable);
    assert.deepEqual(
      dkimRows.map((r) => r.slice(0, 2)),
      Object.entries(dkim.tags),
    );
    assert.deepEqual(
      dkimRows.map((r) => [r[0], r[2]]),
      [
        ['v', 'Version: this is a DKIM key record.'],
        ['k', 'Key type: RSA.'],
        ['h', 'Hash algorithms signatures may use: sha256.'],
        ['t', 'Flags: s: the signing identity (i=) must be in exactly the signing domain (d=), not a subdomain.'],
        ['p', 'Public key (base64): 2048-bit RSA.'],
      ],
    );
    const dkimRecord = page.getByRole('region', { name: 'DKIM key, selector sel' });
    assert.equal(await dkimRecord.locator('.dns-badge').innerText(), 'Valid');
    assert.equal(await dkimRecord.getByText('Published at').innerText(), 'Published at sel._domainkey.mail.test; key: 2048-bit RSA.');
    const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, []);
    assertNoProblems();
    await close();
  });

  it('no records, a name that does not exist, an upstream failure and a timeout are said in words', async () => {
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn('/tools/dns');
    const result = page.getByRole('region', { name: 'Result' });
    const empty = result.locator('.dns-empty');

    await runLookup(page, 'nxdomain.test', 'A');
    assert.deepEqual((await lookup({ domain: 'nxdomain.test', type: 'A' })).records, []);
    await eventually(
      () => empty.locator('p').allInnerTexts(),
      ['No records found for nxdomain.test (A).', 'The name does not exist (NXDOMAIN) or has no A record.'],
      'NXDOMAIN',
    );

    await runLookup(page, 'nomail.test', 'MX');
    await eventually(
      () => empty.locator('p').allInnerTexts(),
      ['No records found for nomail.test (MX).', 'The name does not exist (NXDOMAIN) or has no MX record.'],
      'no MX',
    );

    await runLookup(page, 'nomail.test', 'DMARC');
    await eventually(
      () => empty.locator('p').allInnerTexts(),
      [
        'No records found for nomail.test (DMARC).',
        'There is no v=DMARC1 record at _dmarc.nomail.test: receivers apply no DMARC policy to its mail and send no reports.',
      ],
      'no DMARC',
    );

    await runLookup(page, 'mail.test', 'DKIM', '');
    assert.deepEqual((await lookup({ domain: 'mail.test', type: 'DKIM' })).records, []);
    await eventually(
      () => empty.locator('p').allInnerTexts(),
      [
        'No records found for mail.test (DKIM).',
        'None of the selectors of common mail providers has a key. Enter the selector: the s= tag of a DKIM-Signature header of a message the domain sent.',
      ],
      'no DKIM',
    );

    await runLookup(page, 'servfail.test', 'A');
    const servfail = await fetch(`${web.url}/v1/devtools/dns-lookup`, {
      method: 'POST',
      headers: { 'x-api-key': web.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ domain: 'servfail.test', type: 'A' }),
    });
    assert.equal(servfail.status, 502);
    const failure = (await servfail.json()) as { detail: string; code: string };
    assert.equal(failure.code, 'upstream_error');
    await eventually(() => page.getByRole('alert').innerText(), failure.detail, '502 detail');
    assert.equal(
      await result.locator('.dns-failure').innerText(),
      'The lookup failed: the DNS server answered with an error or could not be reached (HTTP 502, upstream_error). This says nothing about whether the records exist; try again later.',
    );

    // The page's own answer, after the 5 s limit (asking again from Node would wait another 5 s).
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/devtools/dns-lookup', { timeout: 15_000 });
    await runLookup(page, 'slow.test', 'A');
    const timeout = await answered;
    assert.equal(timeout.status(), 504);
    const late = (await timeout.json()) as { detail: string; code: string };
    assert.equal(late.code, 'upstream_timeout');
    await eventually(() => page.getByRole('alert').innerText(), late.detail, '504 detail');
    assert.equal(
      await result.locator('.dns-failure').innerText(),
      'The lookup timed out: no DNS server answered within 5 seconds (HTTP 504, upstream_timeout). Try again later.',
    );
    assert.deepEqual(apiErrors, ['POST /v1/devtools/dns-lookup 502', 'POST /v1/devtools/dns-lookup 504']);
    assertNoProblems();
    await close();
  });

  it("a bad domain shows the API's detail next to the Domain field", async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/dns');
    await runLookup(page, 'bad name.test', 'MX');
    const refusal = await fetch(`${web.url}/v1/devtools/dns-lookup`, {
      method: 'POST',
      headers: { 'x-api-key': web.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ domain: 'bad name.test', type: 'MX' }),
    });
    assert.equal(refusal.status, 422);
    const { detail } = (await refusal.json()) as { detail: string };
    const domain = page.getByLabel('Domain');
    await eventually(() => domain.getAttribute('aria-invalid'), 'true', 'domain invalid');
    assert.deepEqual(await describedBy(page, domain), [detail, 'Domain name (or an IP address for PTR).']);
    assert.equal(await page.getByLabel('Record type').getAttribute('aria-invalid'), null);
    assert.equal(await page.getByRole('alert').count(), 0);
    assert.equal(await page.getByRole('region', { name: 'Result' }).getByText('No result: see the error next to the field.').count(), 1);
    const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, []);
    assertNoProblems();
    await close();
  });
});
