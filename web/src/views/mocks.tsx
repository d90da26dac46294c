import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { CopyButton } from '../components/copy-button';
import { RelativeTime } from '../components/relative-time';
import { MockForm } from '../mock/mock-form';
import { servingUrl, type Mock } from '../mock/mock-values';
import { Link, navigate, useQuery } from '../router';
import { useSession } from '../session';

const PAGE_SIZE = 100;

type List = { status: 'loading' } | { status: 'failed'; detail: string } | { status: 'loaded'; mocks: Mock[]; total: number };

/** The key's mocks (GET /v1/mocks), newest first, and "New mock", whose form `/mocks?new` opens. */
export function MocksView() {
  const { api } = useSession();
  const creating = useQuery().has('new');
  const [list, setList] = useState<List>({ status: 'loading' });
  const [loadingMore, setLoadingMore] = useState(false);

  const load = async (offset: number) => {
    const page = await api.get('/v1/mocks', { query: { limit: PAGE_SIZE, offset } });
    setList((prev) => ({
      status: 'loaded',
      total: page.total,
      mocks: offset > 0 && prev.status === 'loaded' ? [...prev.mocks, ...page.mocks] : page.mocks,
    }));
  };
  const failed = (err: unknown) => setList({ status: 'failed', detail: err instanceof ApiError ? err.detail : String(err) });
  const reload = () => {
    setList({ status: 'loading' });
    load(0).catch(failed);
  };
  useEffect(reload, []);

  return (
    <section class="mocks">
      <div class="mocks-heading">
        <h1>Mocks</h1>
        {!creating && (
          <button type="button" onClick={() => navigate('/mocks?new')}>
            New mock
          </button>
        )}
      </div>
      {creating && (
        <section class="card mock-new" aria-labelledby="mock-new-heading">
          <h2 id="mock-new-heading">New mock</h2>
          <MockForm onSaved={(mock) => navigate(`/mocks/${mock.mock_id}`, { replace: true })} onCancel={() => navigate('/mocks')} />
        </section>
      )}
      {list.status === 'loading' && <p aria-busy="true">Loading mocks…</p>}
      {list.status === 'failed' && (
        <div class="error" role="alert">
          <p>{list.detail}</p>
          <button type="button" class="secondary" onClick={reload}>
            Retry
          </button>
        </div>
      )}
      {list.status === 'loaded' && list.mocks.length === 0 && !creating && (
        <p class="mocks-empty">
          No mocks yet. Choose <strong>New mock</strong> to make a URL that answers with the status, headers, body and delay you set: a
          stand-in for an API your code calls, or for a webhook receiver.
        </p>
      )}
      {list.status === 'loaded' && list.mocks.length > 0 && (
        <>
          <MockTable mocks={list.mocks} />
          {list.mocks.length < list.total && (
            <button
              type="button"
              class="secondary"
              disabled={loadingMore}
              onClick={() => {
                setLoadingMore(true);
                load(list.mocks.length)
                  .catch(failed)
                  .finally(() => setLoadingMore(false));
              }}
            >
              Show more ({list.total - list.mocks.length} left)
            </button>
          )}
        </>
      )}
    </section>
  );
}

function MockTable({ mocks }: { mocks: Mock[] }) {
  return (
    <div class="mocks-table-scroll">
      <table class="mocks-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Method</th>
            <th scope="col">Status</th>
            <th scope="col">URL</th>
            <th scope="col">Hits</th>
            <th scope="col">Expires</th>
          </tr>
        </thead>
        <tbody>
          {mocks.map((mock) => {
            const url = servingUrl(mock);
            return (
              <tr key={mock.mock_id}>
                <td class="mocks-name">
                  <Link href={`/mocks/${mock.mock_id}`}>{mock.name === '' ? mock.mock_id : mock.name}</Link>
                </td>
                <td data-label="Method">{mock.method ?? 'any'}</td>
                <td data-label="Status">{mock.status_code}</td>
                <td class="mocks-url">
                  <code>{url}</code>
                  <CopyButton label="Copy URL" text={url} />
                </td>
                <td data-label="Hits">{mock.hit_count}</td>
                <td data-label="Expires">
                  <RelativeTime iso={mock.expires_at} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
