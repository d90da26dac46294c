import { headerRow, type HeaderRow } from './mock-values';
import { FieldMessages } from './field-messages';

export interface HeaderRowsProps {
  rows: HeaderRow[];
  onChange(rows: HeaderRow[]): void;
  /** Messages about the whole set (too many headers), shown under the legend. */
  messages: string[];
  /** Messages per row, by row key (a name that is not an HTTP token, a refused header). */
  rowMessages: Record<number, string[]>;
}

/** The "Headers" field: one name/value row per custom response header, rows added and removed freely. */
export function HeaderRows({ rows, onChange, messages, rowMessages }: HeaderRowsProps) {
  const update = (key: number, change: Partial<HeaderRow>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...change } : r)));
  const add = () => {
    const row = headerRow();
    onChange([...rows, row]);
    // Focus the new row's name once it is rendered.
    requestAnimationFrame(() => document.getElementById(`mock-header-${row.key}-name`)?.focus());
  };
  const remove = (key: number) => {
    const at = rows.findIndex((r) => r.key === key);
    const next = rows[at + 1] ?? rows[at - 1];
    onChange(rows.filter((r) => r.key !== key));
    // Focus stays in the list: on the row that takes its place, else on "Add header".
    requestAnimationFrame(() => document.getElementById(next ? `mock-header-${next.key}-name` : 'mock-header-add')?.focus());
  };
  return (
    <fieldset
      class="mock-headers"
      aria-describedby={messages.length > 0 ? 'mock-headers-error' : 'mock-headers-hint'}
      aria-invalid={messages.length > 0 || undefined}
    >
      <legend>Headers</legend>
      <p id="mock-headers-hint" class="hint">
        {rows.length === 0 ? 'No custom headers.' : 'Names are case-insensitive and stored in lower case.'} Content type has its own field.
      </p>
      <FieldMessages id="mock-headers-error" messages={messages} />
      {rows.map((row, i) => {
        const errorId = `mock-header-${row.key}-error`;
        const problems = rowMessages[row.key] ?? [];
        const describedBy = problems.length > 0 ? errorId : undefined;
        return (
          <div class="mock-header-row" key={row.key}>
            <input
              id={`mock-header-${row.key}-name`}
              aria-label={`Header ${i + 1} name`}
              placeholder="x-example"
              autocomplete="off"
              spellcheck={false}
              value={row.name}
              onInput={(e) => update(row.key, { name: e.currentTarget.value })}
              aria-describedby={describedBy}
              aria-invalid={problems.length > 0 || undefined}
            />
            <input
              aria-label={`Header ${i + 1} value`}
              placeholder="value"
              autocomplete="off"
              spellcheck={false}
              value={row.value}
              onInput={(e) => update(row.key, { value: e.currentTarget.value })}
              aria-describedby={describedBy}
            />
            <button type="button" class="secondary" onClick={() => remove(row.key)}>
              Remove<span class="mock-sr-only"> header {i + 1}</span>
            </button>
            <FieldMessages id={errorId} messages={problems} />
          </div>
        );
      })}
      <button type="button" id="mock-header-add" class="secondary" onClick={add}>
        Add header
      </button>
    </fieldset>
  );
}
