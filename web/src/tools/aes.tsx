// The AES-256-GCM page: encrypt with a key, a passphrase or a fresh key, then "Decrypt this" carries
// ciphertext, IV, tag and key (or passphrase and salt) to the decrypt tab; a failed decryption is
// said next to the key or passphrase.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { decryptInputsOf, detectKeySource, type KeySource } from './aes-carry';
import { FieldInput, fieldId } from './form';
import { useCarry, type Carry } from './jwt-carry';
import { ChoiceFieldset, useFieldChoice } from './jwt-choice';
import { ResultValue } from './result';
import type { FieldSpec, ToolPageProps } from './types';
import './aes.css';

const SOURCE_LABELS: Record<KeySource, string> = {
  generate: 'Generate a new key',
  key: 'Key (32 bytes, base64 or hex)',
  passphrase: 'Passphrase (scrypt)',
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const SOURCE_GROUPS = { key: ['key', 'key_encoding'], passphrase: ['passphrase', 'salt', 'salt_encoding', 'kdf_params'], generate: [] };

/** The key source of a form and its radio buttons. */
function useKeySource(props: ToolPageProps, sources: KeySource[]) {
  const choice = useFieldChoice<KeySource>(props, SOURCE_GROUPS, detectKeySource, sources[0]);
  const picker = (
    <ChoiceFieldset
      legend="Key source"
      name={`${props.operation.id}-key-source`}
      options={sources.map((value) => ({ value, label: SOURCE_LABELS[value] }))}
      choice={choice}
    />
  );
  return { source: choice.group, picker };
}

interface PanelParts {
  props: ToolPageProps;
  errors: Record<string, string>;
}

function fieldOf({ props, errors }: PanelParts, name: string) {
  const f: FieldSpec | undefined = props.fields.find((field) => field.name === name);
  if (f === undefined) return null;
  return (
    <FieldInput
      key={name}
      field={f}
      id={fieldId(props.operation.id, name)}
      value={props.inputs[name]}
      error={errors[name]}
      onChange={(value) => props.setInputs((previous) => ({ ...previous, [name]: value }))}
    />
  );
}

function RunForm({ props, onRun, children }: { props: ToolPageProps; onRun(): void; children: ComponentChildren }) {
  const { operation, call } = props;
  return (
    <form
      class="tool-form"
      aria-label={operation.label}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onRun();
      }}
    >
      {children}
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
  );
}

function ResultSection({ busy, children }: { busy: boolean; children: ComponentChildren }) {
  return (
    <section class="tool-result" aria-labelledby="tool-result-heading" aria-busy={busy ? 'true' : undefined}>
      <div class="tool-result-head">
        <h2 id="tool-result-heading">Result</h2>
      </div>
      {children}
    </section>
  );
}

/** `scrypt (log_n 15, r 8, p 1)`, or undefined without a passphrase. */
function kdfText({ kdf, kdf_params }: Record<string, unknown>): string | undefined {
  if (kdf === undefined) return undefined;
  const params = isRecord(kdf_params) ? Object.entries(kdf_params).map(([name, value]) => `${name} ${String(value)}`) : [];
  return params.length > 0 ? `${String(kdf)} (${params.join(', ')})` : String(kdf);
}

/** One field of an answer, with a copy button and a note under it. */
function Row({ label, value, note }: { label: string; value: unknown; note?: string }) {
  if (value === undefined) return null;
  return (
    <div class="tool-field-row">
      <dt>{label}</dt>
      <dd>
        <ResultValue value={value} label={label} />
        {note && <p class="hint aes-note">{note}</p>}
      </dd>
    </div>
  );
}

