// The mail-check records of the DNS lookup page: SPF terms, DMARC tags and DKIM key tags as tables,
// each row with what it means, and the API's verdict and warnings. Values are inserted as text.
import { CopyButton } from '../components/copy-button';
import { dmarcDefaults, explainDkimTag, explainDmarcTag, explainSpfTerm, qualifierText, type SpfTerm } from './dns-explain';
import type { DnsRecord } from './dns-records';

/** RFC 7208 §4.6.4: more DNS-querying terms than this make the check a permerror. */
const MAX_SPF_LOOKUPS = 10;

function Verdict({ valid, invalid }: { valid: boolean | undefined; invalid: string }) {
  return valid === false ? <span class="dns-badge dns-bad">{invalid}</span> : <span class="dns-badge dns-good">Valid</span>;
}

/** The record as published, with a copy button. */
function RecordText({ value, label }: { value: string; label: string }) {
  return (
    <div class="dns-record-text">
      <code>{value}</code>
      <CopyButton label={`Copy ${label}`} text={value} />
    </div>
  );
}

function Warnings({ warnings }: { warnings: DnsRecord['warnings'] }) {
  if (!warnings || warnings.length === 0) return null;
  return (
    <div class="dns-warnings">
      <h4>Findings</h4>
      <ul>
        {warnings.map((w, i) => (
          <li key={i}>
            {w.message} <code class="hint">{w.code}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A table of `name → value` rows with a meaning column. */
function TagTable({ caption, rows }: { caption: string; rows: [string, string, string][] }) {
  return (
    <div class="tool-table-wrap" tabIndex={0} role="group" aria-label={caption}>
      <table class="tool-table dns-table dns-explained dns-tags">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Tag</th>
            <th scope="col">Value</th>
            <th scope="col">Meaning</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([tag, value, meaning], i) => (
            <tr key={i}>
              <th scope="row">{tag}</th>
              <td class="dns-mono">{value}</td>
              <td class="dns-meaning">{meaning}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One `v=spf1` record: its terms in order, the lookup count against the limit of 10, the findings. */
export function SpfRecordView({ record, domain, heading }: { record: DnsRecord; domain: string; heading: string }) {
  const terms = (record.mechanisms ?? []) as SpfTerm[];
  const hasAll = terms.some((t) => t.qualifier !== null && t.mechanism === 'all');
  const lookups = record.lookup_count ?? 0;
  return (
    <section class="dns-record" aria-label={heading}>
      <h3>
        {heading} <Verdict valid={record.valid} invalid="Invalid: receivers treat the check as a permanent error" />
      </h3>
      <RecordText value={record.value ?? ''} label="SPF record" />
      <p class={lookups > MAX_SPF_LOOKUPS ? 'dns-over' : 'hint'}>
        DNS lookups: {lookups} of the {MAX_SPF_LOOKUPS} a check may make (include, a, mx, ptr, exists and redirect, with the records they
        include).
      </p>
      <div class="tool-table-wrap" tabIndex={0} role="group" aria-label="SPF mechanisms">
        <table class="tool-table dns-table dns-explained">
          <caption>SPF mechanisms</caption>
          <thead>
            <tr>
              <th scope="col">Qualifier</th>
              <th scope="col">Mechanism</th>
              <th scope="col">Value</th>
              <th scope="col">Meaning</th>
            </tr>
          </thead>
          <tbody>
            {terms.map((term, i) => (
              <tr key={i} class={term.qualifier === null ? 'dns-modifier' : `dns-q${'+-~?'.indexOf(term.qualifier)}`}>
                <td class="dns-qualifier">{qualifierText(term.qualifier)}</td>
                <th scope="row">{term.mechanism}</th>
                <td class="dns-mono">{term.value ?? ''}</td>
                <td class="dns-meaning">{explainSpfTerm(term, domain, hasAll)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!hasAll && !terms.some((t) => t.mechanism === 'redirect') && (
        <p class="hint">No “all” and no “redirect=”: a sender no term matches gets a neutral result.</p>
      )}
      <Warnings warnings={record.warnings} />
    </section>
  );
}

/** One `v=DMARC1` record: policy, tags as written with their meaning, the defaults of the missing ones. */
export function DmarcRecordView({ record, heading }: { record: DnsRecord; heading: string }) {
  const tags = record.tags ?? {};
  const defaults = dmarcDefaults(tags);
  return (
    <section class="dns-record" aria-label={heading}>
      <h3>
        {heading} <Verdict valid={record.valid} invalid="Invalid: receivers ignore it" />
      </h3>
      <RecordText value={record.value ?? ''} label="DMARC record" />
      <p>
        Policy: <strong>{record.policy ?? 'none given'}</strong>; subdomains:{' '}
        <strong>{record.subdomain_policy ?? record.policy ?? 'none given'}</strong>
        {Object.keys(tags).some((t) => t.toLowerCase() === 'sp') ? '' : ' (from p)'}.
      </p>
      <TagTable caption="DMARC tags" rows={Object.entries(tags).map(([tag, value]) => [tag, value, explainDmarcTag(tag, value)])} />
      {defaults.length > 0 && (
        <div class="dns-defaults">
          <h4>Not set, so the defaults apply</h4>
          <ul>
            {defaults.map((d) => (
              <li key={d}>{d}</li>
            ))}
          </ul>
        </div>
      )}
      <Warnings warnings={record.warnings} />
    </section>
  );
}

/** One DKIM key record: selector, key type and size, tags with their meaning. */
export function DkimRecordView({ record, domain, heading }: { record: DnsRecord; domain: string; heading: string }) {
  const tags = record.tags ?? {};
  const key = { key_type: record.key_type ?? 'rsa', key_bits: record.key_bits ?? null };
  return (
    <section class="dns-record" aria-label={heading}>
      <h3>
        {heading} <Verdict valid={record.valid} invalid="Unusable: signatures with this key fail" />
      </h3>
      <p>
        Published at <code>{`${record.selector ?? ''}._domainkey.${domain}`}</code>; key:{' '}
        {key.key_bits === null ? 'unreadable' : `${key.key_bits}-bit`} {key.key_type === 'ed25519' ? 'Ed25519' : key.key_type.toUpperCase()}
        .
      </p>
      <RecordText value={record.value ?? ''} label="DKIM record" />
      <TagTable caption="DKIM tags" rows={Object.entries(tags).map(([tag, value]) => [tag, value, explainDkimTag(tag, value, key)])} />
      <Warnings warnings={record.warnings} />
    </section>
  );
}
