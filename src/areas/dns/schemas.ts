import { COMMON_DKIM_SELECTORS } from './dkim.js';

/** Decisions the contract leaves open, shown in the OpenAPI description of both lookup routes. */
export const LOOKUP_DESCRIPTION = [
  'Looks up one record type. `type` is any case; one of A, AAAA, CNAME, MX, NS, TXT, SOA, SRV, CAA, PTR, SPF, DMARC, DKIM (default A).',
  '`GET /v1/lookup` and `POST /v1/devtools/dns-lookup` give the same result and both belong to the dns area.',
  '',
  '**Names.** Labels of 1-63 letters, digits, `-` or `_`; 253 characters at most; a final dot is dropped; answers echo the name lower-cased.',
  'Internationalised names are converted to punycode (IDNA, `münchen.de` → `xn--mnchen-3ya.de`) and the response `domain` shows that form.',
  'An IP address is refused (422) except for PTR, where it is turned into its `in-addr.arpa` / `ip6.arpa` name (the response `domain` keeps the IP).',
  '',
  '**Records.** A/AAAA `{address, ttl}`, MX `{exchange, priority}`, TXT `{value}` (character-strings joined without separator), CNAME/NS/PTR `{value}`,',
  'A/AAAA `ttl` is the value in the answer as received (not counted down while the answer is cached; one with the top bit set is 0, RFC 2181 §8). A null MX (RFC 7505) has `exchange` ".", an SRV record saying the service is not available (RFC 2782) `name` ".".',
  'SOA `{nsname, hostmaster, serial, refresh, retry, expire, minttl}`, SRV `{name, port, priority, weight}`, CAA `{critical, tag, value}` (`critical`: the issuer-critical flag, bit 128).',
  'SPF: the `v=spf1` TXT records of the domain, `{value, mechanisms: [{qualifier, mechanism, value}], lookup_count, valid, warnings}`; modifiers (`redirect=`, `exp=`) are listed with `qualifier: null`.',
  '`lookup_count` counts the DNS-querying terms (include, a, mx, ptr, exists, redirect) of the record and, recursively, of the records its `include:` and `redirect=` reach',
  '(targets with macros count only themselves; at most 30 included records are fetched). `warnings` codes: `multiple_spf_records`, `too_many_dns_lookups` (> 10), `invalid_term`,',
  '`include_without_spf`, `include_invalid` (an included record has a syntax error) and `include_loop` make `valid` false (RFC 7208 permerror); `include_failed` (a temperror: an include failed upstream or had no answer 4.5 s into the lookup, so the record is still answered within 5 s) and `plus_all`, `ptr_mechanism`, `terms_after_all`, `redirect_ignored` (a `redirect=` in a record with `all`, which RFC 7208 §6.1 ignores: not followed, not counted) are advice.',
  'DMARC: the `v=DMARC1` records at `_dmarc.<domain>` (`DMARC1` in exactly that case, as RFC 7489 §6.4 requires; tag names and keywords in any case: `P=Reject` is `p=reject`), `{value, tags, policy, subdomain_policy, valid, warnings}` (`policy` is `p`: none, quarantine or reject; `tags` as written).',
  'DMARC `warnings` codes: `multiple_dmarc_records`, `missing_policy`, `invalid_policy`, `invalid_subdomain_policy` and `duplicate_tag` (a tag repeated in any case) make `valid` false; `invalid_pct`, `invalid_tag_value` (adkim, aspf, fo, rf, ri outside their grammar: receivers use the default) and `malformed_tag` are advice.',
  `DKIM: the key records at \`<selector>._domainkey.<domain>\`, \`{selector, value, tags, key_type, key_bits, valid, warnings}\` (\`valid\` is false for a missing, revoked or unreadable key, a \`v=\` other than DKIM1 or not first, a repeated tag, and an RSA key under 1024 bits, which RFC 8301 forbids); without \`selector\` these are tried: ${COMMON_DKIM_SELECTORS.join(', ')} (none found: \`records: []\`; the selectors are queried in parallel and an upstream failure of any of them fails the lookup).`,
  '',
  '**Outcomes.** No such name (NXDOMAIN) or no record of the type: 200 with `records: []`. Upstream SERVFAIL, refusal or unreachable server: 502 `upstream_error`.',
  'No answer within 5 s: 504 `upstream_timeout`. Answers are cached honouring their TTL (A/AAAA; 60 s for types whose TTL node does not expose; 1 s to 1 h; no-record answers 15 s; at most 10,000 entries).',
  "Resolvers: `DNS_SERVERS`, else the system's; a truncated UDP answer is retried over TCP.",
].join('\n');

