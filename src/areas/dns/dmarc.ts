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
const DMARC_RECORD = /^v\s*=\s*DMARC1\s*(?:;|$)/i;

/**
 * The DMARC records among the TXT answers at `_dmarc.<domain>` (RFC 7489 §6.6.3: only records
 * starting with `v=DMARC1` count). Warnings: `multiple_dmarc_records` (then no policy applies),
 * `missing_policy`, `invalid_policy`, `invalid_subdomain_policy`, `invalid_pct`, plus tag-list syntax.
 *
 * @example
 *   readDmarcRecords([['v=DMARC1; p=reject']])[0].policy; // 'reject'
 */
export function readDmarcRecords(txtAnswers: unknown[]): DmarcRecord[] {
  const values = joinTxt(txtAnswers).filter((v) => DMARC_RECORD.test(v));
  return values.map((value) => {
    const { tags, warnings } = parseTagList(value);
    const p = tags.p?.toLowerCase();
    const sp = tags.sp?.toLowerCase();
    if (values.length > 1) warnings.push({ code: 'multiple_dmarc_records', message: `${values.length} DMARC records are published; RFC 7489 §6.6.3 says none applies.` });
    if (p === undefined) warnings.push({ code: 'missing_policy', message: 'The required "p" tag is missing.' });
    else if (!POLICIES.has(p)) warnings.push({ code: 'invalid_policy', message: `p=${tags.p} is not none, quarantine or reject.` });
    if (sp !== undefined && !POLICIES.has(sp)) warnings.push({ code: 'invalid_subdomain_policy', message: `sp=${tags.sp} is not none, quarantine or reject.` });
    if (tags.pct !== undefined && !/^(?:100|[1-9]?\d)$/.test(tags.pct)) warnings.push({ code: 'invalid_pct', message: `pct=${tags.pct} is not an integer from 0 to 100.` });
    const policy = p !== undefined && POLICIES.has(p) ? p : null;
    const subdomainPolicy = sp !== undefined && POLICIES.has(sp) ? sp : policy;
    const valid = values.length === 1 && policy !== null && !warnings.some((w) => w.code === 'invalid_subdomain_policy');
    return { value, tags, policy, subdomainPolicy, valid, warnings };
  });
}
