// The passwords page: hash (the algorithm's own parameters only), verify, a live strength meter
// with the estimator's feedback, and a generator with its options and a copy button per password.
import { useEffect, useState } from 'preact/hooks';
import { CopyButton } from '../components/copy-button';
import { GenericResult } from './result';
import { carryTo, Field, ResultSection, RunButton, textOf, useCarriedInputs, ToolForm, useShownOutcome } from './hash-parts';
import type { FieldSpec, Inputs, ToolPageProps } from './types';
import './passwords.css';

/** The hash options of `algorithm`: the fields whose schema description names its family (`argon2 passes`, `bcrypt cost`). */
function optionsOf(algorithm: string, fields: FieldSpec[]): FieldSpec[] {
  const family = algorithm.replace(/(id|i|d)$/, '');
  return fields.filter((f) => f.name !== 'password' && f.name !== 'algorithm' && (f.description ?? '').startsWith(`${family} `));
}

function HashPanel(props: ToolPageProps) {
  const { call, fields } = props;
  const algorithm = textOf(props, 'algorithm');
  const options = optionsOf(algorithm, fields);
  // Options of another algorithm are a 422: switching algorithm clears them.
  const switchAlgorithm = (value: string | boolean, previous: Inputs): Inputs => {
    const kept = optionsOf(String(value), fields).map((f) => f.name);
    const cleared = fields.filter((f) => f.name !== 'password' && f.name !== 'algorithm' && !kept.includes(f.name));
    return { ...previous, ...Object.fromEntries(cleared.map((f) => [f.name, ''])), algorithm: value };
  };
  // Open when an option is set (a shared link), then as the user leaves it.
  const [open, setOpen] = useState(() =>
    fields.some((f) => f.name !== 'password' && f.name !== 'algorithm' && props.inputs[f.name] !== ''),
  );
  const outcome = call.outcome;
  const hash = outcome && (outcome.result as { hash?: unknown }).hash;
  return (
    <div class="tool-columns">
      <ToolForm props={props}>
        <Field props={props} name="password" />
        <Field props={props} name="algorithm" onChange={switchAlgorithm} />
        {options.length > 0 && (
          <details
            class="tool-more"
            open={open || options.some((f) => call.error?.fieldErrors[f.name])}
            onToggle={(e) => setOpen(e.currentTarget.open)}
          >
            <summary>More options: {algorithm} parameters</summary>
            {options.map((f) => (
              <Field key={f.name} props={props} name={f.name} />
            ))}
          </details>
        )}
        <RunButton busy={call.busy} doing={`Hashing with ${algorithm}…`} />
      </ToolForm>
      <ResultSection busy={call.busy}>
        {call.error ? (
          <p class="hint">No result: see the error.</p>
        ) : outcome ? (
          <>
            <GenericResult value={outcome.result} />
            {typeof hash === 'string' && (
              <div class="answer-actions">
                <button
                  type="button"
                  class="secondary"
                  onClick={() => carryTo(props, 'verify', { password: String(outcome.request.body?.password ?? ''), hash })}
                >
                  Verify a password against this hash
                </button>
              </div>
            )}
          </>
        ) : (
          <p class="hint">Press Run to see the result.</p>
        )}
      </ResultSection>
    </div>
  );
}

function VerifyPanel(props: ToolPageProps & { inputs: Inputs }) {
  const { call, inputs } = props;
  const outcome = call.outcome;
  const result = outcome?.result as { valid: boolean; algorithm: string } | undefined;
  return (
    <div class="tool-columns">
      <ToolForm props={props}>
        <Field props={props} name="password" inputs={inputs} />
        <Field props={props} name="hash" inputs={inputs} />
        <RunButton busy={call.busy} doing="Verifying…" />
      </ToolForm>
      <ResultSection busy={call.busy}>
        {call.error ? (
          <p class="hint">No result: see the error.</p>
        ) : result ? (
          <p class={`answer-verdict ${result.valid ? 'answer-valid' : 'answer-invalid'}`}>
            {result.valid
              ? `Valid: the password matches this ${result.algorithm} hash.`
              : `Not valid: the password does not match this ${result.algorithm} hash.`}
          </p>
        ) : (
          <p class="hint">Press Run to check the password.</p>
        )}
      </ResultSection>
    </div>
  );
}

