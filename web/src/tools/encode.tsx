// The URL / HTML entities / hex / Ascii85 page: a format and a direction picked as radio buttons,
// the input, and the result live beside it; "Use as input" turns the result around to go back.
import { CopyButton } from '../components/copy-button';
import { fieldId } from './form';
import { EncodingField, Field, ResultSection, textOf, ToolForm, useShownOutcome } from './hash-parts';
import type { ToolPageProps } from './types';
import './encode.css';

const FORMAT_NAMES: Record<string, string> = { url: 'URL (percent-encoding)', html: 'HTML entities', hex: 'Hex', ascii85: 'Ascii85' };
const ACTION_NAMES: Record<string, string> = { encode: 'Encode', decode: 'Decode' };

/** One enum field of the request as a group of radio buttons, its error under the group. */
function Choice({ props, name, legend, names }: { props: ToolPageProps; name: string; legend: string; names: Record<string, string> }) {
  const field = props.fields.find((f) => f.name === name);
  if (field === undefined) return null;
  const id = fieldId(props.operation.id, name);
  const error = props.call.error?.fieldErrors[name];
  const value = textOf(props, name);
  return (
    <fieldset class="encode-choice" aria-describedby={error ? `${id}-error` : undefined} aria-invalid={error ? 'true' : undefined}>
      <legend>{legend}</legend>
      {field.choices.map((choice) => (
        <label key={choice} class="encode-option">
          <input
            type="radio"
            name={id}
            value={choice}
            checked={value === choice}
            onChange={() => props.setInputs((previous) => ({ ...previous, [name]: choice }))}
          />
          {names[choice] ?? choice}
        </label>
      ))}
      {error && (
        <p id={`${id}-error`} class="tool-field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

export default function EncodePage(props: ToolPageProps) {
  const { call, inputs } = props;
  const { outcome, fresh } = useShownOutcome(props);
  const result = outcome?.result as { result: string; format: string; action: string; result_encoding: string } | undefined;
  let content;
  if (call.error) content = <p class="hint">No result: see the error.</p>;
  else if (result === undefined) content = <p class="hint">Working…</p>;
  else
    content = (
      <div class={fresh ? undefined : 'answer-stale'}>
        <pre class="tool-value encode-result" tabIndex={0} role="region" aria-label="Output">
          {result.result}
        </pre>
        {result.result_encoding === 'hex' && <p class="hint">The decoded bytes are not UTF-8 text: shown as hex.</p>}
        <div class="answer-actions">
          <CopyButton label="Copy output" text={result.result} />
          <button
            type="button"
            class="secondary"
            onClick={() =>
              props.setInputs((previous) => ({
                ...previous,
                data: result.result,
                data_encoding: result.result_encoding === 'hex' ? 'hex' : '',
                action: result.action === 'encode' ? 'decode' : 'encode',
              }))
            }
          >
            Use as input ({result.action === 'encode' ? 'decode' : 'encode'} it)
          </button>
        </div>
      </div>
    );
  return (
    <div class="tool-columns">
      <ToolForm props={props}>
        <div class="encode-choices">
          <Choice props={props} name="format" legend="Format" names={FORMAT_NAMES} />
          <Choice props={props} name="action" legend="Direction" names={ACTION_NAMES} />
        </div>
        <Field props={props} name="data" />
        <EncodingField props={props} name="data_encoding" inputs={inputs} />
      </ToolForm>
      <ResultSection busy={call.busy}>{content}</ResultSection>
    </div>
  );
}
