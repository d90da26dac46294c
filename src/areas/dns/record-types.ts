import { readTtl, type QueryType } from './dns-client.js';
import { readDkimRecords } from './dkim.js';
import { readDmarcRecords } from './dmarc.js';
import { reverseName } from './domain-name.js';
import { readSpfRecords, type SpfRecord } from './spf.js';
import { countIncludedLookups } from './spf-includes.js';
import { joinTxt } from './tags.js';

/** Every type a lookup accepts: the DNS types plus the mail checks. */
export type LookupType = QueryType | 'SPF' | 'DMARC' | 'DKIM';

/** One name to query, and the DKIM selector it belongs to. */
export interface QueryName {
  name: string;
  selector?: string;
}

interface TypeRow {
  /** The DNS type actually asked. */
  query: QueryType;
  /** Whether `domain` may be an IP address (PTR). */
  allowIp?: boolean;
  /** Names to query (default: the domain itself). */
  names?: (domain: string, selectors: readonly string[]) => QueryName[];
  /** Answers of one name → the records of the result. */
  read: (answers: unknown[], at: QueryName) => object[];
  /** Further queries a type needs once read (SPF follows its includes), asked through `ask`. */
  expand?: (records: object[], domain: string, ask: (type: QueryType, name: string) => Promise<unknown[]>) => Promise<object[]>;
}

const values = (answers: unknown[]) => (answers as string[]).map((value) => ({ value }));

/**
 * One row per lookup type (CONTRACT §6 record shapes). Adding a type is adding a row.
 *
 * @example
 *   RECORD_TYPES.MX.read([{ exchange: 'mx.example.com', priority: 10 }], { name: 'example.com' });
 */
export const RECORD_TYPES: Record<LookupType, TypeRow> = {
  A: { query: 'A', read: (a) => (a as { address: string; ttl: number }[]).map(({ address, ttl }) => ({ address, ttl: readTtl(ttl) })) },
  AAAA: {
    query: 'AAAA',
    read: (a) => (a as { address: string; ttl: number }[]).map(({ address, ttl }) => ({ address, ttl: readTtl(ttl) })),
  },
  CNAME: { query: 'CNAME', read: values },
  // A null MX (RFC 7505: "this domain accepts no mail") names the root, which node gives as "".
  MX: {
    query: 'MX',
    read: (a) =>
      (a as { exchange: string; priority: number }[]).map(({ exchange, priority }) => ({
        exchange: exchange === '' ? '.' : exchange,
        priority,
      })),
  },
  NS: { query: 'NS', read: values },
  TXT: { query: 'TXT', read: (a) => joinTxt(a).map((value) => ({ value })) },
  SOA: {
    query: 'SOA',
    read: (a) =>
      (a as Record<string, string | number>[]).map(({ nsname, hostmaster, serial, refresh, retry, expire, minttl }) => ({
        nsname,
        hostmaster,
        serial,
        refresh,
        retry,
        expire,
        minttl,
      })),
  },
  SRV: {
    query: 'SRV',
    // A target of "." (RFC 2782: "the service is decidedly not available at this domain") names the root, which node gives as "".
    read: (a) =>
      (a as { name: string; port: number; priority: number; weight: number }[]).map(({ name, port, priority, weight }) => ({
        name: name === '' ? '.' : name,
        port,
        priority,
        weight,
      })),
  },
  CAA: { query: 'CAA', read: (a) => (a as Record<string, string | number>[]).map(readCaa) },
  PTR: { query: 'PTR', allowIp: true, names: (domain) => [{ name: reverseName(domain) }], read: values },
  SPF: {
    query: 'TXT',
    read: (a) => readSpfRecords(a),
    expand: (records, domain, ask) => countIncludedLookups(records as SpfRecord[], domain, (name) => ask('TXT', name)),
  },
  DMARC: { query: 'TXT', names: (domain) => [{ name: `_dmarc.${domain}` }], read: (a) => readDmarcRecords(a) },
  DKIM: {
    query: 'TXT',
    names: (domain, selectors) => selectors.map((selector) => ({ name: `${selector}._domainkey.${domain}`, selector })),
    read: (a, at) => readDkimRecords(a, at.selector!),
  },
};

/** node gives a CAA record as `{ critical: flags, <tag>: value }`; `critical` is bit 128 of the flags (RFC 8659). */
function readCaa(record: Record<string, string | number>): { critical: boolean; tag: string; value: string } {
  // A tag named "critical" lands on the flags' own name, its value replacing them: the value is kept,
  // and the flag (lost) reads false.
  if (typeof record.critical === 'string' && Object.keys(record).length === 1)
    return { critical: false, tag: 'critical', value: record.critical };
  const tag = Object.keys(record).find((k) => k !== 'critical') ?? '';
  return { critical: (Number(record.critical) & 128) !== 0, tag, value: String(record[tag] ?? '') };
}
