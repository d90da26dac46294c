// The key pair tab (generate-keypair), on the keys page and the JWT page: type, size or curve and
// format, a Run button, and each key with Copy and Download buttons.
import type { ComponentChildren } from 'preact';
import { CopyButton } from '../components/copy-button';
import { saveBytes } from '../request/captured';
import { FieldInput, fieldId } from './form';
import { keyText } from './jwt-claims';
import type { FieldSpec, ToolPageProps } from './types';
import './keys.css';

/** The key pair an answer holds, or null when it is something else. */
export interface KeyPair {
  public_key: unknown;
  private_key: unknown;
  type: string;
  curve?: string;
  modulus_length?: number;
}

export const keyPairOf = (value: unknown): KeyPair | null =>
  typeof value === 'object' && value !== null && 'public_key' in value && 'private_key' in value ? (value as KeyPair) : null;

const TYPE_NAMES: Record<string, string> = { rsa: 'RSA', ec: 'EC', ed25519: 'Ed25519' };

/** "RSA 2048-bit", "EC P-256", "Ed25519". */
function pairName(pair: KeyPair): string {
  const type = TYPE_NAMES[pair.type] ?? pair.type;
  if (pair.modulus_length !== undefined) return `${type} ${pair.modulus_length}-bit`;
  if (pair.curve !== undefined && pair.type !== 'ed25519') return `${type} ${pair.curve}`;
  return type;
}

/** `rsa-2048-public.pem`, `ec-p-256-private.jwk.json`. */
function fileName(pair: KeyPair, half: 'public' | 'private'): string {
  const size = pair.modulus_length ?? (pair.type === 'ec' ? pair.curve?.toLowerCase() : undefined);
  const stem = [pair.type, size, half].filter(Boolean).join('-');
  return typeof pair[`${half}_key`] === 'string' ? `${stem}.pem` : `${stem}.jwk.json`;
}

function KeyOutput({ pair, half }: { pair: KeyPair; half: 'public' | 'private' }) {
  const title = half === 'public' ? 'Public key' : 'Private key';
  const text = keyText(pair[`${half}_key`]);
  const headingId = `keypair-${half}-heading`;
  return (
    <section class="keys-output" aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      <pre class="tool-code keys-pem" tabIndex={0}>
        {text}
      </pre>
      <div class="keys-actions">
        <CopyButton label={`Copy ${title.toLowerCase()}`} text={text} />
        <button type="button" class="secondary" onClick={() => saveBytes(new TextEncoder().encode(text), fileName(pair, half))}>
          Download {title.toLowerCase()}
        </button>
      </div>
    </section>
  );
}

/** A generated key pair: what it is, and both keys. */
export function KeyPairResult({ pair, children }: { pair: KeyPair; children?: ComponentChildren }) {
  const pem = typeof pair.public_key === 'string';
  return (
    <div class="keys-pair">
      <p class="keys-summary">
        {pairName(pair)} key pair, {pem ? 'PEM: SPKI public key, PKCS#8 private key' : 'JWK'}.
      </p>
      <KeyOutput pair={pair} half="public" />
      <KeyOutput pair={pair} half="private" />
      {children}
      <p class="hint">The service keeps neither key: save the private key now, and share only the public one.</p>
    </div>
  );
}

/**
 * The key pair form and its answer; `actions` receives the pair to offer more (the JWT page's
 * "Sign with this key").
 */
export function KeyPairPanel(props: ToolPageProps & { actions?: (pair: KeyPair) => ComponentChildren }) {
  const { operation, fields, inputs, setInputs, run, call, actions } = props;
  const errors = call.error?.fieldErrors ?? {};
  const field = (name: string) => fields.find((f) => f.name === name);
  const input = (f: FieldSpec | undefined, onChange?: (value: string) => void) =>
    f && (
      <FieldInput
        field={f}
        id={fieldId(operation.id, f.name)}
        value={inputs[f.name]}
        error={errors[f.name]}
        onChange={(value) => (onChange ? onChange(String(value)) : setInputs((previous) => ({ ...previous, [f.name]: value })))}
      />
    );
  const type = String(inputs.type);
  // modulus_length applies to RSA only and curve to EC only: the API refuses either elsewhere.
  const selectType = (value: string) =>
    setInputs((previous) => ({
      ...previous,
      type: value,
      modulus_length: value === 'rsa' ? previous.modulus_length : '',
      curve: value === 'ec' ? previous.curve : '',
    }));
  const pair = call.outcome ? keyPairOf(call.outcome.result) : null;

  let content;
  if (pair && !call.error) content = <KeyPairResult pair={pair}>{actions?.(pair)}</KeyPairResult>;
  else if (call.error) content = <p class="hint">No key pair: see the error.</p>;
  else if (call.busy) content = <p class="hint">Generating…</p>;
  else content = <p class="hint">Press Run to generate a key pair.</p>;

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
        {input(field('type'), selectType)}
        {type === 'rsa' && input(field('modulus_length'))}
        {type === 'ec' && input(field('curve'))}
        {input(field('format'))}
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
