// The hash page: the data hashed with every algorithm the API takes, one table row each, as you
// type. The page's own live call answers the selected algorithm; the others follow one call at a
// time once it has answered and the typing has paused, so no more than one request is ever in
// flight (a change typed while one of them runs waits for it) and typing costs one call per change.
import { useEffect, useRef, useState } from 'preact/hooks';
import { CopyButton } from '../components/copy-button';
import { answers, EncodingField, Field, ResultSection, textOf } from './hash-parts';
import { prepareRequest } from './operations';
import type { CallError, Inputs, ToolPageProps } from './types';
import './hash.css';

/** One algorithm's answer, for the data and encodings `key` names. */
interface Row {
  key: string;
  hash?: string;
  error?: string;
}

/**
 * The digest's size in bits from its text.
 *
 * @example
 *   digestBits('ba7816bf', 'hex') // 32
 */
function digestBits(hash: string, encoding: string): number {
  if (encoding === 'hex') return hash.length * 4;
  const padding = hash.endsWith('==') ? 2 : hash.endsWith('=') ? 1 : 0;
  return Math.floor((hash.length * 3) / 4 - padding) * 8;
}

/** How long the inputs stay unchanged before the other algorithms are asked (each is a call, and a credit). */
const OTHERS_AFTER_MS = 800;

/** Every algorithm's row for the inputs as they stand, and how to change them without a second call in flight. */
function useEveryAlgorithm(props: ToolPageProps) {
  const algorithms = props.fields.find((f) => f.name === 'algorithm')?.choices ?? [];
  // Inputs typed while one of this page's calls runs, applied when it ends.
  const [held, setHeld] = useState<Inputs | null>(null);
  const inputs = held ?? props.inputs;
  // The rows live in the ref (read by calls that outlive a render); setting this state shows them.
  const [, setRows] = useState<Record<string, Row>>({});
  const state = useRef({
    props,
    inputs,
    rows: {} as Record<string, Row>,
    inFlight: false,
    held: null as Inputs | null,
    unmounted: false,
    changedAt: 0,
    timer: undefined as ReturnType<typeof setTimeout> | undefined,
  });
  state.current.props = props;
  state.current.inputs = inputs;
  /** The data and encodings, without the algorithm: what a row answers. */
  const keyOf = (i: Inputs) => JSON.stringify(prepareRequest(props.spec, props.fields, { ...i, algorithm: '' }).request);

  const pump = () => {
    const s = state.current;
    const { call } = s.props;
    if (s.unmounted || s.inFlight || s.held !== null || call.busy || call.error !== null) return;
    // The page's own call answers first; the others follow once it has answered these very inputs.
    if (call.outcome === null || !answers(s.props, call.outcome, s.inputs)) return;
    const key = keyOf(s.inputs);
    const own = (call.outcome.result as { algorithm: string }).algorithm;
    const next = algorithms.find((a) => a !== own && s.rows[a]?.key !== key);
    if (next === undefined) return;
    const wait = s.changedAt + OTHERS_AFTER_MS - Date.now();
    if (wait > 0) {
      clearTimeout(s.timer);
      s.timer = setTimeout(pump, wait);
      return;
    }
    s.inFlight = true;
    const settle = (row: Row) => {
      s.inFlight = false;
      if (s.unmounted) return;
      s.rows = { ...s.rows, [next]: row };
      setRows(s.rows);
      const waiting = s.held;
      if (waiting === null) return pump();
      s.held = null;
      setHeld(null);
      s.props.setInputs(waiting);
    };
    s.props.send(props.operation.id, { ...s.inputs, algorithm: next }).then(
      (outcome) => settle({ key, hash: (outcome.result as { hash: string }).hash }),
      (err: CallError) => settle({ key, error: err.detail }),
    );
  };

  useEffect(() => pump());
  useEffect(
    () => () => {
      state.current.unmounted = true;
      clearTimeout(state.current.timer);
    },
    [],
  );

  const setInputs: ToolPageProps['setInputs'] = (next) => {
    const s = state.current;
    const value = typeof next === 'function' ? next(s.inputs) : next;
    s.inputs = value;
    s.changedAt = Date.now();
    if (s.inFlight) {
      s.held = value;
      setHeld(value);
    } else s.props.setInputs(value);
  };

  const key = keyOf(inputs);
  const outcome = props.call.outcome;
  const ownFresh = outcome !== null && held === null && answers(props, outcome, inputs);
  const table = algorithms.map((algorithm) => {
    if (ownFresh && (outcome.result as { algorithm: string }).algorithm === algorithm)
      return { algorithm, row: { key, hash: (outcome.result as { hash: string }).hash }, fresh: true };
    const row = state.current.rows[algorithm] as Row | undefined;
    return { algorithm, row, fresh: row?.key === key };
  });
  return { inputs, setInputs, table };
}

export default function HashPage(props: ToolPageProps) {
  const { call } = props;
  const { inputs, setInputs, table } = useEveryAlgorithm(props);
  const encoding = textOf(props, 'encoding', inputs);
  // A refused call ends the update: its error stands until the inputs change.
  const updating = call.busy || (call.error === null && table.some((r) => !r.fresh));
  return (
    <div class="hash-page">
      <form class="tool-form" aria-label={props.operation.label} noValidate onSubmit={(e) => e.preventDefault()}>
        <Field props={props} name="data" inputs={inputs} setInputs={setInputs} />
        <div class="answer-row">
          <EncodingField props={props} name="data_encoding" inputs={inputs} setInputs={setInputs} />
          <Field props={props} name="encoding" inputs={inputs} setInputs={setInputs} />
        </div>
        <p class="hint">
          Each algorithm is one call of the API (and one credit on a metered plan): the selected one as you type, the others once you pause.
        </p>
      </form>
      <ResultSection busy={updating}>
        {call.error ? (
          <p class="hint">No result: see the error.</p>
        ) : (
          <div class="tool-table-wrap" tabIndex={0} role="group" aria-label="Hashes">
            <table class="tool-table hash-table">
              <caption class="offscreen">The data hashed with each algorithm</caption>
              <thead>
                <tr>
                  <th scope="col">Algorithm</th>
                  <th scope="col">Bits</th>
                  <th scope="col">Hash</th>
                </tr>
              </thead>
              <tbody>
                {table.map(({ algorithm, row, fresh }) => (
                  <tr key={algorithm} class={fresh ? undefined : 'answer-stale'}>
                    <th scope="row">{algorithm}</th>
                    <td class="hash-bits">{row?.hash === undefined ? '' : digestBits(row.hash, encoding)}</td>
                    <td>
                      {row?.hash === undefined ? (
                        (row?.error ?? '…')
                      ) : (
                        <span class="hash-cell">
                          <code class="hash-value">{row.hash}</code>
                          <CopyButton label={`Copy ${algorithm} hash`} text={row.hash} />
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </ResultSection>
    </div>
  );
}
