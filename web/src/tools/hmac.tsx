// The HMAC page: sign as you type (algorithm and encodings picked), and verify a signature, the
// verdict said in words; a signature made here can be verified at once.
import { CopyButton } from '../components/copy-button';
import { carryTo, EncodingField, Field, ResultSection, useCarriedInputs, ToolForm, useShownOutcome } from './hash-parts';
import type { Inputs, ToolPageProps } from './types';

/** The fields both operations take, in the order they show. */
function MessageAndKey({ props, inputs }: { props: ToolPageProps; inputs: Inputs }) {
  return (
    <>
      <Field props={props} name="data" inputs={inputs} />
      <EncodingField props={props} name="data_encoding" inputs={inputs} />
      <div class="answer-row">
        <Field props={props} name="key" inputs={inputs} />
        <EncodingField props={props} name="key_encoding" inputs={inputs} />
      </div>
      <div class="answer-row">
        <Field props={props} name="algorithm" inputs={inputs} />
        <Field props={props} name="encoding" inputs={inputs} />
      </div>
    </>
  );
}

function SignPanel(props: ToolPageProps) {
  const { call, inputs } = props;
  const { outcome, fresh } = useShownOutcome(props);
  const result = outcome?.result as { signature: string; algorithm: string; encoding: string } | undefined;
  let content;
  if (call.error) content = <p class="hint">No result: see the error.</p>;
  else if (result === undefined) content = <p class="hint">Signing…</p>;
  else
    content = (
      <div class={fresh ? undefined : 'answer-stale'}>
        <dl class="tool-fields">
          <div class="tool-field-row">
            <dt>Signature</dt>
            <dd class="tool-string">
              <code class="tool-value">{result.signature}</code>
              <CopyButton label="Copy signature" text={result.signature} />
            </dd>
          </div>
          <div class="tool-field-row">
            <dt>Algorithm</dt>
            <dd>
              HMAC-{result.algorithm.toUpperCase()}, written in {result.encoding}
            </dd>
          </div>
        </dl>
        <div class="answer-actions">
          {/* Only a signature of the message as it stands now is carried: not one still being replaced. */}
          <button
            type="button"
            class="secondary"
            disabled={!fresh}
            onClick={() =>
              carryTo(props, 'verify', {
                data: inputs.data,
                data_encoding: inputs.data_encoding,
                key: inputs.key,
                key_encoding: inputs.key_encoding,
                algorithm: inputs.algorithm,
                encoding: inputs.encoding,
                signature: result.signature,
              })
            }
          >
            Verify this signature
          </button>
        </div>
      </div>
    );
  return (
    <div class="tool-columns">
      <ToolForm props={props}>
        <MessageAndKey props={props} inputs={inputs} />
      </ToolForm>
      <ResultSection busy={call.busy}>{content}</ResultSection>
    </div>
  );
}

function VerifyPanel(props: ToolPageProps & { inputs: Inputs }) {
  const { call, inputs } = props;
  const { outcome, fresh } = useShownOutcome(props, inputs);
  const result = outcome?.result as { valid: boolean; algorithm: string } | undefined;
  let content;
  if (call.error) content = <p class="hint">No result: see the error.</p>;
  else if (result === undefined) content = <p class="hint">Checking…</p>;
  else
    content = (
      <p class={`answer-verdict ${result.valid ? 'answer-valid' : 'answer-invalid'}${fresh ? '' : ' answer-stale'}`}>
        {result.valid
          ? `Valid: the signature is the HMAC-${result.algorithm.toUpperCase()} of the message with this key.`
          : `Not valid: the signature is not the HMAC-${result.algorithm.toUpperCase()} of the message with this key.`}
      </p>
    );
  return (
    <div class="tool-columns">
      <ToolForm props={props}>
        <MessageAndKey props={props} inputs={inputs} />
        <Field props={props} name="signature" inputs={inputs} />
      </ToolForm>
      <ResultSection busy={call.busy || (call.error === null && outcome !== null && !fresh)}>{content}</ResultSection>
    </div>
  );
}

export default function HmacPage(props: ToolPageProps) {
  const inputs = useCarriedInputs(props);
  return props.operation.id === 'verify' ? <VerifyPanel {...props} inputs={inputs} /> : <SignPanel {...props} />;
}
