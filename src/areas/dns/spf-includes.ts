import type { DevutilError } from '../../errors.js';
import { normalizeDomain } from './domain-name.js';
import { evaluatedTerms, MAX_DNS_LOOKUPS, parseSpf, SPF_RECORD, type SpfRecord, type SpfTerm } from './spf.js';
import { joinTxt, type RecordWarning } from './tags.js';

/** Fetch the TXT answers of a name (cached by the DNS client). */
export type QueryTxt = (name: string) => Promise<unknown[]>;

/** Most included records fetched for one SPF record, whatever their tree looks like. */
const MAX_INCLUDED_FETCHES = 30;

interface Walk {
  queryTxt: QueryTxt;
  fetches: number;
  warnings: RecordWarning[];
  invalid: boolean;
}

/**
 * Follow `include:` and `redirect=` of each SPF record (RFC 7208 §4.6.4: the 10-lookup limit
 * covers the whole evaluation) and make `lookupCount` the total. Adds `too_many_dns_lookups`
 * when the total exceeds 10, `include_without_spf` (permerror: the target has no single SPF record),
 * `include_invalid` (the target's record has a syntax error: a permerror), `include_failed` (the
 * target's lookup failed: a temperror) and `include_loop` (a permerror). Targets with
 * macros (`%{d}`) cannot be followed and count only themselves.
 *
 * @example
 *   await countIncludedLookups(readSpfRecords(answers), 'example.com', (name) => client.query('TXT', name));
 */
export async function countIncludedLookups(records: SpfRecord[], domain: string, queryTxt: QueryTxt): Promise<SpfRecord[]> {
  for (const record of records) {
    if (record.lookupCount > MAX_DNS_LOOKUPS) continue; // already over the limit on its own
    const walk: Walk = { queryTxt, fetches: 0, warnings: [], invalid: false };
    const total = record.lookupCount + (await countNested(record.mechanisms, walk, new Set([domain])));
    record.warnings.push(...walk.warnings);
    record.lookupCount = total;
    if (total > MAX_DNS_LOOKUPS) {
      record.warnings.push({
        code: 'too_many_dns_lookups',
        message: `Evaluating the record takes ${total} DNS-querying terms with its includes; RFC 7208 §4.6.4 allows ${MAX_DNS_LOOKUPS}.`,
      });
    }
    if (total > MAX_DNS_LOOKUPS || walk.invalid) record.valid = false;
  }
  return records;
}

/** DNS-querying terms of the records that these terms include or redirect to. */
async function countNested(terms: SpfTerm[], walk: Walk, ancestors: ReadonlySet<string>): Promise<number> {
  const targets = evaluatedTerms(terms).filter(
    (t) => (t.mechanism === 'include' || t.mechanism === 'redirect') && t.value && !t.value.includes('%'),
  );
  const counts = await Promise.all(targets.map((t) => countTarget(t.value!, walk, ancestors)));
  return counts.reduce((a, b) => a + b, 0);
}

async function countTarget(value: string, walk: Walk, ancestors: ReadonlySet<string>): Promise<number> {
  let name: string;
  try {
    name = normalizeDomain(value, 'include');
  } catch (err) {
    walk.invalid = true;
    walk.warnings.push({
      code: 'include_without_spf',
      message: `"${value}" is not a valid domain name (${(err as DevutilError).message}).`,
    });
    return 0;
  }
  if (ancestors.has(name)) {
    walk.invalid = true;
    walk.warnings.push({ code: 'include_loop', message: `${name} includes itself through its own includes.` });
    return 0;
  }
  if (walk.fetches >= MAX_INCLUDED_FETCHES) return 0;
  walk.fetches += 1;
  let answers: unknown[];
  try {
    answers = await walk.queryTxt(name);
  } catch (err) {
    walk.warnings.push({ code: 'include_failed', message: `The SPF record of ${name} could not be fetched: ${(err as Error).message}` });
    return 0;
  }
  const spf = joinTxt(answers).filter((v) => SPF_RECORD.test(v));
  if (spf.length !== 1) {
    walk.invalid = true;
    walk.warnings.push({
      code: 'include_without_spf',
      message: `${name} publishes ${spf.length} SPF records instead of one (RFC 7208 §5.2: permerror).`,
    });
    return 0;
  }
  const included = parseSpf(spf[0]!);
  // A syntax error anywhere in the included record is a permerror of the whole check (RFC 7208 §5.2, §6.1).
  const broken = included.warnings.filter((w) => w.code === 'invalid_term');
  if (broken.length > 0) {
    walk.invalid = true;
    walk.warnings.push({
      code: 'include_invalid',
      message: `The SPF record of ${name} is invalid (RFC 7208 §5.2: permerror): ${broken.map((w) => w.message).join(' ')}`,
    });
  }
  const own = included.lookupCount;
  return own + (own > MAX_DNS_LOOKUPS ? 0 : await countNested(included.mechanisms, walk, new Set([...ancestors, name])));
}
