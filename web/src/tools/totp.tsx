// The TOTP page: generate a secret (its QR code, otpauth URI and the code it gives now, with a
// countdown ring for the step) and verify a code against a secret within a window of steps.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { CopyButton } from '../components/copy-button';
import { carryTo, Field, ResultSection, RunButton, textOf, ToolForm, useCarriedInputs, useShownOutcome } from './hash-parts';
import { canComputeCodes, computeTotp, decodeBase32, groupCode, qrImageSource, secondsLeft, type TotpParams } from './totp-code';
import type { Inputs, ToolPageProps } from './types';
import './totp.css';

interface Setup {
  secret: string;
  otpauth_uri: string;
  qr_code: string;
  digits: number;
  period: number;
  algorithm: string;
  issuer: string;
  account: string;
}

/** The current Unix time in seconds, updated as each second begins. */
function useClock(): number {
  const [now, setNow] = useState(() => Math.floor(Date.now() / 1000));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      setNow(Math.floor(Date.now() / 1000));
      timer = setTimeout(tick, 1000 - (Date.now() % 1000) + 5);
    };
    timer = setTimeout(tick, 1000 - (Date.now() % 1000) + 5);
    return () => clearTimeout(timer);
  }, []);
  return now;
}

/** The ring's circumference: r = 100 / 2π, so a dash offset of N hides N % of it. */
const RING = 100;
const RING_RADIUS = RING / (2 * Math.PI);

/** What the countdown shows: the part of the step left, as an SVG ring (attributes, not styles). */
function CountdownRing({ left, period }: { left: number; period: number }) {
  return (
    <svg class="totp-ring" viewBox="0 0 36 36" width="64" height="64" aria-hidden="true">
      <circle class="totp-ring-track" cx="18" cy="18" r={RING_RADIUS} />
      <circle
        class="totp-ring-left"
        cx="18"
        cy="18"
        r={RING_RADIUS}
        stroke-dasharray={`${RING} ${RING}`}
        stroke-dashoffset={(RING * (period - left)) / period}
      />
      <text class="totp-ring-text" x="18" y="18" text-anchor="middle" dominant-baseline="central">
        {left}
      </text>
    </svg>
  );
}

interface CodeProps {
  secret: string;
  params: TotpParams;
  /** Unix seconds to show the code at; now (and counting down) when absent. */
  at?: number;
  action: { label: string; run(code: string): void };
}

/** The code the secret gives now (or at `at`), computed in the browser, with the seconds it has left. */
function TotpCode({ secret, params, at, action }: CodeProps) {
  const now = useClock();
  const time = at ?? now;
  const bytes = useMemo(() => decodeBase32(secret), [secret]);
  const step = Math.floor(time / params.period);
  const key = `${secret}|${params.digits}|${params.period}|${params.algorithm}|${step}`;
  const [computed, setComputed] = useState<{ key: string; code: string } | null>(null);
  useEffect(() => {
    if (bytes === null || !canComputeCodes()) return;
    let current = true;
    computeTotp(bytes, time, params).then(
      (code) => current && setComputed({ key, code }),
      () => current && setComputed(null),
    );
    return () => {
      current = false;
    };
  }, [key]);

  let body;
  if (!canComputeCodes()) body = <p class="hint">This browser computes codes only on a secure page (https or localhost).</p>;
  else if (bytes === null) body = <p class="hint">The secret is not base32, so it gives no code.</p>;
  else if (!Number.isInteger(params.period) || params.period < 1 || !Number.isInteger(params.digits))
    body = <p class="hint">Set the digits and the period to see the code.</p>;
  else if (computed === null || computed.key !== key) body = <p class="hint">Computing…</p>;
  else {
    const left = secondsLeft(time, params.period);
    const code = computed.code;
    body = (
      <div class="totp-live">
        {at === undefined && <CountdownRing left={left} period={params.period} />}
        <div class="totp-live-text">
          <code class="totp-code">{groupCode(code)}</code>
          <p class="hint">
            {at === undefined
              ? `${left} ${left === 1 ? 'second' : 'seconds'} left of ${params.period}.`
              : `At ${new Date(at * 1000).toISOString().replace('.000Z', 'Z')}.`}
          </p>
          <div class="answer-actions">
            <CopyButton label="Copy code" text={code} />
            <button type="button" class="secondary" onClick={() => action.run(code)}>
              {action.label}
            </button>
          </div>
        </div>
      </div>
    );
  }
  return (
    <section class="totp-current" aria-labelledby="totp-current-heading">
      <h3 id="totp-current-heading">{at === undefined ? 'Current code' : 'Code at this time'}</h3>
      {body}
    </section>
  );
}

