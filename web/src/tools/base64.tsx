// The Base64 page: text and Base64 side by side, typing in either updates the other. The side typed
// in picks the operation (Encode: text → Base64, Decode: Base64 → text), so the tab, the curl
// command and a shared link follow it; the other side keeps its text until the answer arrives.
import { useEffect, useRef } from 'preact/hooks';
import { CopyButton } from '../components/copy-button';
import { fieldId } from './form';
import { answers, carryTo, useCarriedInputs } from './hash-parts';
import type { Inputs, ToolPageProps } from './types';
import './base64.css';

/** What both sides show, kept across a change of direction. */
interface Panes {
  text: string;
  /** How the text side is written: `utf8`, or `hex` (bytes that are not UTF-8), as the API reads `data_encoding`. */
  textEncoding: string;
  base64: string;
  urlSafe: boolean;
  padding: boolean;
}

const ENCODINGS: [string, string][] = [
  ['utf8', 'UTF-8 text'],
  ['hex', 'Hex bytes'],
];

/** The encode inputs that turn the text side into Base64 with these options. */
const encodeInputs = (p: Panes): Inputs => ({
  data: p.text,
  data_encoding: p.textEncoding === 'utf8' ? '' : p.textEncoding,
  url_safe: p.urlSafe,
  padding: p.padding,
});

function Pane(props: {
  id: string;
  label: string;
  value: string;
  error?: string;
  stale: boolean;
  hint?: string;
  onInput(value: string): void;
}) {
  const { id, label, value, error, stale, hint } = props;
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="tool-field tool-field-textarea base64-pane">
      <span class="tool-label base64-label">
        <label for={id}>{label}</label>
        <CopyButton label={`Copy ${label.toLowerCase()}`} text={value} />
      </span>
      <textarea
        id={id}
        class={stale ? 'answer-stale' : undefined}
        value={value}
        spellcheck={false}
        aria-describedby={describedBy}
        aria-invalid={error ? 'true' : undefined}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
      {error && (
        <p id={`${id}-error`} class="tool-field-error">
          {error}
        </p>
      )}
      {hint && (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
    </div>
  );
}

export default function Base64Page(props: ToolPageProps) {
  const { call, operation } = props;
  const encoding = operation.id === 'encode';
  const inputs = useCarriedInputs(props);
  const panes = useRef<Panes>({ text: '', textEncoding: 'utf8', base64: '', urlSafe: false, padding: true });
  const shownOperation = useRef(operation.id);
  const switching = useRef(false);
  // A tab picked by hand: both sides keep what they show, and the new direction starts from it.
  const pickedTab = shownOperation.current !== operation.id && !switching.current;

  const outcome = call.outcome !== null && !call.error && answers(props, call.outcome, inputs) ? call.outcome : null;
  const result = outcome?.result as { result: string; result_encoding?: string } | undefined;
  const previous = panes.current;
  const shown: Panes = pickedTab
    ? previous
    : encoding
      ? {
          text: String(inputs.data),
          textEncoding: inputs.data_encoding === '' ? 'utf8' : String(inputs.data_encoding),
          base64: call.error ? '' : (result?.result ?? previous.base64),
          urlSafe: inputs.url_safe === true,
          padding: inputs.padding === true,
        }
      : {
          ...previous,
          text: call.error ? '' : (result?.result ?? previous.text),
          textEncoding: result?.result_encoding ?? previous.textEncoding,
          base64: String(inputs.data),
        };
  panes.current = shown;

  useEffect(() => {
    if (shownOperation.current === operation.id) return;
    if (!switching.current)
      props.setInputs((prev) => ({ ...prev, ...(encoding ? encodeInputs(panes.current) : { data: panes.current.base64 }) }));
    switching.current = false;
    shownOperation.current = operation.id;
  }, [operation.id]);

  /** Send the change through the operation of its direction, opening that tab when it is not the one shown. */
  const change = (direction: 'encode' | 'decode', values: Inputs) => {
    if (operation.id === direction) props.setInputs((prev) => ({ ...prev, ...values }));
    else {
      switching.current = true;
      carryTo(props, direction, values);
    }
  };
  const changeOption = (values: Partial<Panes>) => change('encode', encodeInputs({ ...shown, ...values }));
  const stale = call.busy || (call.outcome !== null && outcome === null && !call.error);
  const errorOf = (direction: string) => (operation.id === direction && !pickedTab ? call.error?.fieldErrors.data : undefined);

  return (
    <div class="base64-page">
      <div class="base64-options" role="group" aria-label="Options">
        <div class="tool-field">
          <label for="base64-text-encoding">Text is</label>
          <select
            id="base64-text-encoding"
            value={shown.textEncoding}
            onChange={(e) => changeOption({ textEncoding: e.currentTarget.value })}
          >
            {(ENCODINGS.some(([value]) => value === shown.textEncoding)
              ? ENCODINGS
              : [...ENCODINGS, [shown.textEncoding, shown.textEncoding]]
            ).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div class="tool-field-checkbox">
          <input
            id="base64-url-safe"
            type="checkbox"
            checked={shown.urlSafe}
            aria-describedby="base64-url-safe-hint"
            onChange={(e) => changeOption({ urlSafe: e.currentTarget.checked })}
          />
          <label for="base64-url-safe">URL-safe</label>
          <p id="base64-url-safe-hint" class="hint">
            Base64URL: <code>-</code> and <code>_</code> for <code>+</code> and <code>/</code>.
          </p>
        </div>
        <div class="tool-field-checkbox">
          <input
            id="base64-padding"
            type="checkbox"
            checked={shown.padding}
            onChange={(e) => changeOption({ padding: e.currentTarget.checked })}
          />
          <label for="base64-padding">
            Padding (<code>=</code>)
          </label>
        </div>
      </div>
      <div class="base64-panes">
        <Pane
          id={fieldId('encode', 'data')}
          label="Text"
          value={shown.text}
          error={errorOf('encode')}
          stale={!encoding && stale}
          hint={
            shown.textEncoding === 'hex' ? (encoding ? 'Read as hex bytes.' : 'The bytes are not UTF-8 text: shown as hex.') : undefined
          }
          onInput={(text) => change('encode', encodeInputs({ ...shown, text }))}
        />
        <Pane
          id={fieldId('decode', 'data')}
          label="Base64"
          value={shown.base64}
          error={errorOf('decode')}
          stale={encoding && stale}
          hint="Decoding takes either alphabet, padding optional, spaces and line breaks ignored."
          onInput={(base64) => change('decode', { data: base64 })}
        />
      </div>
    </div>
  );
}