function EncryptPanel({ props, carry }: { props: ToolPageProps; carry: Carry }) {
  const { call, inputs, run } = props;
  const { source, picker } = useKeySource(props, ['generate', 'key', 'passphrase']);
  const [local, setLocal] = useState<Record<string, string>>({});
  // A local refusal lasts until its field is filled in, and is newer than the last call's answer.
  const pending = Object.fromEntries(Object.entries(local).filter(([name]) => inputs[name] === ''));
  const errors = { ...(call.error?.fieldErrors ?? {}), ...pending };
  const parts = { props, errors };
  const onRun = () => {
    // With neither key nor passphrase the API generates a key: an empty key field must not mean that.
    if (source === 'key' && inputs.key === '') return setLocal({ key: 'Enter the 32-byte key, or choose “Generate a new key”.' });
    if (source === 'passphrase' && inputs.passphrase === '') return setLocal({ passphrase: 'Enter a passphrase.' });
    setLocal({});
    run();
  };
  const answer = call.outcome && isRecord(call.outcome.result) ? call.outcome.result : null;
  const body = call.outcome?.request.body ?? {};
  let content;
  if (answer && !call.error) {
    content = (
      <>
        <dl class="tool-fields tool-result-fields">
          <Row label="Ciphertext" value={answer.ciphertext} />
          <Row label="IV" value={answer.iv} note="12 random bytes, new for every encryption." />
          <Row label="Tag" value={answer.tag} note="16 bytes: decryption checks the ciphertext and the AAD against it." />
          <Row label="Key" value={answer.key} note="Generated for this encryption and not stored anywhere: keep it, or the data is lost." />
          <Row label="Salt" value={answer.salt} />
          <Row label="Key derivation" value={kdfText(answer)} />
          <Row label="Algorithm" value={answer.algorithm} />
        </dl>
        <div class="aes-actions">
          <button type="button" onClick={() => carry.open('decrypt', decryptInputsOf(body, answer))}>
            Decrypt this
          </button>
          <span class="hint">
            Opens Decrypt with the ciphertext, IV, tag and {body.passphrase ? 'passphrase and salt' : 'key'} filled in.
          </span>
        </div>
      </>
    );
  } else if (call.error) content = <p class="hint">No ciphertext: see the error.</p>;
  else content = <p class="hint">Press Run to encrypt.</p>;

  return (
    <div class="tool-columns">
      <RunForm props={props} onRun={onRun}>
        {fieldOf(parts, 'plaintext')}
        {picker}
        {source === 'key' && [fieldOf(parts, 'key'), fieldOf(parts, 'key_encoding')]}
        {source === 'passphrase' && fieldOf(parts, 'passphrase')}
        <details class="tool-more" open={['aad', 'aad_encoding', 'plaintext_encoding', 'kdf_params'].some((n) => errors[n] || inputs[n])}>
          <summary>More options</summary>
          {fieldOf(parts, 'aad')}
          {fieldOf(parts, 'aad_encoding')}
          {fieldOf(parts, 'plaintext_encoding')}
          {source === 'passphrase' && fieldOf(parts, 'kdf_params')}
        </details>
      </RunForm>
      <ResultSection busy={call.busy}>{content}</ResultSection>
    </div>
  );
}

function DecryptPanel({ props }: { props: ToolPageProps }) {
  const { call, inputs } = props;
  const { source, picker } = useKeySource(props, ['key', 'passphrase']);
  const errors = { ...(call.error?.fieldErrors ?? {}) };
  // The API cannot say what was wrong; the secret is the likeliest, so its field carries the error.
  if (call.error?.code === 'decryption_failed' && source === 'passphrase' && errors.key !== undefined) {
    errors.passphrase = errors.key;
    delete errors.key;
  }
  const parts = { props, errors };
  const answer = call.outcome && isRecord(call.outcome.result) ? call.outcome.result : null;
  let content;
  if (answer && !call.error)
    content = (
      <dl class="tool-fields tool-result-fields">
        <Row
          label="Plaintext"
          value={answer.plaintext}
          note={
            answer.plaintext_encoding === 'utf8'
              ? undefined
              : `Shown as ${String(answer.plaintext_encoding)}: the bytes are not UTF-8 text, or you asked for it.`
          }
        />
      </dl>
    );
  else if (call.error?.code === 'decryption_failed')
    content = (
      <p class="hint">
        No plaintext. AES-GCM only tells that the tag does not match: the {source === 'passphrase' ? 'passphrase, salt' : 'key'}, the AAD,
        the IV, the tag or the ciphertext differs from the encryption’s.
      </p>
    );
  else if (call.error) content = <p class="hint">No plaintext: see the error.</p>;
  else content = <p class="hint">Press Run to decrypt.</p>;
  const more = [
    'aad',
    'aad_encoding',
    'ciphertext_encoding',
    'iv_encoding',
    'tag_encoding',
    'plaintext_encoding',
    'salt_encoding',
    'kdf_params',
  ];

  return (
    <div class="tool-columns">
      <RunForm props={props} onRun={props.run}>
        {fieldOf(parts, 'ciphertext')}
        {fieldOf(parts, 'iv')}
        {fieldOf(parts, 'tag')}
        {picker}
        {source === 'key' && [fieldOf(parts, 'key'), fieldOf(parts, 'key_encoding')]}
        {source === 'passphrase' && [fieldOf(parts, 'passphrase'), fieldOf(parts, 'salt')]}
        <details class="tool-more" open={more.some((n) => errors[n] || inputs[n])}>
          <summary>More options</summary>
          {fieldOf(parts, 'aad')}
          {fieldOf(parts, 'aad_encoding')}
          {fieldOf(parts, 'ciphertext_encoding')}
          {fieldOf(parts, 'iv_encoding')}
          {fieldOf(parts, 'tag_encoding')}
          {fieldOf(parts, 'plaintext_encoding')}
          {source === 'passphrase' && [fieldOf(parts, 'salt_encoding'), fieldOf(parts, 'kdf_params')]}
        </details>
      </RunForm>
      <ResultSection busy={call.busy}>{content}</ResultSection>
    </div>
  );
}

export default function AesPage(props: ToolPageProps) {
  const carry = useCarry(props);
  return props.operation.id === 'decrypt' ? <DecryptPanel props={props} /> : <EncryptPanel props={props} carry={carry} />;
}
