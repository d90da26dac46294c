// The form spam score page: the submission's fields and the bot signals, scored as you type; the
// score as a half-circle gauge with the verdict, and each rule that fired with its points.
import type { ApiResult } from '../api';
import { FieldInput, fieldId } from './form';
import { GAUGE_ARC, gaugeDash, ruleLabel, ruleTotal, thresholdTick } from './spam-score-gauge';
import type { Inputs, Outcome, ToolPageProps } from './types';
import './spam-score.css';

type SpamResult = ApiResult<'post', '/v1/email/form-spam-score'>;

/** A submission most rules fire on, to see the table filled. */
const SPAM_EXAMPLE: Inputs = {
  name: 'SEO Expert',
  email: 'win@mailinator.com',
  subject: 'Rank your website',
  message: 'CHEAP backlinks!!!! Get on the first page of Google: http://x.example http://y.example http://z.example',
  honeypot: 'x',
  time_to_submit_ms: '800',
  user_agent: 'python-requests/2.32',
  ip: '',
};

function Gauge({ score, threshold, spam }: { score: number; threshold: number; spam: boolean }) {
  const tick = thresholdTick(threshold);
  return (
    <div class="spam-gauge">
      <svg viewBox="-2 -2 124 70" width="240" height="135" aria-hidden="true" focusable="false">
        <path class="spam-gauge-track" d={GAUGE_ARC} pathLength={100} />
        <path
          class={spam ? 'spam-gauge-value spam-is-spam' : 'spam-gauge-value spam-is-ham'}
          d={GAUGE_ARC}
          pathLength={100}
          stroke-dasharray={gaugeDash(score)}
        />
        <line class="spam-gauge-threshold" {...tick} />
        <text class="spam-gauge-score" x="60" y="56" text-anchor="middle">
          {score}
        </text>
      </svg>
      <meter class="visually-hidden" aria-label="Spam score" min={0} max={100} low={threshold} high={threshold} optimum={0} value={score}>
        {score} of 100
      </meter>
    </div>
  );
}

function Verdict({ outcome }: { outcome: Outcome }) {
  const result = outcome.result as SpamResult;
  const { sum, capped } = ruleTotal(result.reasons);
  return (
    <>
      <div class="spam-verdict">
        <Gauge score={result.score} threshold={result.threshold} spam={result.is_spam} />
        <p class="spam-verdict-text">
          <strong class={result.is_spam ? 'spam-is-spam' : 'spam-is-ham'}>{result.is_spam ? 'Spam' : 'Not spam'}</strong>
          <span>
            Score {result.score} of 100; spam from {result.threshold} up.
          </span>
        </p>
      </div>
      {result.reasons.length === 0 ? (
        <p>No rule fired: nothing in this submission looks like spam.</p>
      ) : (
        <div class="tool-table-wrap" tabIndex={0} role="group" aria-label="Rule contributions">
          <table class="tool-table spam-rules">
            <caption>Rule contributions</caption>
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">What fired</th>
                <th scope="col">Points</th>
              </tr>
            </thead>
            <tbody>
              {result.reasons.map((reason, i) => (
                <tr key={i}>
                  <th scope="row">{ruleLabel(reason.rule)}</th>
                  <td>{reason.detail}</td>
                  <td class="spam-points">+{reason.weight}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={2}>
                  Total{capped ? ', capped at 100' : ''}
                </th>
                <td class="spam-points">{sum}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </>
  );
}

export default function SpamScorePage({ operation, fields, inputs, setInputs, call }: ToolPageProps) {
  const errors = call.error?.fieldErrors ?? {};
  const input = (name: string) => {
    const field = fields.find((f) => f.name === name);
    return (
      field && (
        <FieldInput
          field={field}
          id={fieldId(operation.id, name)}
          value={inputs[name] ?? ''}
          error={errors[name]}
          onChange={(value) => setInputs((previous) => ({ ...previous, [name]: value }))}
        />
      )
    );
  };
  let content;
  if (call.error) content = <p class="hint">No score: see the error{Object.keys(errors).length > 0 ? ' next to the field' : ' above'}.</p>;
  else if (call.outcome) content = <Verdict outcome={call.outcome} />;
  else if (call.missing.length > 0) content = <p class="hint">Write a message to see its score.</p>;
  else content = <p class="hint">Scoring…</p>;
  return (
    <div class="tool-columns">
      <form class="tool-form" aria-label={operation.label} noValidate onSubmit={(e) => e.preventDefault()}>
        <p class="spam-example">
          <button type="button" class="secondary" onClick={() => setInputs((previous) => ({ ...previous, ...SPAM_EXAMPLE }))}>
            Try a spam example
          </button>
        </p>
        <fieldset class="spam-group">
          <legend>Submission</legend>
          {input('name')}
          {input('email')}
          {input('subject')}
          {input('message')}
        </fieldset>
        <fieldset class="spam-group">
          <legend>What the form saw</legend>
          {input('honeypot')}
          {input('time_to_submit_ms')}
          {input('user_agent')}
          {input('ip')}
        </fieldset>
        {input('threshold')}
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
