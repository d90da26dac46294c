// The DNS lookup page: domain, record type and (for DKIM) selector, sent on Run; the answer as a
// table per record type, SPF, DMARC and DKIM explained term by term, and failures in words.
import { DkimRecordView, DmarcRecordView, SpfRecordView } from './dns-mail';
import { RECORD_COLUMNS, soaRows, sortRecords, type DnsRecord, type LookupResult } from './dns-records';
import { FieldInput, fieldId } from './form';
import type { CallError, Outcome, ToolPageProps } from './types';
import './dns.css';

/** What each kind of record is, for the line above its table. */
const TYPE_NOUNS: Record<string, [one: string, many: string]> = {
  SPF: ['SPF record', 'SPF records'],
  DMARC: ['DMARC record', 'DMARC records'],
  DKIM: ['DKIM key', 'DKIM keys'],
};

const nounOf = (type: string, n: number) => (TYPE_NOUNS[type] ?? [`${type} record`, `${type} records`])[n === 1 ? 0 : 1];

/** Why a lookup found nothing, for the types where the absence itself says something. */
function emptyMeaning(type: string, domain: string, selector: string | undefined): string {
  switch (type) {
    case 'SPF':
      return `${domain} publishes no TXT record starting with v=spf1, so receivers cannot tell which servers may send its mail.`;
    case 'DMARC':
      return `There is no v=DMARC1 record at _dmarc.${domain}: receivers apply no DMARC policy to its mail and send no reports.`;
    case 'DKIM':
      return selector
        ? `There is no key at ${selector}._domainkey.${domain}. The selector is the s= tag of a DKIM-Signature header of a message the domain sent.`
        : `None of the selectors of common mail providers has a key. Enter the selector: the s= tag of a DKIM-Signature header of a message the domain sent.`;
    default:
      return `The name does not exist (NXDOMAIN) or has no ${type} record.`;
  }
}

/** A failed lookup in words; the API's own sentence is in the alert above the form. */
function FailureText({ error }: { error: CallError }) {
  if (Object.keys(error.fieldErrors).length > 0) return <p class="hint">No result: see the error next to the field.</p>;
  if (error.code === 'upstream_error')
    return (
      <p class="dns-failure">
        The lookup failed: the DNS server answered with an error or could not be reached (HTTP 502, <code>upstream_error</code>). This says
        nothing about whether the records exist; try again later.
      </p>
    );
  if (error.code === 'upstream_timeout')
    return (
      <p class="dns-failure">
        The lookup timed out: no DNS server answered within 5 seconds (HTTP 504, <code>upstream_timeout</code>). Try again later.
      </p>
    );
  return <p class="hint">No result: see the error above.</p>;
}

function PlainRecords({ type, records }: { type: string; records: DnsRecord[] }) {
  const columns = RECORD_COLUMNS[type];
  if (columns === undefined) return null;
  const caption = `${type} records${type === 'MX' || type === 'SRV' ? ', by priority' : ''}`;
  return (
    <div class="tool-table-wrap" tabIndex={0} role="group" aria-label={caption}>
      <table class="tool-table dns-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col">
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sortRecords(type, records).map((record, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c.label}>{c.text(record)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SoaRecord({ record }: { record: DnsRecord }) {
  return (
    <dl class="dns-soa" aria-label="SOA record">
      {soaRows(record).map(([label, value, meaning]) => (
        <div key={label} class="tool-field-row">
          <dt>{label}</dt>
          <dd>
            <code>{value}</code> <span class="hint">{meaning}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Answer({ outcome }: { outcome: Outcome }) {
  const result = outcome.result as LookupResult;
  const selector = typeof outcome.request.body?.selector === 'string' ? outcome.request.body.selector : undefined;
  const { type, domain, records } = result;
  const count = records.length;
  if (count === 0)
    return (
      <div class="dns-empty">
        <p>
          <strong>
            No records found for {domain} ({type}
            {type === 'DKIM' && selector ? `, selector ${selector}` : ''}).
          </strong>
        </p>
        <p>{emptyMeaning(type, domain, type === 'DKIM' ? selector : undefined)}</p>
      </div>
    );
  const heading = (i: number) => `${nounOf(type, 1)}${count > 1 ? ` ${i + 1} of ${count}` : ''}`;
  let body;
  if (type === 'SPF') body = records.map((r, i) => <SpfRecordView key={i} record={r} domain={domain} heading={heading(i)} />);
  else if (type === 'DMARC') body = records.map((r, i) => <DmarcRecordView key={i} record={r} heading={heading(i)} />);
  else if (type === 'DKIM')
    body = records.map((r, i) => <DkimRecordView key={i} record={r} domain={domain} heading={`DKIM key, selector ${r.selector ?? ''}`} />);
  else if (type === 'SOA') body = records.map((r, i) => <SoaRecord key={i} record={r} />);
  else body = <PlainRecords type={type} records={records} />;
  return (
    <>
      <p class="dns-summary">
        {count} {nounOf(type, count)} for <strong>{domain}</strong>, answered in {Math.round(result.elapsed_ms)} ms.
      </p>
      {body}
    </>
  );
}

export default function DnsPage({ operation, fields, inputs, setInputs, run, call }: ToolPageProps) {
  const errors = call.error?.fieldErrors ?? {};
  const type = String(inputs.type || 'A').toUpperCase();
  const input = (name: string) => {
    const field = fields.find((f) => f.name === name);
    return (
      field && (
        <FieldInput
          field={field}
          id={fieldId(operation.id, name)}
          value={inputs[name] ?? ''}
          error={errors[name]}
          onChange={(value) => setInputs((previous) => ({ ...previous, [name]: value }))}
        />
      )
    );
  };
  let content;
  if (call.error) content = <FailureText error={call.error} />;
  else if (call.outcome) content = <Answer outcome={call.outcome} />;
  else if (call.busy) content = <p class="hint">Looking up…</p>;
  else content = <p class="hint">Press Run to look the records up.</p>;
  return (
    <div class="dns-page">
      <form
        class="tool-form dns-form"
        aria-label={operation.label}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
      >
        <div class="dns-fields">
          {input('domain')}
          {input('type')}
          {type === 'DKIM' && input('selector')}
        </div>
        {type === 'DKIM' && <p class="hint">Leave the selector empty to try the selectors of common mail providers.</p>}
        <div class="tool-run">
          <button type="submit" disabled={call.busy}>
            Run
          </button>
          {call.busy && (
            <span class="tool-progress" role="status">
              <progress aria-label="Running" /> Running…
            </span>
          )}
        </div>
      </form>
      <section class="tool-result" aria-labelledby="tool-result-heading" aria-busy={call.busy ? 'true' : undefined}>
        <div class="tool-result-head">
          <h2 id="tool-result-heading">Result</h2>
        </div>
        {content}
      </section>
    </div>
  );
}
