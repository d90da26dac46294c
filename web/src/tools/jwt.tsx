// The JWT page, jwt.io's layout: the token coloured by part beside its decoded header and payload
// (times in words), verification with a secret, PEM or JWK, signing with every algorithm the API
// takes, and key pairs generated here that sign and verify at once.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { CopyButton } from '../components/copy-button';
import { FieldInput, fieldId } from './form';
import { useCarry, type Carry } from './jwt-carry';
import { ChoiceFieldset, useFieldChoice } from './jwt-choice';
import { algorithmForKeyPair, isHmac, keyPairInputsFor, keyText, REASON_WORDS } from './jwt-claims';
import { DecodedToken, TokenBox, TokenLegend, TokenView } from './jwt-token';
import { KeyPairPanel, keyPairOf, type KeyPair } from './keys-keypair';
import type { CallError, FieldSpec, Inputs, ToolPageProps } from './types';
import './jwt.css';

/** A key pair made on this page: its private key signs, its public key verifies. */
interface PagePair {
  privateKey: string;
  publicKey: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The input of one field of the selected operation, by name (nothing when the schema lacks it). */
function Field({ props, name, errors }: { props: ToolPageProps; name: string; errors: Record<string, string> }) {
  const f: FieldSpec | undefined = props.fields.find((field) => field.name === name);
  if (f === undefined) return null;
  return (
    <FieldInput
      field={f}
      id={fieldId(props.operation.id, name)}
      value={props.inputs[name]}
      error={errors[name]}
      onChange={(value) => props.setInputs((previous) => ({ ...previous, [name]: value }))}
    />
  );
}

function Token({ props, errors }: { props: ToolPageProps; errors: Record<string, string> }) {
  const f = props.fields.find((field) => field.name === 'token')!;
  return (
    <>
      <TokenBox
        field={f}
        id={fieldId(props.operation.id, 'token')}
        value={String(props.inputs.token)}
        error={errors.token}
        hint={
          props.operation.id === 'decode'
            ? 'Paste a JWT: spaces and line breaks are dropped. Decoding does not check the signature: Verify does.'
            : 'Paste a JWT: spaces and line breaks are dropped.'
        }
        onChange={(token) => props.setInputs((previous) => ({ ...previous, token }))}
      />
      <TokenLegend />
    </>
  );
}

function Panel({ props, form, children }: { props: ToolPageProps; form: ComponentChildren; children: ComponentChildren }) {
  const { operation, call, run } = props;
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
        {form}
      </form>
      <section class="tool-result" aria-labelledby="tool-result-heading" aria-busy={call.busy ? 'true' : undefined}>
        <div class="tool-result-head">
          <h2 id="tool-result-heading">Result</h2>
          {call.busy && <span class="hint">Updating…</span>}
        </div>
        {children}
      </section>
    </div>
  );
}

/** What a live panel shows without an answer to show. */
function waiting(props: ToolPageProps, what: string) {
  const { call, fields } = props;
  if (call.error) return <p class="hint">No {what}: see the error.</p>;
  const labels = call.missing.map((name) => fields.find((f) => f.name === name)?.label ?? name);
  if (labels.length > 0)
    return (
      <p class="hint">
        Fill in {labels.join(', ')} to see the {what}.
      </p>
    );
  return <p class="hint">Working…</p>;
}

function DecodePanel({ props, carry }: { props: ToolPageProps; carry: Carry }) {
  const { call } = props;
  const errors = call.error?.fieldErrors ?? {};
  const answer = call.outcome && isRecord(call.outcome.result) ? call.outcome.result : null;
  const token = String(call.outcome?.request.body?.token ?? '');
  return (
    <Panel props={props} form={<Token props={props} errors={errors} />}>
      {answer && !call.error ? (
        <>
          <DecodedToken header={answer.header} payload={answer.payload} signature={String(answer.signature)} />
          <div class="jwt-actions">
            <button type="button" onClick={() => carry.open('verify', { token, algorithms: '' })}>
              Verify this token
            </button>
            <span class="hint">Opens Verify with this token, to check its signature with a secret or key.</span>
          </div>
        </>
      ) : (
        waiting(props, 'decoded token')
      )}
    </Panel>
  );
}

