// An answer rendered for reading: its top-level fields as a list of terms, strings in monospace with
// a copy button, lists as lists, lists of objects as tables. Everything is inserted as text.
import { CopyButton } from '../components/copy-button';
import { labelOf } from './operations';

const MAX_ROWS = 200;
const MAX_COLUMNS = 20;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPrimitive = (v: unknown) => v === null || typeof v !== 'object';

function Json({ value }: { value: unknown }) {
  // Focusable: a long value scrolls, and the keyboard must reach it too.
  return (
    <pre class="tool-value tool-json" tabIndex={0}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

function Cell({ value }: { value: unknown }) {
  if (value === undefined) return null;
  return <>{isPrimitive(value) ? String(value) : JSON.stringify(value)}</>;
}

/** A list of objects as a table whose columns are every key met (in first-seen order). */
function Table({ rows, label }: { rows: Record<string, unknown>[]; label: string }) {
  const columns: string[] = [];
  for (const row of rows.slice(0, MAX_ROWS)) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  const shown = columns.slice(0, MAX_COLUMNS);
  return (
    <div class="tool-table-wrap" tabIndex={0} role="group" aria-label={label}>
      <table class="tool-table">
        <caption class="offscreen">{label}</caption>
        <thead>
          <tr>
            {shown.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, MAX_ROWS).map((row, i) => (
            <tr key={i}>
              {shown.map((c) => (
                <td key={c}>
                  <Cell value={row[c]} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {(rows.length > MAX_ROWS || columns.length > MAX_COLUMNS) && (
        <p class="hint">
          Showing {Math.min(rows.length, MAX_ROWS)} of {rows.length} rows and {shown.length} of {columns.length} columns; the raw JSON has
          them all.
        </p>
      )}
    </div>
  );
}

export interface ValueProps {
  value: unknown;
  /** What the value is, for copy buttons and table captions: the field's label. */
  label: string;
  depth?: number;
}

/** One value of an answer, whatever its type. */
export function ResultValue({ value, label, depth = 1 }: ValueProps) {
  if (value === null) return <code class="tool-value tool-null">null</code>;
  if (typeof value === 'string') {
    const long = value.includes('\n') || value.length > 120;
    return (
      <span class="tool-string">
        {long ? (
          <pre class="tool-value" tabIndex={0}>
            {value}
          </pre>
        ) : (
          <code class="tool-value">{value}</code>
        )}
        {depth === 1 && <CopyButton label={`Copy ${label.toLowerCase()}`} text={value} />}
      </span>
    );
  }
  if (typeof value !== 'object') return <code class="tool-value">{String(value)}</code>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span class="tool-value hint">(empty list)</span>;
    if (value.every(isPrimitive))
      return (
        <ol class="tool-value tool-list">
          {value.map((item, i) => (
            <li key={i}>
              <ResultValue value={item} label={label} depth={depth + 1} />
            </li>
          ))}
        </ol>
      );
    if (value.every(isPlainObject)) return <Table rows={value} label={label} />;
    return <Json value={value} />;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return <code class="tool-value">{'{}'}</code>;
  if (depth >= 3) return <Json value={value} />;
  return (
    <dl class="tool-value tool-fields">
      {entries.map(([key, item]) => (
        <div key={key} class="tool-field-row">
          <dt>{key}</dt>
          <dd>
            <ResultValue value={item} label={key} depth={depth + 1} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A whole answer: an object as its fields (labelled from their names), anything else as one value.
 *
 * @example
 *   <GenericResult value={{ formatted: '1,234.5', original: 1234.5 }} />
 */
export function GenericResult({ value }: { value: unknown }) {
  if (!isPlainObject(value)) return <ResultValue value={value} label="Result" />;
  return (
    <dl class="tool-fields tool-result-fields">
      {Object.entries(value).map(([key, item]) => (
        <div key={key} class="tool-field-row">
          <dt>{labelOf(key)}</dt>
          <dd>
            <ResultValue value={item} label={labelOf(key)} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
