// The keys page: random keys of the schema's types (each one copyable) and key pairs (PEM or JWK,
// each key copyable and downloadable).
import { CopyButton } from '../components/copy-button';
import { FieldInput, fieldId } from './form';
import { KeyPairPanel } from './keys-keypair';
import type { ToolPageProps } from './types';
import './keys.css';

/** What each type of `generate-key` makes, for the line under the type picker. */
const TYPE_NOTES: Record<string, { name: string; note: string; unit: string }> = {
  api_key: { name: 'API key', note: 'A prefix (dk_ unless you set one) and base62 characters.', unit: 'characters' },
  uuid: { name: 'UUID v4', note: 'RFC 9562 version 4: 122 random bits; the length is fixed.', unit: 'characters' },
  nanoid: { name: 'nanoid', note: 'URL-safe characters (A-Z a-z 0-9 _ -), 21 by default.', unit: 'characters' },
  secret: { name: 'secret token', note: 'Random bytes as base64url, 32 by default.', unit: 'random bytes' },
  hex: { name: 'hex key', note: 'Random bytes as lowercase hex, 32 by default.', unit: 'random bytes' },
};

interface KeysAnswer {
  keys: string[];
  type: string;
  length: number;
  entropy_bits: number;
}

const keysOf = (value: unknown): KeysAnswer | null =>
  typeof value === 'object' && value !== null && Array.isArray((value as KeysAnswer).keys) ? (value as KeysAnswer) : null;

function RandomKeys({ answer }: { answer: KeysAnswer }) {
  const about = TYPE_NOTES[answer.type];
  const name = about?.name ?? answer.type;
  const count = answer.keys.length;
  return (
    <>
      <p class="keys-summary">
        {count} {count === 1 ? name : `${name}s`}, {answer.entropy_bits} bits of randomness each, length {answer.length} {about?.unit ?? ''}
        .
      </p>
      <ol class="keys-list" aria-label="Keys">
        {answer.keys.map((key, i) => (
          <li key={i}>
            <code class="tool-value">{key}</code>
            <CopyButton label={count === 1 ? 'Copy key' : `Copy key ${i + 1}`} text={key} />
          </li>
        ))}
      </ol>
      {count > 1 && <CopyButton label="Copy all keys" text={answer.keys.join('\n')} />}
    </>
  );
}

function RandomPanel({ operation, fields, inputs, setInputs, run, call }: ToolPageProps) {
  const errors = call.error?.fieldErrors ?? {};
  const answer = call.outcome ? keysOf(call.outcome.result) : null;
  const note = TYPE_NOTES[String(inputs.type)]?.note;
  let content;
  if (answer && !call.error) content = <RandomKeys answer={answer} />;
  else if (call.error) content = <p class="hint">No keys: see the error.</p>;
  else content = <p class="hint">Generating…</p>;
  return (
    <div class="tool-columns">
      <form
        class="tool-form"
        aria-label={operation.label}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
      >
        {fields.map((f) => (
          <div key={f.name}>
            <FieldInput
              field={f}
              id={fieldId(operation.id, f.name)}
              value={inputs[f.name]}
              error={errors[f.name]}
              onChange={(value) => setInputs((previous) => ({ ...previous, [f.name]: value }))}
            />
            {f.name === 'type' && note && <p class="hint keys-type-note">{note}</p>}
          </div>
        ))}
        <div class="tool-run">
          <button type="submit" disabled={call.busy}>
            Generate again
          </button>
        </div>
      </form>
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

export default function KeysPage(props: ToolPageProps) {
  return props.operation.id === 'keypair' ? <KeyPairPanel {...props} /> : <RandomPanel {...props} />;
}