interface Strength {
  score: number;
  strength: string;
  entropy_bits: number;
  crack_time_seconds: number;
  crack_time_display: string;
  feedback: { warning: string | null; suggestions: string[] };
  checks: { length: number; lowercase: boolean; uppercase: boolean; digits: boolean; symbols: boolean };
}

/** `very_weak` → `Very weak`. */
const wordsOf = (name: string) => name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, ' ');

/** Words typed one per line as the JSON array `user_inputs` takes ('' for none: the field is left out). */
function jsonOf(text: string): string {
  const words = text.split('\n').filter((w) => w.trim() !== '');
  return words.length === 0 ? '' : JSON.stringify(words);
}

/** The JSON array `user_inputs` holds, as one word per line (the text as it is when it is no such array). */
function linesOf(text: string): string {
  try {
    const value: unknown = JSON.parse(text);
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join('\n');
  } catch {
    // Not JSON (a link made by hand): shown as it is.
  }
  return text;
}

/** The words about the user, one per line, kept in the input as the JSON array the API takes. */
function UserInputs({ props }: { props: ToolPageProps }) {
  const json = typeof props.inputs.user_inputs === 'string' ? props.inputs.user_inputs : '';
  // The text as typed (blank lines included), read again from the input only when it changes elsewhere (a shared link).
  const [text, setText] = useState(() => linesOf(json));
  useEffect(() => {
    if (jsonOf(text) !== json) setText(linesOf(json));
  }, [json]);
  const error = props.call.error?.fieldErrors.user_inputs;
  const id = 'passwords-user-inputs';
  return (
    <div class="tool-field tool-field-textarea">
      <span class="tool-label">
        <label for={id}>Words about the user</label>
      </span>
      <textarea
        id={id}
        class="passwords-words"
        value={text}
        spellcheck={false}
        aria-describedby={[error ? `${id}-error` : '', `${id}-hint`].filter(Boolean).join(' ')}
        aria-invalid={error ? 'true' : undefined}
        onInput={(e) => {
          const typed = e.currentTarget.value;
          setText(typed);
          props.setInputs((previous) => ({ ...previous, user_inputs: jsonOf(typed) }));
        }}
      />
      {error && (
        <p id={`${id}-error`} class="tool-field-error">
          {error}
        </p>
      )}
      <p id={`${id}-hint`} class="hint">
        One per line: name, e-mail, site. A password built from them is weaker.
      </p>
    </div>
  );
}

const CHECKS: [keyof Strength['checks'], string][] = [
  ['lowercase', 'Lowercase letters'],
  ['uppercase', 'Uppercase letters'],
  ['digits', 'Digits'],
  ['symbols', 'Symbols or spaces'],
];