function GeneratePanel(props: ToolPageProps) {
  const { call } = props;
  const setup = call.outcome?.result as Setup | undefined;
  const src = setup ? qrImageSource(setup.qr_code) : null;
  let content;
  if (call.error) content = <p class="hint">No result: see the error.</p>;
  else if (setup === undefined) content = <p class="hint">Press Run to generate a secret.</p>;
  else
    content = (
      <div class="totp-setup">
        {src === null ? (
          <p class="hint">The answer holds no QR code image.</p>
        ) : (
          <img
            class="totp-qr"
            src={src}
            width={200}
            height={200}
            alt={`QR code of the otpauth URI for ${setup.account} (${setup.issuer})`}
          />
        )}
        <dl class="tool-fields">
          <div class="tool-field-row">
            <dt>Secret</dt>
            <dd class="tool-string">
              <code class="tool-value">{setup.secret}</code>
              <CopyButton label="Copy secret" text={setup.secret} />
            </dd>
          </div>
          <div class="tool-field-row">
            <dt>otpauth URI</dt>
            <dd class="tool-string">
              <code class="tool-value">{setup.otpauth_uri}</code>
              <CopyButton label="Copy otpauth URI" text={setup.otpauth_uri} />
            </dd>
          </div>
          <div class="tool-field-row">
            <dt>Parameters</dt>
            <dd>
              {setup.digits} digits, a new code every {setup.period} seconds, HMAC-{setup.algorithm}
            </dd>
          </div>
        </dl>
        <TotpCode
          secret={setup.secret}
          params={setup}
          action={{
            label: 'Verify this code',
            run: (code) =>
              carryTo(props, 'verify', {
                secret: setup.secret,
                code,
                digits: String(setup.digits),
                period: String(setup.period),
                algorithm: setup.algorithm,
                timestamp: '',
              }),
          }}
        />
      </div>
    );
  return (
    <div class="tool-columns">
      <ToolForm props={props}>
        <Field props={props} name="issuer" />
        <Field props={props} name="account" />
        <div class="answer-row">
          <Field props={props} name="digits" />
          <Field props={props} name="period" />
          <Field props={props} name="algorithm" />
        </div>
        <RunButton busy={call.busy} doing="Generating…" />
      </ToolForm>
      <ResultSection busy={call.busy}>{content}</ResultSection>
    </div>
  );
}

/** The verdict in words: which step matched, or the window that none did. */
function verdictOf(result: { valid: boolean; delta: number | null }, body: Record<string, unknown>, props: ToolPageProps): string {
  const window = typeof body.window === 'number' ? body.window : Number(props.fields.find((f) => f.name === 'window')?.defaultValue);
  const period = typeof body.period === 'number' ? body.period : Number(props.fields.find((f) => f.name === 'period')?.defaultValue);
  const at = typeof body.timestamp === 'number' ? new Date(body.timestamp * 1000).toISOString().replace('.000Z', 'Z') : null;
  const steps = (n: number) => `${n} ${n === 1 ? 'step' : 'steps'} (${n * period} seconds)`;
  const step = at === null ? 'the current step' : `the step at ${at}`;
  // A code of another length is never any step's: say so rather than name a window.
  const digits = typeof body.digits === 'number' ? body.digits : Number(props.fields.find((f) => f.name === 'digits')?.defaultValue);
  const given = typeof body.code === 'string' ? body.code.replace(/ /g, '').length : null;
  if (!result.valid && given !== null && Number.isInteger(digits) && given !== digits)
    return `Not valid: the code has ${given} ${given === 1 ? 'digit' : 'digits'}, and these codes have ${digits}.`;
  if (!result.valid || result.delta === null)
    return window === 0
      ? `Not valid: it is not the code of ${step}.`
      : `Not valid: it is the code of no step from ${steps(window)} before to ${window} after ${step}.`;
  if (result.delta === 0) return `Valid: it is the code of ${step}.`;
  const n = Math.abs(result.delta);
  return `Valid: it is the code of ${steps(n)} ${result.delta < 0 ? 'before' : 'after'} ${step}, within the window of ${window}.`;
}

function VerifyPanel(props: ToolPageProps & { inputs: Inputs }) {
  const { call, inputs } = props;
  const { outcome, fresh } = useShownOutcome(props, inputs);
  const timestamp = typeof inputs.timestamp === 'string' && /^\d+$/.test(inputs.timestamp) ? Number(inputs.timestamp) : undefined;
  const params = {
    digits: Number(textOf(props, 'digits', inputs)),
    period: Number(textOf(props, 'period', inputs)),
    algorithm: textOf(props, 'algorithm', inputs),
  };
  let content;
  if (call.error) content = <p class="hint">No result: see the error.</p>;
  else if (outcome === null) content = <p class="hint">Checking…</p>;
  else {
    const result = outcome.result as { valid: boolean; delta: number | null };
    content = (
      <p class={`answer-verdict ${result.valid ? 'answer-valid' : 'answer-invalid'}${fresh ? '' : ' answer-stale'}`}>
        {verdictOf(result, outcome.request.body ?? {}, props)}
      </p>
    );
  }
  return (
    <div class="tool-columns">
      <ToolForm props={props}>
        <Field props={props} name="secret" inputs={inputs} />
        <Field props={props} name="code" inputs={inputs} />
        <div class="answer-row">
          <Field props={props} name="digits" inputs={inputs} />
          <Field props={props} name="period" inputs={inputs} />
          <Field props={props} name="algorithm" inputs={inputs} />
        </div>
        <div class="answer-row">
          <Field props={props} name="window" inputs={inputs} />
          <Field props={props} name="timestamp" inputs={inputs} />
        </div>
      </ToolForm>
      <ResultSection busy={call.busy || (call.error === null && outcome !== null && !fresh)}>
        {content}
        {typeof inputs.secret === 'string' && inputs.secret.trim() !== '' && (
          <TotpCode
            secret={inputs.secret}
            params={params}
            at={timestamp}
            action={{ label: 'Use this code', run: (code) => props.setInputs((previous) => ({ ...previous, code })) }}
          />
        )}
      </ResultSection>
    </div>
  );
}

export default function TotpPage(props: ToolPageProps) {
  const inputs = useCarriedInputs(props);
  return props.operation.id === 'verify' ? <VerifyPanel {...props} inputs={inputs} /> : <GeneratePanel {...props} />;
}
