import type { RecordWarning } from './tags.js';
import { joinTxt } from './tags.js';

/** One term of an SPF record: a mechanism (with its qualifier) or a modifier (qualifier null). */
export interface SpfTerm {
  qualifier: '+' | '-' | '~' | '?' | null;
  mechanism: string;
  value: string | null;
}

export interface SpfRecord {
  value: string;
  mechanisms: SpfTerm[];
  lookupCount: number;
  valid: boolean;
  warnings: RecordWarning[];
}

/** Terms that cost a DNS query when evaluated (RFC 7208 §4.6.4 allows 10 per check). */
export const DNS_QUERYING = new Set(['include', 'a', 'mx', 'ptr', 'exists', 'redirect']);
export const MAX_DNS_LOOKUPS = 10;
const MECHANISM = /^([+\-~?]?)(all|include|a|mx|ptr|ip4|ip6|exists)(?:(:)([^/]*(?:\/.*)?)|(\/.*))?$/i;
const MODIFIER = /^([a-z][a-z0-9_.-]*)=(.*)$/i;
export const SPF_RECORD = /^v=spf1(?: |$)/i;
/** Mechanisms that are meaningless without a `:value`. */
const NEEDS_VALUE = new Set(['include', 'exists', 'ip4', 'ip6']);

/**
 * The SPF records among a domain's TXT answers, each parsed (RFC 7208). Warnings flag what makes
 * a check fail with permerror: more than one SPF record (`multiple_spf_records`), more than 10
 * DNS-querying terms in the record itself (`too_many_dns_lookups`; spf-includes.ts adds the included ones), an
 * unparseable term (`invalid_term`), and risky ones (`plus_all`, `ptr_mechanism`, `terms_after_all`).
 *
 * @example
 *   readSpfRecords([['v=spf1 include:_spf.google.com ~all']])[0].mechanisms;
 *   // [{ qualifier: '+', mechanism: 'include', value: '_spf.google.com' }, { qualifier: '~', mechanism: 'all', value: null }]
 */
export function readSpfRecords(txtAnswers: unknown[]): SpfRecord[] {
  const values = joinTxt(txtAnswers).filter((v) => SPF_RECORD.test(v));
  return values.map((value) => {
    const record = parseSpf(value);
    if (values.length > 1) {
      record.warnings.unshift({ code: 'multiple_spf_records', message: `The domain publishes ${values.length} SPF records; RFC 7208 §4.5 makes that a permerror.` });
      record.valid = false;
    }
    return record;
  });
}

/**
 * Parse one SPF record's terms; `lookupCount` counts its own DNS-querying terms.
 *
 * @example
 *   parseSpf('v=spf1 a mx -all').lookupCount; // 2
 */
export function parseSpf(value: string): SpfRecord {
  const mechanisms: SpfTerm[] = [];
  const warnings: RecordWarning[] = [];
  let invalid = false;
  let sawAll = false;
  for (const term of value.split(' ').slice(1).filter((t) => t !== '')) {
    const mech = MECHANISM.exec(term);
    const mod = mech ? null : MODIFIER.exec(term);
    if (mech) {
      const name = mech[2]!.toLowerCase();
      const qualifier = (mech[1] || '+') as SpfTerm['qualifier'];
      const termValue = mech[3] ? mech[4]! : (mech[5] ?? null);
      mechanisms.push({ qualifier, mechanism: name, value: termValue });
      if (NEEDS_VALUE.has(name) && !termValue) {
        invalid = true;
        warnings.push({ code: 'invalid_term', message: `"${term}" needs a value ("${name}:...").` });
      }
      if (sawAll) warnings.push({ code: 'terms_after_all', message: `"${term}" comes after "all" and is never evaluated.` });
      if (name === 'all') sawAll = true;
      if (name === 'all' && qualifier === '+') warnings.push({ code: 'plus_all', message: '"+all" lets every server on the internet send mail as this domain.' });
      if (name === 'ptr') warnings.push({ code: 'ptr_mechanism', message: 'RFC 7208 §5.5 says "ptr" SHOULD NOT be used (slow and unreliable).' });
    } else if (mod) {
      mechanisms.push({ qualifier: null, mechanism: mod[1]!.toLowerCase(), value: mod[2]! });
    } else {
      invalid = true;
      warnings.push({ code: 'invalid_term', message: `"${term}" is not an SPF mechanism or modifier.` });
    }
  }
  const lookupCount = mechanisms.filter((m) => DNS_QUERYING.has(m.mechanism)).length;
  if (lookupCount > MAX_DNS_LOOKUPS) {
    warnings.push({ code: 'too_many_dns_lookups', message: `The record has ${lookupCount} DNS-querying terms; RFC 7208 §4.6.4 allows ${MAX_DNS_LOOKUPS}.` });
  }
  return { value, mechanisms, lookupCount, valid: !invalid && lookupCount <= MAX_DNS_LOOKUPS, warnings };
}
