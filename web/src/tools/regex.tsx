// The regex page: pattern, flags as toggles and the text; the answer as the text with each match
// marked (text nodes and <mark> elements cut at the API's offsets) and a table of matches and groups.
import { FieldInput, fieldId } from './form';
import { REGEX_FLAGS, segmentsOf, toggleFlag, type RegexMatch } from './regex-matches';
import type { FieldSpec, ToolPageProps } from './types';
import './regex.css';

/** Rows of the table; the marks in the text show every match. */
const MAX_ROWS = 500;

interface ExtractAnswer {
  match_count: number;
  matches: RegexMatch[];
  truncated: boolean;
}

function FlagToggles({ props, field }: { props: ToolPageProps; field: FieldSpec }) {
  const { operation, inputs, setInputs, call } = props;
  const id = fieldId(operation.id, field.name);
  const flags = typeof inputs[field.name] === 'string' ? (inputs[field.name] as string) : '';
  const error = call.error?.fieldErrors[field.name];
  return (
    <div class="tool-field regex-flags">
      <span class="tool-label" id={`${id}-label`}>
        Flags
      </span>
      <div role="group" aria-labelledby={`${id}-label`} aria-describedby={error ? `${id}-error` : undefined} class="regex-flag-buttons">
        {REGEX_FLAGS.map(({ flag, label }) => (
          <button
            key={flag}
            type="button"
            class="regex-flag"
            aria-pressed={flags.includes(flag)}
            onClick={() => setInputs((previous) => ({ ...previous, [field.name]: toggleFlag(String(previous[field.name] ?? ''), flag) }))}
          >
            <code>{flag}</code> {label}
          </button>
        ))}
      </div>
      {error && (
        <p id={`${id}-error`} class="tool-field-error">
          {error}
        </p>
      )}
    </div>
  );
}

function HighlightedText({ text, matches }: { text: string; matches: RegexMatch[] }) {
  return (
    <pre class="regex-highlight" tabIndex={0}>
      {segmentsOf(text, matches).map((segment, i) =>
        segment.match === null ? (
          segment.text
        ) : (
          <mark key={i} class={`regex-mark regex-mark-${segment.match % 2}${segment.text === '' ? ' regex-mark-empty' : ''}`}>
            {segment.text}
          </mark>
        ),
      )}
    </pre>
  );
}

function Group({ value }: { value: string | null | undefined }) {
  if (value === null || value === undefined) return <span class="tool-null">null</span>;
  return value === '' ? <span class="tool-null">(empty)</span> : <>{value}</>;
}

function MatchTable({ matches }: { matches: RegexMatch[] }) {
  const groupCount = Math.max(0, ...matches.map((m) => m.groups.length));
  const names: string[] = [];
  for (const m of matches) for (const name of Object.keys(m.named_groups)) if (!names.includes(name)) names.push(name);
  const rows = matches.slice(0, MAX_ROWS);
  return (
    <div class="tool-table-wrap" tabIndex={0} role="group" aria-label="Matches">
      <table class="tool-table regex-table">
        <caption class="offscreen">Matches with their groups and named groups</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Match</th>
            <th scope="col">Start</th>
            <th scope="col">End</th>
            {Array.from({ length: groupCount }, (_, i) => (
              <th key={`g${i}`} scope="col">
                Group {i + 1}
              </th>
            ))}
            {names.map((name) => (
              <th key={`n${name}`} scope="col">
                {`<${name}>`}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((m, i) => (
            <tr key={i}>
              <td>{i + 1}</td>
              <td>
                <Group value={m.match} />
              </td>
              <td>{m.start}</td>
              <td>{m.end}</td>
              {Array.from({ length: groupCount }, (_, g) => (
                <td key={`g${g}`}>
                  <Group value={m.groups[g]} />
                </td>
              ))}
              {names.map((name) => (
                <td key={`n${name}`}>
                  <Group value={m.named_groups[name]} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {matches.length > MAX_ROWS && (
        <p class="hint">
          The table shows the first {MAX_ROWS} of {matches.length} matches; the text marks them all and the raw JSON lists them all.
        </p>
      )}
    </div>
  );
}

export default function RegexPage(props: ToolPageProps) {
  const { operation, fields, inputs, setInputs, call } = props;
  const byName = (name: string) => fields.find((f) => f.name === name);
  const input = (field: FieldSpec) => (
    <FieldInput
      field={field}
      id={fieldId(operation.id, field.name)}
      value={inputs[field.name]}
      error={call.error?.fieldErrors[field.name]}
      onChange={(value) => setInputs((previous) => ({ ...previous, [field.name]: value }))}
    />
  );
  const flags = byName('flags');

  const answer = call.outcome?.result as ExtractAnswer | undefined;
  // The text the answer's offsets count in: the one sent, which the textarea may have left behind.
  const sentText = String(call.outcome?.request.body?.text ?? '');
  let content;
  if (answer && !call.error) {
    const count = answer.match_count;
    content = (
      <>
        <p class="regex-count" role="status">
          {count === 0 ? 'No match' : `${count} ${count === 1 ? 'match' : 'matches'}`}
          {answer.truncated && ' (more exist: the API returns the first ones only)'}
        </p>
        {sentText !== '' && (
          <>
            <h3 class="regex-subheading">Matches in the text</h3>
            <HighlightedText text={sentText} matches={answer.matches} />
          </>
        )}
        {count > 0 && <MatchTable matches={answer.matches} />}
      </>
    );
  } else if (call.error) content = <p class="hint">No result: see the error.</p>;
  else if (call.missing.length > 0) content = <p class="hint">Fill in a pattern to see the matches.</p>;
  else content = <p class="hint">Working…</p>;

  return (
    <div class="tool-columns regex-page">
      <div class="tool-form">
        {input(byName('pattern')!)}
        {flags && <FlagToggles props={props} field={flags} />}
        {input(byName('text')!)}
      </div>
      <section class="tool-result" aria-labelledby="tool-result-heading" aria-busy={call.busy ? 'true' : undefined}>
        <div class="tool-result-head">
          <h2 id="tool-result-heading">Result</h2>
          {call.busy && <span class="hint">Updating…</span>}
        </div>
        {content}
      </section>
    </div>
  );
}
