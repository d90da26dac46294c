import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { CopyButton } from '../components/copy-button';
import { RelativeTime } from '../components/relative-time';
import { bodyBytes, downloadName, formatSize, saveBytes, type CapturedRequest } from '../request/captured';
import { BodyView } from '../request/body-view';
import { buildCurlCommand } from '../request/curl';
import { NameValueTable } from '../request/name-value-table';
import { ReplayForm } from '../request/replay-form';
import { Link } from '../router';
import { useSession } from '../session';

type Load = { status: 'loading' } | { status: 'loaded'; request: CapturedRequest } | { status: 'failed'; error: ApiError | Error };

function QuerySection({ query }: { query: string }) {
  return (
    <section class="request-section" aria-labelledby="request-query">
      <h2 id="request-query">Query</h2>
      {query === '' ? (
        <p class="hint">No query</p>
      ) : (
        <>
          <NameValueTable label="Query parameters" rows={[...new URLSearchParams(query)]} />
          <p class="raw-query">
            Raw: <code>{query}</code>
          </p>
        </>
      )}
    </section>
  );
}

function RequestDetail({ request }: { request: CapturedRequest }) {
  const [replaying, setReplaying] = useState(false);
  const target = request.path + (request.query_string === '' ? '' : `?${request.query_string}`);
  return (
    <article class="request-view" aria-labelledby="request-title">
      <h1 id="request-title" class="request-title">
        <span class="method">{request.method}</span> <span class="request-path">{target}</span>
      </h1>
      <dl class="request-facts">
        <div>
          <dt>Time</dt>
          <dd>
            <RelativeTime iso={request.timestamp} />
          </dd>
        </div>
        <div>
          <dt>Source IP</dt>
          <dd>{request.source_ip}</dd>
        </div>
        <div>
          <dt>Content type</dt>
          <dd>{request.content_type === '' ? 'none' : request.content_type}</dd>
        </div>
        <div>
          <dt>Size</dt>
          <dd>{formatSize(request.content_length)}</dd>
        </div>
      </dl>
      <div class="request-actions">
        <CopyButton label="Copy as cURL" text={() => buildCurlCommand(request, location.origin)} />
        <button
          type="button"
          class="secondary"
          disabled={request.content_length === 0}
          onClick={() => saveBytes(bodyBytes(request), downloadName(request))}
        >
          Download body
        </button>
        <button
          type="button"
          class="secondary"
          aria-expanded={replaying}
          aria-controls="request-replay"
          onClick={() => setReplaying(!replaying)}
        >
          Replay
        </button>
      </div>
      <section id="request-replay" class="request-section" aria-labelledby="request-replay-title" hidden={!replaying}>
        <h2 id="request-replay-title">Replay to another URL</h2>
        {replaying && <ReplayForm binId={request.bin_id} requestId={request.request_id} />}
      </section>
      <section class="request-section" aria-labelledby="request-headers">
        <h2 id="request-headers">Headers</h2>
        <NameValueTable label="Request headers" rows={Object.entries(request.headers)} />
      </section>
      <QuerySection query={request.query_string} />
      <section class="request-section" aria-labelledby="request-body">
        <h2 id="request-body">Body</h2>
        <BodyView key={request.request_id} request={request} />
      </section>
    </article>
  );
}

/** One captured request: what arrived (method, path, headers, query, body), Copy as cURL, Download body and Replay. */
export function RequestView({ binId, requestId }: { binId: string; requestId: string }) {
  const { api } = useSession();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setLoad({ status: 'loading' });
    api.get('/v1/bins/{bin_id}/requests/{request_id}', { path: { bin_id: binId, request_id: requestId }, signal: controller.signal }).then(
      ({ request }) => setLoad({ status: 'loaded', request }),
      (err: unknown) => {
        if (!controller.signal.aborted) setLoad({ status: 'failed', error: err instanceof Error ? err : new Error(String(err)) });
      },
    );
    return () => controller.abort();
  }, [api, binId, requestId, attempt]);

  switch (load.status) {
    case 'loading':
      return (
        <p class="hint" role="status" aria-busy="true">
          Loading request…
        </p>
      );
    case 'loaded':
      return <RequestDetail request={load.request} />;
    case 'failed':
      if (load.error instanceof ApiError && load.error.status === 404)
        return (
          <section class="request-view">
            <h1>Request not found</h1>
            <p>
              Request {requestId} is not in bin {binId}: the bin may have been deleted or expired, or the request cleared or pushed out by
              newer ones.
            </p>
            <p>
              <Link href={`/bins/${encodeURIComponent(binId)}`}>Back to the bin</Link>
            </p>
          </section>
        );
      return (
        <section class="request-view">
          <h1>Request {requestId}</h1>
          <p class="error" role="alert">
            {load.error instanceof ApiError ? load.error.detail : `Something went wrong: ${load.error.message}`}
          </p>
          <button type="button" onClick={() => setAttempt(attempt + 1)}>
            Try again
          </button>
        </section>
      );
  }
}
