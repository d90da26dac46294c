// The form generated from an operation's request schema: a labelled input per field (text, select,
// checkbox, number, JSON editor), its description as a hint and the API's error next to it.
import { useState } from 'preact/hooks';
import { CodeEditor } from '../components/code-editor';
import type { FieldSpec, ToolPageProps } from './types';

/** Text whose `backtick` spans are code, built as elements (the text may come from a shared link). */
export function Prose({ text }: { text: string }) {
  return <>{text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>;
}

export interface FieldInputProps {
  field: FieldSpec;
  value: string | boolean;
  onChange(value: string | boolean): void;
  /** The id of the input, for its label; hint and error ids derive from it. */
  id: string;
  error?: string;
}

/** One field: label, input, hint and error, wired with `for`, `aria-describedby` and `aria-invalid`. */
export function FieldInput({ field, value, onChange, id, error: given }: FieldInputProps) {
  // Text a number input cannot read (`1e400`, `1..2`) reaches the page only as an empty value: say so here.
  const [unreadable, setUnreadable] = useState(false);
  const error = given ?? (unreadable ? `${field.label} is not a number (or too large for one).` : undefined);
  const hintId = field.description ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  const invalid = error ? 'true' : undefined;
  const required = field.required ? 'true' : undefined;
  const text = typeof value === 'string' ? value : '';
  // The marker stays out of the label, so the field's name is just its label (aria-required says the rest).
  const label = (
    <span class="tool-label">
      <label for={id}>{field.label}</label>
      {field.required && (
        <span class="tool-required" aria-hidden="true">
          required
        </span>
      )}
    </span>
  );
  let control;
  switch (field.kind) {
    case 'checkbox':
      return (
        <div class="tool-field tool-field-checkbox">
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(e) => onChange(e.currentTarget.checked)}
          />
          {label}
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
    case 'select':
      control = (
        <select
          id={id}
          value={text}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          aria-required={required}
          onChange={(e) => onChange(e.currentTarget.value)}
        >
          {!field.required && field.defaultValue === undefined && <option value="">(not set)</option>}
          {field.choices.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      );
      break;
    case 'number':
    case 'integer':
      control = (
        <input
          id={id}
          type="number"
          inputMode={field.kind === 'integer' ? 'numeric' : 'decimal'}
          step={field.kind === 'integer' ? 1 : 'any'}
          min={field.schema.minimum}
          max={field.schema.maximum}
          value={text}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          aria-required={required}
          onInput={(e) => {
            setUnreadable(e.currentTarget.validity.badInput);
            onChange(e.currentTarget.value);
          }}
        />
      );
      break;
    case 'code':
      control = (
        <CodeEditor
          id={id}
          label={field.label}
          value={text}
          onInput={onChange}
          language="json"
          describedBy={describedBy}
          invalid={!!error}
          required={field.required}
        />
      );
      break;
    case 'textarea':
      control = (
        <textarea
          id={id}
          value={text}
          spellcheck={false}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          aria-required={required}
          onInput={(e) => onChange(e.currentTarget.value)}
        />
      );
      break;
    case 'text':
      control = (
        <input
          id={id}
          type="text"
          value={text}
          spellcheck={false}
          autoComplete="off"
          maxLength={field.schema.maxLength}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          aria-required={required}
          onInput={(e) => onChange(e.currentTarget.value)}
        />
      );
      break;
  }
  return (
    <div class={`tool-field tool-field-${field.kind}`}>
      {label}
      {control}
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

/** The id of a field's input on the page: unique across the page's operations. */
export const fieldId = (operation: string, field: string) => `tool-${operation}-${field}`;

/**
 * The generic form of the selected operation: required fields and those of the operation's example
 * (every field when it has none) first, the others under "More options" (open when one of them is set or refused); a "Run" button
 * for costly operations.
 */
export function GenericForm({ operation, spec, fields, inputs, setInputs, run, call }: ToolPageProps) {
  const fieldErrors = call.error?.fieldErrors ?? {};
  const example = spec.request.example;
  const shown = (f: FieldSpec) => example === null || f.required || Object.hasOwn(example, f.name);
  const main = fields.filter(shown);
  const more = fields.filter((f) => !shown(f));
  const isSet = (f: FieldSpec) => inputs[f.name] !== (f.kind === 'checkbox' ? f.defaultValue === true : (f.defaultValue ?? ''));
  const input = (f: FieldSpec) => (
    <FieldInput
      key={f.name}
      field={f}
      id={fieldId(operation.id, f.name)}
      value={inputs[f.name]}
      error={fieldErrors[f.name]}
      onChange={(value) => setInputs((previous) => ({ ...previous, [f.name]: value }))}
    />
  );
  return (
    <form
      class="tool-form"
      aria-label={operation.label}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        run();
      }}
    >
      {main.map(input)}
      {more.length > 0 && (
        <details class="tool-more" open={more.some((f) => isSet(f) || fieldErrors[f.name] !== undefined)}>
          <summary>More options</summary>
          {more.map(input)}
        </details>
      )}
      {operation.mode === 'run' && (
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
      )}
    </form>
  );
}
