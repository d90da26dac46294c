import { useRef, useState } from 'preact/hooks';
import { ApiError, type ApiResult } from '../api';
import { useSession } from '../session';
import { NameValueTable } from './name-value-table';

type ReplayResult = ApiResult<'post', '/v1/bins/{bin_id}/requests/{request_id}/replay'>;

type State =
  | { status: 'idle' }
  | { status: 'sending'; target: string }
  | { status: 'done'; result: ReplayResult }
  | { status: 'failed'; detail: string };

const milliseconds = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

function ReplayAnswer({ result }: { result: ReplayResult }) {
  return (
    <section class="replay-answer" aria-labelledby="replay-answer-title">
      <h3 id="replay-answer-title">Response from {result.replayed_to}</h3>
      <dl class="request-facts">
        <div>
          <dt>Status</dt>
          <dd>{result.response_status}</dd>
        </div>
        <div>
          <dt>Time</dt>
          <dd>{milliseconds.format(result.elapsed_ms)} ms</dd>
        </div>
        <div>
          <dt>Truncated</dt>
          <dd>{result.response_truncated ? 'Yes: only the first 10 KiB were read' : 'No'}</dd>
        </div>
      </dl>
      <h4>Response headers</h4>
      <NameValueTable label="Response headers" rows={Object.entries(result.response_headers)} />
      <h4>Response body</h4>
      {result.response_body === '' ? (
        <p class="hint">Empty</p>
      ) : (
        <pre class="body-text" tabIndex={0}>
          {result.response_body}
        </pre>
      )}
    </section>
  );
}

/**
 * The replay form: sends the captured request to "Target URL" (the service's SSRF guard decides
 * what is allowed) and shows the target's answer, or the API's reason next to the field.
 */
export function ReplayForm({ binId, requestId }: { binId: string; requestId: string }) {
  const { api } = useSession();
  const [target, setTarget] = useState('');
  const [state, setState] = useState<State>({ status: 'idle' });
  const input = useRef<HTMLInputElement>(null);

  const send = async (event: Event) => {
    event.preventDefault();
    setState({ status: 'sending', target });
    try {
      const result = await api.post('/v1/bins/{bin_id}/requests/{request_id}/replay', {
        path: { bin_id: binId, request_id: requestId },
        body: { target_url: target.trim() },
      });
      setState({ status: 'done', result });
    } catch (err) {
      setState({ status: 'failed', detail: err instanceof ApiError ? err.detail : `Something went wrong: ${String(err)}` });
      input.current?.focus();
    }
  };
  const sending = state.status === 'sending';
  const failed = state.status === 'failed';

  return (
    <div class="replay card">
      <form class="replay-form" onSubmit={(e) => void send(e)} noValidate aria-busy={sending}>
        <label for="replay-target">Target URL</label>
        <div class="replay-row">
          <input
            id="replay-target"
            ref={input}
            type="url"
            inputMode="url"
            autoComplete="url"
            spellcheck={false}
            placeholder="https://example.com/webhooks"
            value={target}
            onInput={(e) => setTarget(e.currentTarget.value)}
            aria-invalid={failed}
            aria-describedby={failed ? 'replay-error' : undefined}
          />
          <button type="submit" disabled={sending}>
            Send
          </button>
        </div>
        {failed && (
          <p id="replay-error" class="error" role="alert">
            {state.detail}
          </p>
        )}
      </form>
      <p class="hint" role="status">
        {sending ? `Sending to ${state.target}…` : ''}
      </p>
      {state.status === 'done' && <ReplayAnswer result={state.result} />}
    </div>
  );
}
