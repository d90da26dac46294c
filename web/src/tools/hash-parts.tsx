// Pieces the hash, HMAC, Base64, encode, password and TOTP pages share: a schema field wired to the
// page's inputs and errors, the result region, the Run button with its progress, carrying inputs to
// another tab, and telling whether the answer shown is the one for the inputs as they stand.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { FieldInput, fieldId } from './form';
import { prepareRequest } from './operations';
import type { Inputs, Outcome, ToolPageProps } from './types';
import './hash-parts.css';

/** The field's schema default as the form holds it ('' when it has none). */
export function defaultOf(props: ToolPageProps, name: string): string {
  const value = props.fields.find((f) => f.name === name)?.defaultValue;
  return typeof value === 'string' ? value : '';
}

/** The text of input `name`, or the field's default when it is empty. */
export function textOf(props: ToolPageProps, name: string, inputs: Inputs = props.inputs): string {
  const value = inputs[name];
  return typeof value === 'string' && value !== '' ? value : defaultOf(props, name);
}

export interface FieldProps {
  props: ToolPageProps;
  name: string;
  /** The inputs to show, when they differ from the page's (inputs on their way from another tab). */
  inputs?: Inputs;
  /** The inputs after the value changes, when more changes with it (e.g. clear the options of another algorithm). */
  onChange?(value: string | boolean, previous: Inputs): Inputs;
  /** Where the change goes, when the page holds it back for a moment (default: the page's setInputs). */
  setInputs?: ToolPageProps['setInputs'];
}

/** One request field of the selected operation, as the generic form shows it, with the API's error next to it. */
export function Field({ props, name, inputs = props.inputs, onChange, setInputs = props.setInputs }: FieldProps) {
  const field = props.fields.find((f) => f.name === name);
  if (field === undefined) return null;
  return (
    <FieldInput
      field={field}
      id={fieldId(props.operation.id, name)}
      value={inputs[name] ?? ''}
      error={props.call.error?.fieldErrors[name]}
      onChange={(value) => setInputs((previous) => (onChange ? onChange(value, previous) : { ...previous, [name]: value }))}
    />
  );
}

/** How the byte encodings of CONTRACT §4 read in a select. */
const ENCODING_NAMES: Record<string, string> = { utf8: 'UTF-8 text', hex: 'Hex', base64: 'Base64', base64url: 'Base64URL' };

/**
 * A `<field>_encoding` select (how the bytes of a field are written), its empty value shown as
 * UTF-8 text, which is what the API reads when the field is left out.
 */
export function EncodingField({ props, name, inputs = props.inputs, onChange, setInputs = props.setInputs }: FieldProps) {
  const field = props.fields.find((f) => f.name === name);
  if (field === undefined) return null;
  const id = fieldId(props.operation.id, name);
  const error = props.call.error?.fieldErrors[name];
  const value = inputs[name] === '' || inputs[name] === undefined ? 'utf8' : String(inputs[name]);
  return (
    <div class="tool-field tool-field-select">
      <span class="tool-label">
        <label for={id}>{field.label}</label>
      </span>
      <select
        id={id}
        value={value}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => {
          const next = e.currentTarget.value === 'utf8' ? '' : e.currentTarget.value;
          setInputs((previous) => (onChange ? onChange(next, previous) : { ...previous, [name]: next }));
        }}
      >
        {(field.choices.includes('utf8') ? field.choices : ['utf8', ...field.choices]).map((choice) => (
          <option key={choice} value={choice}>
            {ENCODING_NAMES[choice] ?? choice}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} class="tool-field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** The operation's form: submitting it (Enter, or the Run button) sends the call now. */
export function ToolForm({ props, children }: { props: ToolPageProps; children: ComponentChildren }) {
  return (
    <form
      class="tool-form"
      aria-label={props.operation.label}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        props.run();
      }}
    >
      {children}
    </form>
  );
}

/** The answer's region, named "Result", busy while a call runs. */
export function ResultSection({ busy, children }: { busy: boolean; children: ComponentChildren }) {
  return (
    <section class="tool-result" aria-labelledby="tool-result-heading" aria-busy={busy ? 'true' : undefined}>
      <div class="tool-result-head">
        <h2 id="tool-result-heading">Result</h2>
        {busy && <span class="hint">Updating…</span>}
      </div>
      {children}
    </section>
  );
}

/** The Run button of a costly operation, disabled with a progress bar while its call runs. */
export function RunButton({ busy, doing }: { busy: boolean; doing: string }) {
  return (
    <div class="tool-run">
      <button type="submit" disabled={busy}>
        Run
      </button>
      {busy && (
        <span class="tool-progress" role="status">
          <progress aria-label="Running" /> {doing}
        </span>
      )}
    </div>
  );
}

/** Inputs on their way to another tab of a page, by tool slug: applied once that tab shows. */
const carried = new Map<string, { operation: string; values: Inputs }>();

/**
 * Open the tab `operation` with `values` set in its inputs, its other inputs kept.
 *
 * @example
 *   carryTo(props, 'verify', { hash: '$2b$12$...' })
 */
export function carryTo(props: ToolPageProps, operation: string, values: Inputs): void {
  carried.set(props.tool.slug, { operation, values });
  props.selectOperation(operation);
}

/**
 * Apply the inputs carried to the selected tab (once it shows, since the page sets the selected
 * tab's inputs); returns the selected tab's inputs with them, for the render before they apply.
 */
export function useCarriedInputs(props: ToolPageProps): Inputs {
  const waiting = carried.get(props.tool.slug);
  const values = waiting !== undefined && waiting.operation === props.operation.id ? waiting.values : null;
  useEffect(() => {
    if (values === null) return;
    carried.delete(props.tool.slug);
    props.setInputs((previous) => ({ ...previous, ...values }));
  }, [props.operation.id]);
  return values === null ? props.inputs : { ...props.inputs, ...values };
}

/** Whether `outcome` answers the request `inputs` make now. */
export function answers(props: ToolPageProps, outcome: Outcome, inputs: Inputs = props.inputs): boolean {
  const request = prepareRequest(props.spec, props.fields, inputs).request;
  return request !== null && JSON.stringify(request) === JSON.stringify(outcome.request);
}

/**
 * The answer to show: the last one if it answers the current inputs, else the last one that did
 * while a newer call is on its way (never an answer to inputs of before a tab was opened with
 * carried inputs). `fresh` is false for the latter.
 */
export function useShownOutcome(props: ToolPageProps, inputs: Inputs = props.inputs): { outcome: Outcome | null; fresh: boolean } {
  const lastFresh = useRef<Record<string, Outcome>>({});
  const outcome = props.call.outcome;
  const id = props.operation.id;
  if (outcome !== null && answers(props, outcome, inputs)) {
    lastFresh.current[id] = outcome;
    return { outcome, fresh: true };
  }
  return { outcome: lastFresh.current[id] ?? null, fresh: false };
}
