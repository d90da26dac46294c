// What the number format and date format pages share: a text field with a searchable list of
// suggestions (the ARIA combobox pattern) for locales, currencies and time zones, the generic form
// with such pickers in it, and the result column. A picked value stays free text, so a name the list
// lacks can still be sent and the API says whether it knows it.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { FieldInput, fieldId, Prose } from './form';
import './number-format.css';
import { GenericResult } from './result';
import type { FieldSpec, ToolPageProps } from './types';

/** One suggestion: the value it puts in the field and the words it is also found by. */
export interface PickerOption {
  value: string;
  label?: string;
}

/** How many suggestions the list shows at once; typing narrows the rest. */
const MAX_SHOWN = 50;

/** The words of a text: lower case, split at spaces, `_`, `-` and `/`, so "new york" finds America/New_York. */
const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[\s_\-/()]+/)
    .filter(Boolean);

/**
 * The options matching `query`: each of its words starts a word of the value or the label (or,
 * holding a digit, appears anywhere in them: "+05:30"). A query that is exactly one option's value
 * shows every option, so the list can be browsed from the current value.
 *
 * @example
 *   filterOptions([{ value: 'de_CH', label: 'German (Switzerland)' }], 'ger swi') // [{ value: 'de_CH', ... }]
 */
export function filterOptions(options: PickerOption[], query: string): PickerOption[] {
  if (options.some((o) => o.value === query)) return options;
  const words = wordsOf(query);
  return options.filter((o) => {
    const text = `${o.value} ${o.label ?? ''}`.toLowerCase();
    const own = wordsOf(text);
    return words.every((w) => (/\d/.test(w) ? text.includes(w) : own.some((word) => word.startsWith(w))));
  });
}

export interface SearchPickerProps {
  field: FieldSpec;
  id: string;
  value: string;
  options: PickerOption[];
  onChange(value: string): void;
  error?: string;
  /** What the list holds, for the count under it: "locales", "time zones". */
  noun: string;
}