const ALGORITHM_LIST = (text: string | boolean): string[] => {
  try {
    const list: unknown = JSON.parse(String(text));
    return Array.isArray(list) ? list.map(String) : [];
  } catch {
    return [];
  }
};

/** The allowed algorithms as toggles; none ticked lets the key's family decide. */
function AlgorithmToggles({ props, errors }: { props: ToolPageProps; errors: Record<string, string> }) {
  const f = props.fields.find((field) => field.name === 'algorithms');
  if (f === undefined) return null;
  const all = (f.schema.items?.enum ?? []).map(String);
  const ticked = ALGORITHM_LIST(props.inputs.algorithms);
  const id = fieldId(props.operation.id, 'algorithms');
  const toggle = (algorithm: string, on: boolean) => {
    const next = all.filter((a) => (a === algorithm ? on : ticked.includes(a)));
    props.setInputs((previous) => ({ ...previous, algorithms: next.length > 0 ? JSON.stringify(next) : '' }));
  };
  return (
    <fieldset class="jwt-algorithms" aria-describedby={`${id}-hint${errors.algorithms ? ` ${id}-error` : ''}`}>
      <legend>Allowed algorithms</legend>
      <div class="jwt-algorithm-list">
        {all.map((algorithm) => (
          <label key={algorithm} class="jwt-algorithm">
            <input type="checkbox" checked={ticked.includes(algorithm)} onChange={(e) => toggle(algorithm, e.currentTarget.checked)} />
            {algorithm}
          </label>
        ))}
      </div>
      {errors.algorithms && (
        <p id={`${id}-error`} class="tool-field-error">
          {errors.algorithms}
        </p>
      )}
      <p id={`${id}-hint`} class="hint">
        None ticked: any algorithm of the key’s family. <code>alg: none</code> is never valid.
      </p>
    </fieldset>
  );
}

type VerifyKey = 'secret' | 'public';
const VERIFY_KEYS = { secret: ['secret', 'secret_encoding'], public: ['public_key'] };
const detectVerifyKey = (inputs: Inputs): VerifyKey | null => (inputs.public_key ? 'public' : inputs.secret ? 'secret' : null);

function Verdict({ answer }: { answer: Record<string, unknown> }) {
  if (answer.valid === true)
    return (
      <div class="jwt-verdict jwt-verdict-valid">
        <p>
          <strong>Signature verified</strong>
        </p>
        <p>The signature matches this key, and the times and the claims you asked for check out.</p>
      </div>
    );
  const reason = String(answer.reason ?? '');
  return (
    <div class="jwt-verdict jwt-verdict-invalid">
      <p>
        <strong>Invalid token</strong>: {REASON_WORDS[reason] ?? reason} (<code>{reason}</code>).
      </p>
      <p>{String(answer.error ?? '')}</p>
    </div>
  );
}

