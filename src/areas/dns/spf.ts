import { isIPv4, isIPv6 } from 'node:net';
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

/** `/n` with n at most `max` (no leading zeros, RFC 7208 §5.6). */
const cidrOk = (digits: string | undefined, max: number) =>
  digits === undefined || (/^(0|[1-9]\d{0,2})$/.test(digits) && Number(digits) <= max);
const DUAL_CIDR = /^(?:\/(\d+))?(?:\/\/(\d+))?$/;

/** Why a mechanism's argument breaks RFC 7208's grammar (§5), or null. */
function argumentError(name: string, hasColon: boolean, value: string | null): string | null {
  if (name === 'all') return value === null ? null : '"all" takes no argument';
  if (name === 'ip4' || name === 'ip6') {
    if (!hasColon || !value) return null; // reported as a missing value
    const [address, bits, extra] = value.split('/');
    const ok = name === 'ip4' ? isIPv4(address!) && cidrOk(bits, 32) : isIPv6(address!) && cidrOk(bits, 128);
    return ok && extra === undefined ? null : `"${value}" is not an ${name === 'ip4' ? 'IPv4' : 'IPv6'} address or network`;
  }
  if (name === 'a' || name === 'mx') {
    const slash = value === null ? -1 : value.indexOf('/');
    const domain = value === null ? '' : slash === -1 ? value : value.slice(0, slash);
    const cidr = value === null || slash === -1 ? '' : value.slice(slash);
    if (hasColon && domain === '') return `"${name}:" needs a domain before its prefix length`;
    const dual = DUAL_CIDR.exec(cidr);
    return dual && cidrOk(dual[1], 32) && cidrOk(dual[2], 128)
      ? null
      : `"${cidr}" is not a prefix length (/0-32 for IPv4, //0-128 for IPv6)`;
  }
  return null;
}

/**
 * The SPF records among a domain's TXT answers, each parsed (RFC 7208). Warnings flag what makes
 * a check fail with permerror: more than one SPF record (`multiple_spf_records`), more than 10
 * DNS-querying terms in the record itself (`too_many_dns_lookups`; spf-includes.ts adds the included ones), an
 * unparseable term (`invalid_term`), and risky ones (`plus_all`, `ptr_mechanism`, `terms_after_all`,
 * `redirect_ignored` for a `redirect=` next to `all`).
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
      record.warnings.unshift({
        code: 'multiple_spf_records',
        message: `The domain publishes ${values.length} SPF records; RFC 7208 §4.5 makes that a permerror.`,
      });
      record.valid = false;
    }
    return record;
  });
}

/**
 * The terms a check can evaluate: all of them, but `redirect=` when the record has an `all`
 * mechanism anywhere (RFC 7208 §6.1: it is then ignored, and costs no lookup).
 */
export function evaluatedTerms(terms: SpfTerm[]): SpfTerm[] {
  if (!terms.some((t) => t.qualifier !== null && t.mechanism === 'all')) return terms;
  return terms.filter((t) => !(t.qualifier === null && t.mechanism === 'redirect'));
}

/**
 * Parse one SPF record's terms; `lookupCount` counts its own DNS-querying terms (a `redirect=`
 * next to `all` is ignored).
 *
 * @example
 *   parseSpf('v=spf1 a mx -all').lookupCount; // 2
 */
export function parseSpf(value: string): SpfRecord {
  const mechanisms: SpfTerm[] = [];
  const warnings: RecordWarning[] = [];
  let invalid = false;
  let sawAll = false;
  for (const term of value
    .split(' ')
    .slice(1)
    .filter((t) => t !== '')) {
    const mech = MECHANISM.exec(term);
    const mod = mech ? null : MODIFIER.exec(term);
    if (mech) {
      const name = mech[2]!.toLowerCase();
      const qualifier = (mech[1] || '+') as SpfTerm['qualifier'];
      const termValue = mech[3] ? mech[4]! : (mech[5] ?? null);
      mechanisms.push({ qualifier, mechanism: name, value: termValue });
      const argument = argumentError(name, mech[3] !== undefined, termValue);
      if (NEEDS_VALUE.has(name) && !termValue) {
        invalid = true;
        warnings.push({ code: 'invalid_term', message: `"${term}" needs a value ("${name}:...").` });
      } else if (argument) {
        invalid = true;
        warnings.push({ code: 'invalid_term', message: `"${term}": ${argument} (RFC 7208 §5).` });
      }
      if (sawAll) warnings.push({ code: 'terms_after_all', message: `"${term}" comes after "all" and is never evaluated.` });
      if (name === 'all') sawAll = true;
      if (name === 'all' && qualifier === '+')
        warnings.push({ code: 'plus_all', message: '"+all" lets every server on the internet send mail as this domain.' });
      if (name === 'ptr')
        warnings.push({ code: 'ptr_mechanism', message: 'RFC 7208 §5.5 says "ptr" SHOULD NOT be used (slow and unreliable).' });
    } else if (mod) {
      const name = mod[1]!.toLowerCase();
      // redirect= and exp= may each appear once (RFC 7208 §6), and name a domain.
      if (
        (name === 'redirect' || name === 'exp') &&
        (mod[2] === '' || mechanisms.some((m) => m.qualifier === null && m.mechanism === name))
      ) {
        invalid = true;
        warnings.push({
          code: 'invalid_term',
          message: mod[2] === '' ? `"${term}" needs a domain.` : `"${name}=" appears more than once; RFC 7208 §6 allows it once.`,
        });
      }
      mechanisms.push({ qualifier: null, mechanism: name, value: mod[2]! });
    } else {
      invalid = true;
      warnings.push({ code: 'invalid_term', message: `"${term}" is not an SPF mechanism or modifier.` });
    }
  }
  const redirect = mechanisms.find((m) => m.qualifier === null && m.mechanism === 'redirect');
  if (redirect && sawAll) {
    warnings.push({
      code: 'redirect_ignored',
      message: `"redirect=${redirect.value}" is never followed: the record has "all" (RFC 7208 §6.1).`,
    });
  }
  const lookupCount = evaluatedTerms(mechanisms).filter((m) => DNS_QUERYING.has(m.mechanism)).length;
  if (lookupCount > MAX_DNS_LOOKUPS) {
    warnings.push({
      code: 'too_many_dns_lookups',
      message: `The record has ${lookupCount} DNS-querying terms; RFC 7208 §4.6.4 allows ${MAX_DNS_LOOKUPS}.`,
    });
  }
  return { value, mechanisms, lookupCount, valid: !invalid && lookupCount <= MAX_DNS_LOOKUPS, warnings };
}