function StrengthResult({ strength, stale }: { strength: Strength; stale: boolean }) {
  const { feedback, checks } = strength;
  return (
    <div class={stale ? 'answer-stale' : undefined}>
      <div class="passwords-meter">
        <label for="passwords-meter">Strength</label>
        <meter id="passwords-meter" min={0} max={4} low={1.5} high={2.5} optimum={4} value={strength.score} />
        <p class="passwords-meter-text">
          {wordsOf(strength.strength)}: {strength.score} of 4. Cracked in {strength.crack_time_display} by an offline attack on a slow hash
          (10,000 guesses a second).
        </p>
      </div>
      <dl class="tool-fields">
        <div class="tool-field-row">
          <dt>Score</dt>
          <dd>
            <code class="tool-value">{strength.score}</code> of 4
          </dd>
        </div>
        <div class="tool-field-row">
          <dt>Strength</dt>
          <dd>
            <code class="tool-value">{strength.strength}</code>
          </dd>
        </div>
        <div class="tool-field-row">
          <dt>Entropy (bits)</dt>
          <dd>
            <code class="tool-value">{strength.entropy_bits}</code>
          </dd>
        </div>
        <div class="tool-field-row">
          <dt>Crack time (seconds)</dt>
          <dd>
            <code class="tool-value">{strength.crack_time_seconds}</code>
          </dd>
        </div>
        <div class="tool-field-row">
          <dt>Crack time</dt>
          <dd>
            <code class="tool-value">{strength.crack_time_display}</code>
          </dd>
        </div>
        <div class="tool-field-row">
          <dt>Warning</dt>
          <dd class="passwords-warning">{feedback.warning ?? 'None.'}</dd>
        </div>
        <div class="tool-field-row">
          <dt>Suggestions</dt>
          <dd>
            {feedback.suggestions.length === 0 ? (
              'None.'
            ) : (
              <ul class="passwords-suggestions">
                {feedback.suggestions.map((s) => (
                  <li key={s}>{s}</li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        <div class="tool-field-row">
          <dt>Characters</dt>
          <dd>
            <ul class="passwords-checks">
              <li>
                {checks.length} {checks.length === 1 ? 'character' : 'characters'}
              </li>
              {CHECKS.map(([name, label]) => (
                <li key={name}>
                  {label}: {checks[name] ? 'yes' : 'no'}
                </li>
              ))}
            </ul>
          </dd>
        </div>
      </dl>
    </div>
  );
}

function StrengthPanel(props: ToolPageProps) {
  const { call } = props;
  const { outcome, fresh } = useShownOutcome(props);
  return (
    <div class="tool-columns">
      <ToolForm props={props}>
        <Field props={props} name="password" />
        <UserInputs props={props} />
      </ToolForm>
      <ResultSection busy={call.busy}>
        {call.error ? (
          <p class="hint">No result: see the error.</p>
        ) : outcome ? (
          <StrengthResult strength={outcome.result as Strength} stale={!fresh} />
        ) : (
          <p class="hint">Type a password to see its strength.</p>
        )}
      </ResultSection>
    </div>
  );
}

const CLASSES = ['uppercase', 'lowercase', 'digits', 'symbols'];

function GeneratePanel(props: ToolPageProps) {
  const { call } = props;
  const { outcome, fresh } = useShownOutcome(props);
  const result = outcome?.result as { passwords: string[]; entropy_bits: number } | undefined;
  return (
    <div class="tool-columns">
      <ToolForm props={props}>
        <div class="answer-row">
          <Field props={props} name="length" />
          <Field props={props} name="count" />
        </div>
        <fieldset class="passwords-classes">
          <legend>Character sets</legend>
          {CLASSES.map((name) => (
            <Field key={name} props={props} name={name} />
          ))}
          <Field props={props} name="exclude_ambiguous" />
        </fieldset>
        <Field props={props} name="exclude" />
      </ToolForm>
      <ResultSection busy={call.busy}>
        {call.error ? (
          <p class="hint">No result: see the error.</p>
        ) : result ? (
          <div class={fresh ? undefined : 'answer-stale'}>
            <ol class="passwords-generated">
              {result.passwords.map((password, i) => (
                <li key={`${i}-${password}`} class="tool-string">
                  <code class="tool-value">{password}</code>
                  <CopyButton label={result.passwords.length === 1 ? 'Copy password' : `Copy password ${i + 1}`} text={password} />
                </li>
              ))}
            </ol>
            <p class="hint">
              {result.entropy_bits} bits of entropy per password: that many coin flips' worth of randomness, counted exactly over every
              password these options allow.
            </p>
            <div class="answer-actions">
              <button type="button" class="secondary" onClick={() => props.run()}>
                Generate again
              </button>
            </div>
          </div>
        ) : (
          <p class="hint">Generating…</p>
        )}
      </ResultSection>
    </div>
  );
}

export default function PasswordsPage(props: ToolPageProps) {
  const inputs = useCarriedInputs(props);
  switch (props.operation.id) {
    case 'verify':
      return <VerifyPanel {...props} inputs={inputs} />;
    case 'strength':
      return <StrengthPanel {...props} />;
    case 'generate':
      return <GeneratePanel {...props} />;
    default:
      return <HashPanel {...props} />;
  }
}
