import { useEffect, useRef, useState } from 'preact/hooks';
import { servingUrl, type Mock } from './mock-values';

/** Longer bodies are cut for display (a mock body can be 1 MiB). */
const SHOWN_BODY_CHARS = 100_000;

type Outcome =
  | { kind: 'answer'; status: number; statusText: string; headers: [string, string][]; body: string; ms: number }
  | { kind: 'redirect'; ms: number }
  | { kind: 'failed'; message: string };

/** What a call of the mock got, or why it got nothing. */
async function callMock(url: string, method: string, signal: AbortSignal): Promise<Outcome> {
  const started = performance.now();
  try {
    // A redirect is not followed: its target may be another origin, which connect-src refuses.
    const response = await fetch(url, { method, cache: 'no-store', credentials: 'omit', redirect: 'manual', signal });
    if (response.type === 'opaqueredirect') return { kind: 'redirect', ms: performance.now() - started };
    const body = await response.text();
    return {
      kind: 'answer',
      status: response.status,
      statusText: response.statusText,
      headers: [...response.headers.entries()],
      body,
      ms: performance.now() - started,
    };
  } catch (err) {
    if (signal.aborted) throw err;
    return { kind: 'failed', message: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * "Try it": call the mock's URL from the browser with its method (GET when it answers any) and show
 * the answer; then `onCalled`, so the page re-reads the hit count.
 */
export function TryIt({ mock, onCalled }: { mock: Mock; onCalled(): void }) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  const method = mock.method ?? 'GET';
  const url = servingUrl(mock);
  const run = async () => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setBusy(true);
    try {
      setOutcome(await callMock(url, method, controller.signal));
      onCalled();
    } catch {
      return; // Left the page, or started again.
    } finally {
      if (running.current === controller) setBusy(false);
    }
  };

  return (
    <section class="mock-try card" aria-labelledby="mock-try-heading">
      <h2 id="mock-try-heading">Try it</h2>
      <p class="hint">
        Sends <code>{method}</code> to <code>{url}</code> from this browser{mock.delay_ms > 0 ? `, answered after ${mock.delay_ms} ms` : ''}
        .
      </p>
      <button type="button" disabled={busy} onClick={() => void run()}>
        Try it
      </button>
      <div class="mock-try-result" aria-live="polite">
        {busy && <p>Waiting for the mock…</p>}
        {!busy && outcome?.kind === 'failed' && <p class="error">The call failed: {outcome.message}</p>}
        {!busy && outcome?.kind === 'redirect' && (
          <p>
            The mock answered with a redirect ({Math.round(outcome.ms)} ms). A browser does not show a page the status or headers of a
            redirect; try it with curl to see them.
          </p>
        )}
        {!busy && outcome?.kind === 'answer' && <Answer outcome={outcome} />}
      </div>
    </section>
  );
}

function Answer({ outcome }: { outcome: Extract<Outcome, { kind: 'answer' }> }) {
  const cut = outcome.body.length > SHOWN_BODY_CHARS;
  return (
    <>
      <p class="mock-try-status">
        <strong>
          {outcome.status} {outcome.statusText}
        </strong>{' '}
        in {Math.round(outcome.ms)} ms
      </p>
      <h3>Response headers</h3>
      <table class="mock-try-headers">
        <tbody>
          {outcome.headers.map(([name, value], i) => (
            <tr key={i}>
              <th scope="row">{name}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Response body</h3>
      {outcome.body === '' ? (
        <p class="hint">No body.</p>
      ) : (
        <pre class="mock-try-body" tabIndex={0} aria-label="Response body">
          {cut ? outcome.body.slice(0, SHOWN_BODY_CHARS) : outcome.body}
        </pre>
      )}
      {cut && (
        <p class="hint">
          Showing the first {SHOWN_BODY_CHARS.toLocaleString()} of {outcome.body.length.toLocaleString()} characters.
        </p>
      )}
    </>
  );
}
