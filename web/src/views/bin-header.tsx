import { useState } from 'preact/hooks';
import { ApiError, type ApiResult } from '../api';
import { CopyButton } from '../components/copy-button';
import { RelativeTime } from '../components/relative-time';
import { Link, navigate } from '../router';
import { useSession } from '../session';
import type { BinCaptures, GoneReason } from './bin-captures';

export type Bin = ApiResult<'get', '/v1/bins/{bin_id}'>['bin'];

const GONE_MESSAGES: Record<string, string> = {
  bin_deleted: 'This bin has been deleted.',
  bin_expired: 'This bin has expired.',
  not_found: 'This bin does not exist or has expired.',
  unauthorized: 'Your API key can no longer read this bin.',
};

/** The absolute catch URL of a bin, on the origin that serves this app (as `POST /v1/bins` gives it). */
export function catchUrlOf(bin: Pick<Bin, 'catch_url'>): string {
  return new URL(bin.catch_url, location.origin).href;
}

/**
 * A ready command that sends a request to `url`, quoted for a POSIX shell.
 *
 * @example
 *   curlLine('https://x.example/v1/catch/bin_a') // `curl -X POST 'https://x.example/v1/catch/bin_a' -H ...`
 */
export function curlLine(url: string): string {
  return `curl -X POST '${url.replaceAll("'", "'\\''")}' -H 'content-type: application/json' -d '{"hello":"world"}'`;
}

/** What is left of a bin's page once the bin is gone or out of reach: why, and the way back. */
export function BinGone({ reason }: { reason: GoneReason | string }) {
  return (
    <section class="bin-gone">
      <h1>Bin not available</h1>
      <p role="alert">{GONE_MESSAGES[reason] ?? reason}</p>
      <p>
        <Link href="/bins">Back to bins</Link>
      </p>
    </section>
  );
}

/** A bin with no request yet: where to send one, and a command that does. */
export function EmptyBin({ url }: { url: string }) {
  const command = curlLine(url);
  return (
    <div class="bin-empty card">
      <h2>No requests yet</h2>
      <p>
        Send a request to <code>{url}</code>
      </p>
      <p>For example, from a terminal:</p>
      <pre>
        <code>{command}</code>
      </pre>
      <CopyButton label="Copy command" text={command} />
      <p class="hint">It appears here at once, without a reload.</p>
    </div>
  );
}

export interface BinHeaderProps {
  binId: string;
  /** Null while it loads. */
  bin: Bin | null;
  url: string;
  requestId?: string;
  live: Pick<BinCaptures, 'cleared' | 'stop'>;
}

/** The bin's name, catch URL with "Copy URL", and its "Clear requests" and "Delete bin" actions. */
export function BinHeader({ binId, bin, url, requestId, live }: BinHeaderProps) {
  const { api } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const title = bin === null ? 'Loading bin…' : bin.name || 'Untitled bin';
  const base = `/bins/${encodeURIComponent(binId)}`;

  const act = async (question: string, work: () => Promise<void>) => {
    if (!window.confirm(question)) return;
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err instanceof ApiError ? err.detail : String(err));
    } finally {
      setBusy(false);
    }
  };
  const clearRequests = () =>
    act('Delete every request captured by this bin? The bin stays.', async () => {
      await api.delete('/v1/bins/{bin_id}/requests', { path: { bin_id: binId } });
      live.cleared();
      if (requestId !== undefined) navigate(base, { replace: true });
    });
  const deleteBin = () =>
    act(`Delete the bin ${bin?.name || binId} and its requests?`, async () => {
      // This page's own stream would otherwise report the bin gone before the navigation.
      live.stop();
      await api.delete('/v1/bins/{bin_id}', { path: { bin_id: binId } });
      navigate('/bins');
    });

  return (
    <>
      <header class="bin-header">
        <div class="bin-title">
          {/* With a request selected, the request view's title is the page's one h1. */}
          {requestId === undefined ? <h1>{title}</h1> : <p class="bin-name">{title}</p>}
          <p class="hint">
            {binId}
            {bin !== null && (
              <>
                {' '}
                · expires <RelativeTime iso={bin.expires_at} />
              </>
            )}
          </p>
        </div>
        <div class="bin-url">
          <code>{url}</code>
          <CopyButton label="Copy URL" text={url} />
        </div>
        <div class="bin-actions">
          <button type="button" class="secondary" disabled={busy} onClick={() => void clearRequests()}>
            Clear requests
          </button>
          <button type="button" class="danger" disabled={busy} onClick={() => void deleteBin()}>
            Delete bin
          </button>
        </div>
      </header>
      {error !== null && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