function VerifyPanel({ props }: { props: ToolPageProps }) {
  const { call, inputs } = props;
  const choice = useFieldChoice<VerifyKey>(props, VERIFY_KEYS, detectVerifyKey, 'secret');
  const errors = { ...(call.error?.fieldErrors ?? {}) };
  // With neither key given the API names `secret`: the missing key is the one the form shows.
  if (errors.secret !== undefined && inputs.secret === '' && inputs.public_key === '') {
    delete errors.secret;
    if (choice.group === 'public') errors.public_key = 'Paste the public key (PEM or JWK) to verify the token with.';
    else errors.secret = 'Enter the secret the token was signed with.';
  }
  const sent = call.outcome?.request.body ?? {};
  // A verdict on another token or key must not stand while the new one is checked.
  const stale = call.busy && (['token', 'secret', 'public_key'] as const).some((name) => (sent[name] ?? '') !== inputs[name]);
  const answer = call.outcome && isRecord(call.outcome.result) && !stale ? call.outcome.result : null;
  const more = ['issuer', 'subject', 'audience', 'clock_tolerance'];
  const form = (
    <>
      <Token props={props} errors={errors} />
      <ChoiceFieldset
        legend="Verify with"
        name="jwt-verify-key"
        options={[
          { value: 'secret', label: 'Secret (HS256, HS384, HS512)' },
          { value: 'public', label: 'Public key: PEM or JWK (RS, PS, ES, EdDSA)' },
        ]}
        choice={choice}
      />
      {choice.group === 'secret' ? (
        <>
          <Field props={props} name="secret" errors={errors} />
          <Field props={props} name="secret_encoding" errors={errors} />
        </>
      ) : (
        <Field props={props} name="public_key" errors={errors} />
      )}
      <AlgorithmToggles props={props} errors={errors} />
      <details class="tool-more" open={more.some((n) => errors[n] || (inputs[n] !== '' && inputs[n] !== '0'))}>
        <summary>Expected claims</summary>
        {more.map((name) => (
          <Field key={name} props={props} name={name} errors={errors} />
        ))}
      </details>
    </>
  );
  return (
    <Panel props={props} form={form}>
      {answer && !call.error ? (
        <>
          <Verdict answer={answer} />
          {answer.valid === true && <DecodedToken header={answer.header} payload={answer.payload} />}
        </>
      ) : (
        waiting(props, 'verification')
      )}
    </Panel>
  );
}

/** "Generate key pair": a key pair for the selected algorithm, its private key here and its public key in Verify. */
function KeyPairButton({ props, carry, onPair }: { props: ToolPageProps; carry: Carry; onPair(pair: PagePair): void }) {
  const [state, setState] = useState<{ busy: boolean; said: string; error: CallError | null }>({ busy: false, said: '', error: null });
  const algorithm = String(props.inputs.algorithm);
  const generate = () => {
    setState({ busy: true, said: '', error: null });
    props.send('keypair', keyPairInputsFor(algorithm)).then(
      (outcome) => {
        const pair = keyPairOf(outcome.result);
        if (pair === null) return setState({ busy: false, said: '', error: null });
        const made = { privateKey: keyText(pair.private_key), publicKey: keyText(pair.public_key) };
        onPair(made);
        props.setInputs((previous) => ({ ...previous, private_key: made.privateKey }));
        carry.fill('verify', { public_key: made.publicKey, secret: '', secret_encoding: '' });
        setState({ busy: false, said: 'New key pair: its private key is above, its public key is in Verify.', error: null });
      },
      (error: CallError) => setState({ busy: false, said: '', error }),
    );
  };
  return (
    <div class="jwt-keypair">
      <button type="button" class="secondary" disabled={state.busy} onClick={generate}>
        Generate key pair
      </button>
      <span class="hint" role="status">
        {state.busy ? 'Generating…' : state.said}
      </span>
      {state.error && (
        <p class="tool-field-error" role="alert">
          {state.error.detail}
        </p>
      )}
    </div>
  );
}