const lookupFields = {
  domain: { type: 'string', maxLength: 1024, description: 'Domain name (or an IP address for PTR).', examples: ['example.com'] },
  type: { type: 'string', maxLength: 16, default: 'A', description: 'Record type, any case.', examples: ['MX'] },
  selector: { type: 'string', maxLength: 253, description: 'DKIM selector (DKIM only; ignored otherwise).', examples: ['google'] },
} as const;

/** GET query and POST body: the same fields. */
export const lookupInputSchema = {
  type: 'object',
  required: ['domain'],
  properties: lookupFields,
  additionalProperties: false,
  examples: [{ domain: 'example.com', type: 'MX' }],
} as const;

const warningSchema = {
  type: 'object',
  required: ['code', 'message'],
  properties: { code: { type: 'string' }, message: { type: 'string' } },
} as const;

const nullableString = { type: ['string', 'null'] } as const;

/** One record; which fields appear depends on the type (see the route description). */
const recordSchema = {
  type: 'object',
  properties: {
    address: { type: 'string', description: 'A, AAAA.' },
    ttl: { type: 'integer', description: 'A, AAAA: seconds.' },
    exchange: { type: 'string', description: 'MX.' },
    priority: { type: 'integer', description: 'MX, SRV.' },
    value: { type: 'string', description: 'TXT, CNAME, NS, PTR, CAA, SPF, DMARC, DKIM.' },
    nsname: { type: 'string' },
    hostmaster: { type: 'string' },
    serial: { type: 'integer' },
    refresh: { type: 'integer' },
    retry: { type: 'integer' },
    expire: { type: 'integer' },
    minttl: { type: 'integer' },
    name: { type: 'string', description: 'SRV target.' },
    port: { type: 'integer' },
    weight: { type: 'integer' },
    critical: { type: 'boolean', description: 'CAA issuer-critical flag.' },
    tag: { type: 'string', description: 'CAA tag (issue, issuewild, iodef, ...).' },
    mechanisms: {
      type: 'array',
      description: 'SPF terms in order.',
      items: {
        type: 'object',
        required: ['qualifier', 'mechanism', 'value'],
        properties: {
          qualifier: { type: ['string', 'null'], enum: ['+', '-', '~', '?', null] },
          mechanism: { type: 'string' },
          value: nullableString,
        },
      },
    },
    lookup_count: {
      type: 'integer',
      description: 'SPF: DNS-querying terms of the record and the records it includes (RFC 7208 limit: 10).',
    },
    tags: { type: 'object', additionalProperties: { type: 'string' }, description: 'DMARC, DKIM: tag → value.' },
    policy: nullableString,
    subdomain_policy: nullableString,
    selector: { type: 'string', description: 'DKIM.' },
    key_type: { type: 'string', description: 'DKIM `k` (default rsa).' },
    key_bits: { type: ['integer', 'null'], description: 'DKIM key size.' },
    valid: { type: 'boolean', description: 'SPF, DMARC, DKIM: false when a warning makes the record unusable.' },
    warnings: { type: 'array', items: warningSchema, description: 'SPF, DMARC, DKIM findings.' },
  },
} as const;

/** `{domain, type, records, elapsed_ms}` (CONTRACT §6). */
export const lookupResultSchema = {
  type: 'object',
  required: ['domain', 'type', 'records', 'elapsed_ms'],
  properties: {
    domain: { type: 'string' },
    type: { type: 'string' },
    records: { type: 'array', items: recordSchema },
    elapsed_ms: { type: 'number' },
  },
  examples: [{ domain: 'example.com', type: 'MX', records: [{ exchange: 'mx1.example.com', priority: 10 }], elapsed_ms: 12.4 }],
} as const;
