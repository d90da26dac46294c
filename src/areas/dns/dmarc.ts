import { joinTxt, parseTagList, type RecordWarning } from './tags.js';

export interface DmarcRecord {
  value: string;
  tags: Record<string, string>;
  /** `p`: what receivers should do with failing mail (`none`, `quarantine`, `reject`), null if missing/unknown. */
  policy: string | null;
  /** `sp`, else the domain policy (RFC 7489 §6.3). */
  subdomainPolicy: string | null;
  valid: boolean;
  warnings: RecordWarning[];
}

const POLICIES = new Set(['none', 'quarantine', 'reject']);
/** RFC 7489's ABNF: the tag name `v` in any case, its value exactly `DMARC1` (`%x44 %x4d %x41 %x52 %x43 %x31`). */
const DMARC_RECORD = /^[Vv]\s*=\s*DMARC1\s*(?:;|$)/;

const KEYWORD = /^[A-Za-z][A-Za-z0-9-]*$/;

/**
 * `rf`: colon-separated keywords, one of them `afrf`. Checked part by part: one pattern over the
 * whole list (keywords, then afrf, then keywords) tried afrf at every position and backtracked
 * quadratically (a 63 kB record held the event loop 1.7 s).
 */
const REPORT_FORMATS = {
  test(value: string): boolean {
    const parts = value.split(':').map((part) => part.trim());
    return parts.every((part) => KEYWORD.test(part)) && parts.some((part) => part.toLowerCase() === 'afrf');
  },
};

/** Tags whose value has a fixed grammar (RFC 7489 §6.4; names and keywords in any case), each with what it must be. */
const TAG_VALUES: Record<string, [{ test(value: string): boolean }, string]> = {
  adkim: [/^[rs]$/i, '"r" (relaxed) or "s" (strict)'],
  aspf: [/^[rs]$/i, '"r" (relaxed) or "s" (strict)'],
  fo: [/^[01ds](?:\s*:\s*[01ds])*$/i, 'a colon-separated list of 0, 1, d and s'],
  rf: [REPORT_FORMATS, 'a colon-separated list of report formats that includes "afrf", the only one defined'],
  ri: [/^\d{1,10}$/, 'a number of seconds'],
};

/**
 * The tags by lower-cased name (RFC 7489's ABNF names them in quoted strings, which match in any
 * case), first occurrence kept; a name repeated in another case is a duplicate as well.
 */
function tagsByName(order: readonly string[], tags: Record<string, string>, warnings: RecordWarning[]): Map<string, string> {
  const byName = new Map<string, string>();
  for (const name of order) {
    const key = name.toLowerCase();
    if (!byName.has(key)) byName.set(key, tags[name]!);
    else
      warnings.push({
        code: 'duplicate_tag',
        message: `Tag "${name}" appears more than once (tag names match in any case); the first value is used.`,
      });
  }
  return byName;
}

/**
 * The DMARC records among the TXT answers at `_dmarc.<domain>` (RFC 7489 §6.6.3: only records
 * starting with `v=DMARC1`, the value in that exact case, count). Tag names and keywords match in
 * any case (`P=Reject`). Warnings: `multiple_dmarc_records` (then no policy applies),
 * `missing_policy`, `invalid_policy`, `invalid_subdomain_policy`, `invalid_pct`, `invalid_tag_value`
 * (adkim, aspf, fo, rf, ri), plus tag-list syntax (`duplicate_tag` makes the record invalid: a
 * tag-list with a repeated tag is invalid as a whole, RFC 6376 §3.2).
 *
 * @example
 *   readDmarcRecords([['v=DMARC1; p=reject']])[0].policy; // 'reject'
 */
export function readDmarcRecords(txtAnswers: unknown[]): DmarcRecord[] {
  const values = joinTxt(txtAnswers).filter((v) => DMARC_RECORD.test(v));
  return values.map((value) => {
    const { tags, order, warnings } = parseTagList(value);
    const byName = tagsByName(order, tags, warnings);
    const p = byName.get('p')?.toLowerCase();
    const sp = byName.get('sp')?.toLowerCase();
    const pct = byName.get('pct');
    if (values.length > 1)
      warnings.push({
        code: 'multiple_dmarc_records',
        message: `${values.length} DMARC records are published; RFC 7489 §6.6.3 says none applies.`,
      });
    if (p === undefined) warnings.push({ code: 'missing_policy', message: 'The required "p" tag is missing.' });
    else if (!POLICIES.has(p))
      warnings.push({ code: 'invalid_policy', message: `p=${byName.get('p')} is not none, quarantine or reject.` });
    if (sp !== undefined && !POLICIES.has(sp))
      warnings.push({ code: 'invalid_subdomain_policy', message: `sp=${byName.get('sp')} is not none, quarantine or reject.` });
    if (pct !== undefined && !/^(?:100|[1-9]?\d)$/.test(pct))
      warnings.push({ code: 'invalid_pct', message: `pct=${pct} is not an integer from 0 to 100.` });
    for (const [name, [pattern, expected]] of Object.entries(TAG_VALUES)) {
      const tagValue = byName.get(name);
      if (tagValue !== undefined && !pattern.test(tagValue))
        warnings.push({ code: 'invalid_tag_value', message: `${name}=${tagValue} is not ${expected}; receivers use the default.` });
    }
    const policy = p !== undefined && POLICIES.has(p) ? p : null;
    const subdomainPolicy = sp !== undefined && POLICIES.has(sp) ? sp : policy;
    const valid =
      values.length === 1 && policy !== null && !warnings.some((w) => w.code === 'invalid_subdomain_policy' || w.code === 'duplicate_tag');
    return { value, tags, policy, subdomainPolicy, valid, warnings };
  });
}
