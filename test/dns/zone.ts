import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { startDnsServer, type TestDnsServer, type ZoneRecord } from './dns-server.js';

/** The static test zone (fixtures/zone.json) plus records made at run time: real DKIM keys and a large answer. */
export function buildZone(): Record<string, ZoneRecord[]> {
  const zone = JSON.parse(readFileSync(new URL('./fixtures/zone.json', import.meta.url), 'utf8')) as Record<string, ZoneRecord[]>;
  const dkim = (bits: number) => {
    const der = generateKeyPairSync('rsa', { modulusLength: bits }).publicKey.export({ type: 'spki', format: 'der' });
    // Real DKIM keys exceed 255 bytes, so they are published as several character-strings.
    return ['v=DKIM1; k=rsa; ', ...(`p=${der.toString('base64')}`.match(/.{1,200}/g) ?? [])];
  };
  zone['google._domainkey.example.test'] = [{ type: 'TXT', data: dkim(2048) }];
  zone['2024a._domainkey.example.test'] = [{ type: 'TXT', data: dkim(1024) }];
  zone['weak._domainkey.example.test'] = [{ type: 'TXT', data: dkim(512) }];
  // v= present but not first (RFC 6376 §3.6.1: it must be).
  zone['late._domainkey.example.test'] = [
    {
      type: 'TXT',
      data: dkim(1024)
        .join('')
        .replace('v=DKIM1; k=rsa; ', 'k=rsa; v=DKIM1; ')
        .match(/.{1,200}/g)!,
    },
  ];
  zone['ed._domainkey.example.test'] = [{ type: 'TXT', data: `v=DKIM1; k=ed25519; p=${randomBytes(32).toString('base64')}` }];
  zone['selector1._domainkey.example.test'] = [{ type: 'TXT', data: dkim(2048) }];
  // UTF-8 text, one character split across two character-strings, and bytes that are not UTF-8 (Latin-1 é).
  zone['utf8.example.test'] = [{ type: 'TXT', data: ['caf\u00e9 \u2615 ', '\u65e5\u672c'] }];
  zone['split.example.test'] = [{ type: 'TXT', data: [Buffer.from('caf'), Buffer.from([0xc3]), Buffer.from([0xa9, 0x21])] }];
  zone['latin1.example.test'] = [{ type: 'TXT', data: [Buffer.from([0x63, 0x61, 0x66, 0xe9])] }];
  // A 60 kB DMARC record (TCP-sized answer) whose rf list never ends well: a pattern over the whole
  // list backtracked quadratically on it (1.5 s of event loop).
  zone['_dmarc.longrf.test'] = [{ type: 'TXT', data: `v=DMARC1; p=reject; rf=${'afrf:'.repeat(12_000)}!`.match(/.{1,255}/g)! }];
  zone['big.example.test'] = Array.from({ length: 120 }, (_, i) => ({ type: 'A', ttl: 60, data: `198.51.100.${i + 1}` }));
  return zone;
}

/** Names the test server answers with a failure. */
export const FAILING = { 'servfail.example.test': 'SERVFAIL', 'refused.example.test': 'REFUSED' } as const;

/**
 * Start the test zone's DNS server on 127.0.0.1 and an app pointed at it, before the enclosing
 * suite; stop both after it. Fields are filled once `before` has run.
 */
export function useTestZone(): { dns: TestDnsServer; t: TestApp } {
  const zone = {} as { dns: TestDnsServer; t: TestApp };
  before(async () => {
    zone.dns = await startDnsServer(buildZone(), { failing: FAILING });
    zone.t = await buildTestApp({ env: { DNS_SERVERS: zone.dns.address } });
  });
  // Each only if it started: a failed start must not leave the other's sockets holding the test file open.
  after(async () => {
    await zone.t?.close();
    await zone.dns?.close();
  });
  return zone;
}
