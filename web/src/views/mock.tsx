import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { CopyButton } from '../components/copy-button';
import { RelativeTime } from '../components/relative-time';
import { MockForm } from '../mock/mock-form';
import { servingUrl, type Mock } from '../mock/mock-values';
import { TryIt } from '../mock/try-it';
import { Link, navigate } from '../router';
import { useSession } from '../session';

type State = { status: 'loading' } | { status: 'failed'; error: ApiError | Error } | { status: 'loaded'; mock: Mock };

/** One mock: its URL and hit count, "Try it", the form that edits it, and "Delete mock". */
export function MockView({ mockId }: { mockId: string }) {
  const { api } = useSession();
  const [state, setState] = useState<State>({ status: 'loading' });
  // Each save starts "Try it" afresh: an answer of the mock as it was would read as the new one's.
  const [saves, setSaves] = useState(0);
  const fetchMock = () => api.get('/v1/mocks/{mock_id}', { path: { mock_id: mockId } }).then(({ mock }) => mock);

  useEffect(() => {
    setState({ status: 'loading' });
    fetchMock().then(
      (mock) => setState({ status: 'loaded', mock }),
      (error: ApiError | Error) => setState({ status: 'failed', error }),
    );
  }, [mockId]);

  if (state.status === 'loading') return <p aria-busy="true">Loading the mock…</p>;
  if (state.status === 'failed') {
    const gone = state.error instanceof ApiError && state.error.status === 404;
    return (
      <section>
        <h1>{gone ? 'Mock not found' : 'The mock could not be loaded'}</h1>
        <p class={gone ? undefined : 'error'}>
          {gone ? 'No mock of yours has this id: it expired, was deleted, or belongs to another key.' : messageOf(state.error)}
        </p>
        <p>
          Back to your <Link href="/mocks">mocks</Link>.
        </p>
      </section>
    );
  }

  const { mock } = state;
  const url = servingUrl(mock);
  // The counter is re-read after a call of the mock; a failure to re-read leaves the last value.
  const refresh = () =>
    void fetchMock().then(
      (fresh) => setState({ status: 'loaded', mock: fresh }),
      () => undefined,
    );
  return (
    <section class="mock-page">
      <p class="hint">
        <Link href="/mocks">Mocks</Link> / {mock.mock_id}
      </p>
      <h1>{mock.name === '' ? mock.mock_id : mock.name}</h1>
      <div class="mock-url">
        <code>{url}</code>
        <CopyButton label="Copy URL" text={url} />
      </div>
      <dl class="mock-meta">
        <div>
          <dt>Method</dt>
          <dd>{mock.method ?? 'any'}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>{mock.status_code}</dd>
        </div>
        <div>
          <dt>Hits</dt>
          <dd>{mock.hit_count}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>
            <RelativeTime iso={mock.created_at} />
          </dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd>
            <RelativeTime iso={mock.expires_at} />
          </dd>
        </div>
      </dl>
      <TryIt key={saves} mock={mock} onCalled={refresh} />
      <section class="card mock-edit" aria-labelledby="mock-edit-heading">
        <h2 id="mock-edit-heading">Edit mock</h2>
        <MockForm
          key={mock.mock_id}
          mock={mock}
          onSaved={(saved) => {
            setState({ status: 'loaded', mock: saved });
            setSaves((n) => n + 1);
          }}
        />
      </section>
      <DeleteMock mock={mock} />
    </section>
  );
}

function messageOf(err: Error): string {
  return err instanceof ApiError ? err.detail : `Something went wrong: ${err.message}`;
}

/** "Delete mock", then a confirmation: its URL stops answering at once. */
function DeleteMock({ mock }: { mock: Mock }) {
  const { api } = useSession();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  // The question opens on its harmless answer, as a confirmation dialog would; before the next paint,
  // so that focus never falls to the page while the "Delete mock" button is gone.
  useLayoutEffect(() => {
    if (confirming) confirm.current?.focus();
  }, [confirming]);
  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await api.delete('/v1/mocks/{mock_id}', { path: { mock_id: mock.mock_id } });
      navigate('/mocks', { replace: true });
    } catch (err) {
      setError(messageOf(err as Error));
      setBusy(false);
    }
  };
  return (
    <div class="mock-delete">
      {!confirming ? (
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          Delete mock
        </button>
      ) : (
        <div class="mock-delete-confirm" role="group" aria-labelledby="mock-delete-question">
          <p id="mock-delete-question">Delete this mock? Its URL answers 404 from now on; this cannot be undone.</p>
          <button type="button" class="danger" disabled={busy} onClick={() => void remove()}>
            Delete
          </button>
          <button type="button" class="secondary" onClick={() => setConfirming(false)} ref={confirm}>
            Cancel
          </button>
        </div>
      )}
      {error !== null && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
