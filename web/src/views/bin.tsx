import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';
import type { LiveStatus } from '../live-stream';
import { Link, navigate } from '../router';
import { useSession } from '../session';
import { goneReasonOf, useBinCaptures, type Capture, type GoneReason } from './bin-captures';
import { BinGone, BinHeader, catchUrlOf, EmptyBin, type Bin } from './bin-header';
import { CaptureList } from './capture-list';
import { RequestView } from './request';

const STATUS_TEXT: Record<LiveStatus, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  closed: 'Stopped',
};

/** Whether a key press belongs to a field the user is typing in (so j, k and / are text there). */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest('input, textarea, select') !== null;
}

/** Whether a capture matches the filter text (method, path or query, ignoring case). */
function matches(capture: Capture, needle: string): boolean {
  if (needle === '') return true;
  return `${capture.method} ${capture.path}?${capture.query_string}`.toLowerCase().includes(needle);
}

interface BinRead {
  bin: Bin | null;
  /** Why the bin is out of reach (`not_found`, `unauthorized`), when the read says so. */
  gone: GoneReason | null;
  /** Any other failure, as the API's detail. */
  failure: string | null;
}

/** The bin itself (name, expiry), read beside the list and the selected request rather than before them. */
function useBin(binId: string): BinRead {
  const { api } = useSession();
  const [state, setState] = useState<BinRead>({ bin: null, gone: null, failure: null });
  useEffect(() => {
    const controller = new AbortController();
    api.get('/v1/bins/{bin_id}', { path: { bin_id: binId }, signal: controller.signal }).then(
      ({ bin }) => setState({ bin, gone: null, failure: null }),
      (err: unknown) => {
        if (controller.signal.aborted) return;
        const gone = goneReasonOf(err);
        setState({ bin: null, gone, failure: gone === null ? (err instanceof ApiError ? err.detail : String(err)) : null });
      },
    );
    return () => controller.abort();
  }, [api, binId]);
  return state;
}

/**
 * One bin (routes `/bins/{bin_id}` and `/bins/{bin_id}/requests/{request_id}`): its catch URL and
 * the live list of its captures beside the selected request, like webhook.site. j and k move the
 * selection, / focuses the filter.
 */
export function BinView({ binId, requestId }: { binId: string; requestId?: string }) {
  const { api } = useSession();
  const { bin, gone: binGone, failure } = useBin(binId);
  const live = useBinCaptures(api, binId);
  // Through the list's stream, which may yet say why the bin is gone.
  useEffect(() => {
    if (binGone !== null) live.reportGone(binGone);
  }, [binGone]);
  const [filter, setFilter] = useState('');
  const filterField = useRef<HTMLInputElement>(null);
  const url = catchUrlOf(bin ?? { catch_url: `/v1/catch/${encodeURIComponent(binId)}` });
  const base = `/bins/${encodeURIComponent(binId)}`;
  const hrefOf = (c: Capture) => `${base}/requests/${encodeURIComponent(c.request_id)}`;

  const needle = filter.trim().toLowerCase();
  const visible = useMemo(() => live.captures.filter((c) => matches(c, needle)), [live.captures, needle]);

  // Read through a ref so the one keydown listener always sees the current list and selection.
  // A layout effect: Preact runs an unmounted view's effect cleanups after paint, and until then j
  // and k would still go to this bin's requests from whatever view came next.
  const keys = useRef({ visible, requestId });
  keys.current = { visible, requestId };
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      if (event.key === '/') {
        event.preventDefault();
        filterField.current?.focus();
        return;
      }
      if (event.key !== 'j' && event.key !== 'k') return;
      const { visible: list, requestId: selected } = keys.current;
      if (list.length === 0) return;
      const at = list.findIndex((c) => c.request_id === selected);
      const next = at < 0 ? 0 : Math.min(list.length - 1, Math.max(0, at + (event.key === 'j' ? 1 : -1)));
      if (at === next) return;
      event.preventDefault();
      navigate(hrefOf(list[next]), { replace: true });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const gone = live.gone ?? failure;
  useEffect(() => {
    if (gone !== null) live.stop();
  }, [gone]);
  if (gone !== null) return <BinGone reason={gone} />;

  const empty = live.loaded && live.captures.length === 0 && live.held === 0;
  return (
    <section class={requestId === undefined || empty ? 'bin-page' : 'bin-page has-selection'}>
      <BinHeader binId={binId} bin={bin} url={url} requestId={requestId} live={live} />
      {live.error !== null && (
        <p class="error" role="alert">
          {live.error}
        </p>
      )}
      <div class={empty ? 'bin-layout is-empty' : 'bin-layout'}>
        <div class="capture-pane">
          <div class="capture-toolbar">
            <label class="visually-hidden" for="capture-filter">
              Filter requests
            </label>
            <input
              id="capture-filter"
              ref={filterField}
              type="search"
              placeholder="Filter (press /)"
              value={filter}
              onInput={(e) => setFilter(e.currentTarget.value)}
              onKeyDown={(e) => {
                // Escape leaves the filter empty and the list whole (Chromium's own clearing fires no input event).
                if (e.key !== 'Escape') return;
                setFilter('');
                e.currentTarget.blur();
              }}
            />
            <span class={`live-indicator live-${live.status}`} role="status">
              {STATUS_TEXT[live.status]}
            </span>
            <button type="button" class="secondary" onClick={() => live.setPaused(!live.paused)}>
              {live.paused ? `Resume (${live.held} new)` : 'Pause'}
            </button>
          </div>
          {!empty && (
            <p class="hint capture-count">
              {!live.loaded
                ? 'Loading requests…'
                : needle === ''
                  ? `${live.captures.length} of ${live.total} requests`
                  : `${visible.length} of ${live.captures.length} loaded requests match`}
            </p>
          )}
          {empty ? (
            <EmptyBin url={url} />
          ) : (
            <CaptureList
              captures={visible}
              selectedId={requestId}
              hrefOf={hrefOf}
              hasOlder={live.hasOlder}
              loadingOlder={live.loadingOlder}
              autoLoadOlder={live.error === null}
              onLoadOlder={live.loadOlder}
            />
          )}
        </div>
        <div class="detail-pane">
          {empty ? null : requestId === undefined ? (
            <p class="hint detail-hint">Select a request to see its headers, query and body. Keys: j and k move, / filters.</p>
          ) : (
            <>
              <Link class="back-link" href={base}>
                ← All requests
              </Link>
              <RequestView key={requestId} binId={binId} requestId={requestId} />
            </>
          )}
        </div>
      </div>
    </section>
  );
}
