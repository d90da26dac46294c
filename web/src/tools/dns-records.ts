// The DNS lookup page's tables of plain records (every type but SPF, DMARC and DKIM): the columns
// of each type and the text of each cell, from the API's record shapes. Pure: no DOM.
import type { ApiResult } from '../api';
import { formatSeconds } from './dns-explain';

export type LookupResult = ApiResult<'post', '/v1/devtools/dns-lookup'>;
export type DnsRecord = LookupResult['records'][number];

export interface RecordColumn {
  label: string;
  text(record: DnsRecord): string;
}

/** `300` → `300 s (5 min)`. */
export function ttlText(ttl: number | undefined): string {
  if (ttl === undefined) return '';
  return ttl >= 60 ? `${ttl} s (${formatSeconds(ttl)})` : `${ttl} s`;
}

const str = (value: unknown) => (value === undefined || value === null ? '' : String(value));

const CAA_TAGS: Record<string, string> = {
  issue: 'Certificate authorities allowed to issue certificates for the name',
  issuewild: 'Certificate authorities allowed to issue wildcard certificates',
  issuemail: 'Certificate authorities allowed to issue S/MIME certificates',
  iodef: 'Where certificate authorities report requests that break this policy',
};

/** What one CAA record says. */
function caaMeaning(record: DnsRecord): string {
  const tag = (record.tag ?? '').toLowerCase();
  const value = record.value ?? '';
  if ((tag === 'issue' || tag === 'issuewild' || tag === 'issuemail') && value.split(';')[0]!.trim() === '')
    return `${tag}: no certificate authority may issue${tag === 'issuewild' ? ' wildcard' : ''} certificates`;
  const known = CAA_TAGS[tag];
  return known ? `${known}: ${value}` : `Unknown tag${record.critical ? ', marked critical: CAs must refuse to issue' : ''}`;
}

const address: RecordColumn[] = [
  { label: 'Address', text: (r) => str(r.address) },
  { label: 'TTL', text: (r) => ttlText(r.ttl) },
];
const single = (label: string): RecordColumn[] => [{ label, text: (r) => str(r.value) }];

/** The table columns of each plain record type. */
export const RECORD_COLUMNS: Record<string, RecordColumn[]> = {
  A: address,
  AAAA: address,
  MX: [
    { label: 'Priority', text: (r) => str(r.priority) },
    {
      label: 'Mail server',
      text: (r) => (r.exchange === '.' ? '. (null MX: the domain accepts no mail, RFC 7505)' : str(r.exchange)),
    },
  ],
  NS: single('Name server'),
  CNAME: single('Canonical name'),
  PTR: single('Name'),
  TXT: single('Text'),
  SRV: [
    { label: 'Priority', text: (r) => str(r.priority) },
    { label: 'Weight', text: (r) => str(r.weight) },
    { label: 'Port', text: (r) => str(r.port) },
    { label: 'Target', text: (r) => (r.name === '.' ? '. (the service is not available, RFC 2782)' : str(r.name)) },
  ],
  CAA: [
    { label: 'Critical', text: (r) => (r.critical ? 'yes' : 'no') },
    { label: 'Tag', text: (r) => str(r.tag) },
    { label: 'Value', text: (r) => str(r.value) },
    { label: 'Meaning', text: caaMeaning },
  ],
};

/** The rows of a SOA record: label, value and what it is for. */
export function soaRows(record: DnsRecord): [label: string, value: string, meaning: string][] {
  const seconds = (n: number | undefined) => (n === undefined ? '' : ttlText(n));
  return [
    ['Primary name server', str(record.nsname), 'The name server holding the original zone.'],
    ['Hostmaster', str(record.hostmaster), 'The mailbox of the person responsible, its first dot standing for @.'],
    ['Serial', str(record.serial), 'The zone’s version; secondaries copy the zone when it increases.'],
    ['Refresh', seconds(record.refresh), 'How often secondaries check the serial.'],
    ['Retry', seconds(record.retry), 'How soon a secondary tries again after a failed check.'],
    ['Expire', seconds(record.expire), 'How long a secondary keeps answering without reaching the primary.'],
    ['Negative TTL', seconds(record.minttl), 'How long resolvers remember that a name or record does not exist.'],
  ];
}

/** Records in the order to show them: MX and SRV by priority (the order they are tried), others as answered. */
export function sortRecords(type: string, records: DnsRecord[]): DnsRecord[] {
  if (type !== 'MX' && type !== 'SRV') return records;
  return [...records].sort((a, b) => (a.priority ?? 0) - (b.priority ?? 0));
}
