import { performance } from 'node:perf_hooks';
import { invalidField } from '../../errors.js';
import { COMMON_DKIM_SELECTORS } from './dkim.js';
import { withDeadline, type DnsClient, type QueryType } from './dns-client.js';
import { MAX_NAME_LENGTH, normalizeDomain, normalizeSelector } from './domain-name.js';
import { RECORD_TYPES, type LookupType } from './record-types.js';

export interface LookupInput {
  domain: string;
  /** Any case; see {@link RECORD_TYPES}. */
  type: string;
  /** DKIM only; without it {@link COMMON_DKIM_SELECTORS} are tried. */
  selector?: string;
}

export interface LookupResult {
  /** The name as queried: lower case, punycode, no final dot (an IP stays as given for PTR). */
  domain: string;
  type: LookupType;
  records: object[];
  elapsedMs: number;
}

/** The overall time a lookup may take (CONTRACT §6: 504 after 5 s). */
export const LOOKUP_TIMEOUT_MS = 5000;
/** A lookup's queries end this long after the lookup's own deadline. */
const QUERY_GRACE_MS = 100;
/**
 * The queries a lookup makes after its own (SPF includes) end this long before the lookup's deadline:
 * an include that never answers is reported (`include_failed`, a temperror, as a SERVFAIL is) with
 * the domain's own record, instead of the whole lookup turning into a 504.
 */
const FOLLOW_UP_MARGIN_MS = 500;

const TYPE_NAMES = Object.keys(RECORD_TYPES) as LookupType[];

/**
 * Look up one record type of a domain (mail checks included) through the given client.
 * NXDOMAIN and NODATA give `records: []`; upstream failures throw 502 `upstream_error`, a lookup
 * slower than `timeoutMs` 504 `upstream_timeout`; bad names and types 422. Answers the cache holds
 * are read from it without a query.
 * `caller` (a key id or a client address) shares the upstream turns fairly (see `DnsClient.query`).
 *
 * @example
 *   await lookupDns({ domain: 'example.com', type: 'mx' }, client, 'key_1');
 *   // { domain: 'example.com', type: 'MX', records: [{ exchange: 'mx.example.com', priority: 10 }], elapsedMs: 3.1 }
 */
export async function lookupDns(
  input: LookupInput,
  client: DnsClient,
  caller: string,
  timeoutMs = LOOKUP_TIMEOUT_MS,
): Promise<LookupResult> {
  const started = performance.now();
  // ASCII letters only: `toUpperCase` would also make "ſpf" into SPF.
  const type = input.type.toUpperCase() as LookupType;
  if (!/^[A-Za-z]+$/.test(input.type) || !Object.hasOwn(RECORD_TYPES, type))
    throw invalidField('type', `must be one of ${TYPE_NAMES.join(', ')} (any case)`);
  const row = RECORD_TYPES[type];
  const domain = normalizeDomain(input.domain, 'domain', row.allowIp);
  const selectors = type !== 'DKIM' ? [] : input.selector !== undefined ? [normalizeSelector(input.selector)] : COMMON_DKIM_SELECTORS;
  // A name that a selector or `_dmarc.` makes longer than any domain name can be has no records:
  // it is not asked (a selector the caller gave that cannot fit is a 422 on it).
  const names = (row.names?.(domain, selectors) ?? [{ name: domain }]).filter((at) => at.name.length <= MAX_NAME_LENGTH);
  if (input.selector !== undefined && type === 'DKIM' && names.length === 0) {
    throw invalidField(
      'selector',
      `is too long for this domain: ${selectors[0]}._domainkey.${domain} would exceed ${MAX_NAME_LENGTH} characters`,
    );
  }
  const read = (answers: unknown[][]) => names.flatMap((at, i) => row.read(answers[i]!, at));
  const cached = names.map((at) => client.peek(row.query, at.name));
  const records =
    cached.every((a) => a !== undefined) && !row.expand
      ? read(cached as unknown[][])
      : await withDeadline(
          (async () => {
            // The lookup's own queries end with it (just after it: its own 504 comes first); the follow-up
            // queries (SPF includes) end before it, so the record they extend is still answered.
            const ask = (type: QueryType, name: string) => client.query(type, name, caller, started + timeoutMs + QUERY_GRACE_MS);
            const askFollowUp = (type: QueryType, name: string) =>
              client.query(type, name, caller, started + timeoutMs - FOLLOW_UP_MARGIN_MS);
            const found = read(await Promise.all(names.map((at) => ask(row.query, at.name))));
            return row.expand ? row.expand(found, domain, askFollowUp) : found;
          })(),
          timeoutMs,
        );
  return { domain, type, records, elapsedMs: Math.round((performance.now() - started) * 1000) / 1000 };
}