/** A labelled input whose suggestions open as you type or focus, chosen with the mouse or the arrow keys and Enter. */
export function SearchPicker({ field, id, value, options, onChange, error, noun }: SearchPickerProps) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const matches = open ? filterOptions(options, value) : [];
  const shown = matches.slice(0, MAX_SHOWN);
  const listId = `${id}-list`;
  const hintId = field.description ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const expanded = open && shown.length > 0;

  useEffect(() => {
    if (expanded && active >= 0) document.getElementById(`${listId}-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, expanded]);

  const choose = (option: PickerOption) => {
    onChange(option.value);
    setOpen(false);
    setActive(-1);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (shown.length === 0 ? -1 : (i + step + shown.length) % shown.length));
    } else if (event.key === 'Enter' && expanded && active >= 0 && active < shown.length) {
      event.preventDefault();
      choose(shown[active]);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  return (
    <div class="tool-field tool-field-text picker">
      <span class="tool-label">
        <label for={id}>{field.label}</label>
        {field.required && (
          <span class="tool-required" aria-hidden="true">
            required
          </span>
        )}
      </span>
      <input
        id={id}
        type="text"
        role="combobox"
        value={value}
        spellcheck={false}
        autoComplete="off"
        maxLength={field.schema.maxLength}
        aria-autocomplete="list"
        aria-expanded={expanded ? 'true' : 'false'}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 && active < shown.length ? `${listId}-${active}` : undefined}
        aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
        aria-invalid={error ? 'true' : undefined}
        aria-required={field.required ? 'true' : undefined}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        onInput={(e) => {
          const typed = e.currentTarget.value;
          // A whole name typed needs no list (which would cover what comes next); focus or ArrowDown reopens it.
          setOpen(!options.some((o) => o.value === typed));
          setActive(-1);
          onChange(typed);
        }}
      />
      {/* The list stays in the document (hidden when closed), so aria-controls always names an element. */}
      <div class="picker-popup" hidden={!expanded}>
        <ul id={listId} role="listbox" aria-label="Suggestions">
          {shown.map((option, i) => (
            <li
              key={option.value}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active ? 'true' : 'false'}
              class={i === active ? 'active' : undefined}
              // Before the input's blur, which would close the list under the pointer.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(option)}
            >
              <span class="picker-value">{option.value}</span>
              {option.label && <span class="picker-label">{option.label}</span>}
            </li>
          ))}
        </ul>
        {matches.length > shown.length && (
          <p class="hint">
            {shown.length} of {matches.length} {noun} shown: type to narrow.
          </p>
        )}
      </div>
      {errorId && (
        <p id={errorId} class="tool-field-error">
          {error}
        </p>
      )}
      {hintId && (
        <p id={hintId} class="hint">
          <Prose text={field.description!} />
        </p>
      )}
    </div>
  );
}

/** The suggestions of the fields that get a picker, by field name. */
export type Pickers = Record<string, { options: PickerOption[]; noun: string }>;

/**
 * The generic form (the example's fields first, the others under "More options") with a
 * {@link SearchPicker} for each field of `pickers`; `children` follow the fields inside the form.
 */
export function PickerForm({ props, pickers, children }: { props: ToolPageProps; pickers: Pickers; children?: ComponentChildren }) {
  const { operation, spec, fields, inputs, setInputs, call } = props;
  const fieldErrors = call.error?.fieldErrors ?? {};
  const example = spec.request.example;
  const shown = (f: FieldSpec) => example === null || f.required || Object.hasOwn(example, f.name);
  const isSet = (f: FieldSpec) => inputs[f.name] !== (f.kind === 'checkbox' ? f.defaultValue === true : (f.defaultValue ?? ''));
  const more = fields.filter((f) => !shown(f));
  const input = (f: FieldSpec) => {
    const id = fieldId(operation.id, f.name);
    const onChange = (value: string | boolean) => setInputs((previous) => ({ ...previous, [f.name]: value }));
    const picker = pickers[f.name];
    if (picker === undefined)
      return <FieldInput key={f.name} field={f} id={id} value={inputs[f.name]} error={fieldErrors[f.name]} onChange={onChange} />;
    const value = inputs[f.name];
    return (
      <SearchPicker
        key={f.name}
        field={f}
        id={id}
        value={typeof value === 'string' ? value : ''}
        options={picker.options}
        noun={picker.noun}
        error={fieldErrors[f.name]}
        onChange={onChange}
      />
    );
  };
  return (
    <form
      class="tool-form"
      aria-label={operation.label}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        props.run();
      }}
    >
      {fields.filter(shown).map(input)}
      {more.length > 0 && (
        <details class="tool-more" open={more.some((f) => isSet(f) || fieldErrors[f.name] !== undefined)}>
          <summary>More options</summary>
          {more.map(input)}
        </details>
      )}
      {children}
    </form>
  );
}

/** The result column: the answer's fields, or what it waits for. */
export function ResultSection({ props }: { props: ToolPageProps }) {
  const { call, fields } = props;
  const labels = call.missing.map((name) => fields.find((f) => f.name === name)?.label ?? name);
  let content;
  if (call.outcome && !call.error) content = <GenericResult value={call.outcome.result} />;
  else if (call.error) content = <p class="hint">No result: see the error.</p>;
  else if (labels.length > 0) content = <p class="hint">Fill in {labels.join(', ')} to see the result.</p>;
  else content = <p class="hint">Working…</p>;
  return (
    <section class="tool-result" aria-labelledby="tool-result-heading" aria-busy={call.busy ? 'true' : undefined}>
      <div class="tool-result-head">
        <h2 id="tool-result-heading">Result</h2>
        {call.busy && <span class="hint">Updating…</span>}
      </div>
      {content}
    </section>
  );
}