function GeneratePanel({
  props,
  carry,
  pair,
  onPair,
}: {
  props: ToolPageProps;
  carry: Carry;
  pair: PagePair | null;
  onPair(pair: PagePair): void;
}) {
  const { call, inputs, setInputs } = props;
  const errors = call.error?.fieldErrors ?? {};
  const [stash, setStash] = useState<Inputs>({});
  const algorithm = String(inputs.algorithm);
  // HS* sign with a secret, the others with a private key: the API refuses the other field, so it waits aside.
  const selectAlgorithm = (next: string) => {
    if (isHmac(next) === isHmac(algorithm)) return setInputs((previous) => ({ ...previous, algorithm: next }));
    const [away, back] = isHmac(next) ? (['private_key', 'secret'] as const) : (['secret', 'private_key'] as const);
    setStash((kept) => ({ ...kept, [away]: inputs[away] }));
    setInputs((previous) => ({ ...previous, algorithm: next, [away]: '', [back]: stash[back] ?? previous[back] }));
  };
  const algorithmField = props.fields.find((f) => f.name === 'algorithm')!;
  const answer = call.outcome && isRecord(call.outcome.result) ? call.outcome.result : null;
  const body = call.outcome?.request.body ?? {};
  const verifyThis = (token: string) => {
    const signedWith = String(isRecord(answer?.header) ? answer.header.alg : algorithm);
    const privateKey = String(body.private_key ?? '');
    // A private key given as public_key is reduced to its public half by the API.
    const key: Inputs = isHmac(signedWith)
      ? { secret: String(body.secret ?? ''), secret_encoding: String(body.secret_encoding ?? ''), public_key: '' }
      : { public_key: pair && pair.privateKey === privateKey ? pair.publicKey : privateKey, secret: '', secret_encoding: '' };
    carry.open('verify', { token, algorithms: JSON.stringify([signedWith]), ...key });
  };
  const more = ['not_before', 'issuer', 'subject', 'audience', 'header'];
  const form = (
    <>
      <FieldInput
        field={algorithmField}
        id={fieldId(props.operation.id, 'algorithm')}
        value={algorithm}
        error={errors.algorithm}
        onChange={(value) => selectAlgorithm(String(value))}
      />
      {isHmac(algorithm) ? (
        <>
          <Field props={props} name="secret" errors={errors} />
          <Field props={props} name="secret_encoding" errors={errors} />
        </>
      ) : (
        <>
          <Field props={props} name="private_key" errors={errors} />
          <KeyPairButton props={props} carry={carry} onPair={onPair} />
        </>
      )}
      <Field props={props} name="payload" errors={errors} />
      <Field props={props} name="expires_in" errors={errors} />
      <details class="tool-more" open={more.some((n) => errors[n] || inputs[n])}>
        <summary>More claims and header</summary>
        {more.map((name) => (
          <Field key={name} props={props} name={name} errors={errors} />
        ))}
      </details>
    </>
  );
  const token = answer ? String(answer.token) : '';
  return (
    <Panel props={props} form={form}>
      {answer && !call.error ? (
        <>
          <section class="jwt-section jwt-signed" aria-labelledby="jwt-signed-heading">
            <h3 id="jwt-signed-heading">Signed token</h3>
            <TokenView token={token} />
            <CopyButton label="Copy token" text={token} />
          </section>
          <DecodedToken header={answer.header} payload={answer.payload} />
          <div class="jwt-actions">
            <button type="button" onClick={() => verifyThis(token)}>
              Verify this token
            </button>
            <button type="button" class="secondary" onClick={() => carry.open('decode', { token })}>
              Decode this token
            </button>
          </div>
        </>
      ) : (
        waiting(props, 'token')
      )}
    </Panel>
  );
}

export default function JwtPage(props: ToolPageProps) {
  const carry = useCarry(props);
  const [pair, setPair] = useState<PagePair | null>(null);
  switch (props.operation.id) {
    case 'verify':
      return <VerifyPanel props={props} />;
    case 'generate':
      return <GeneratePanel props={props} carry={carry} pair={pair} onPair={setPair} />;
    case 'keypair':
      return (
        <KeyPairPanel
          {...props}
          actions={(made: KeyPair) => {
            const privateKey = keyText(made.private_key);
            const publicKey = keyText(made.public_key);
            const sign = () => {
              setPair({ privateKey, publicKey });
              carry.fill('verify', { public_key: publicKey, secret: '', secret_encoding: '' });
              carry.open('generate', { algorithm: algorithmForKeyPair(made), private_key: privateKey, secret: '' });
            };
            return (
              <div class="jwt-actions">
                <button type="button" onClick={sign}>
                  Sign with this key
                </button>
                <span class="hint">Opens Generate with {algorithmForKeyPair(made)} and this private key; Verify gets the public key.</span>
              </div>
            );
          }}
        />
      );
    default:
      return <DecodePanel props={props} carry={carry} />;
  }
}
