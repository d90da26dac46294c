// The captured requests of one bin as the bin page shows them: the newest page, then every capture
// of the live stream (held while paused), older pages on demand, each request once.
import { useEffect, useReducer, useRef, useState } from 'preact/hooks';
import { ApiError, type ApiClient, type ApiResult } from '../api';
import { openLiveStream, type LiveStatus, type LiveStream } from '../live-stream';

/** A request as the list and the stream give it (no headers or body). */
export type Capture = ApiResult<'get', '/v1/bins/{bin_id}/requests'>['requests'][number];

/** Requests per page, the API's largest. */
export const PAGE_SIZE = 200;

/**
 * How long a 404 waits, while the stream is open, for the stream's `end` event: a deletion is named
 * there at once, where a 404 only says that the bin is not there (an expiry is noticed at the
 * stream's next heartbeat, so it usually stays "does not exist or has expired").
 */
const END_EVENT_WAIT_MS = 2_000;

interface State {
  /** Newest first. */
  shown: Capture[];
  /** Arrived while paused, newest first. */
  held: Capture[];
  ids: Set<string>;
  paused: boolean;
  /** Requests the bin retains, as of the last page plus the live ones since. */
  total: number;
  hasOlder: boolean;
  loaded: boolean;
}

type Action =
  | { type: 'page'; requests: Capture[]; total: number; older: boolean }
  | { type: 'live'; capture: Capture }
  | { type: 'pause'; paused: boolean }
  | { type: 'cleared' };

const byNewest = (a: Capture, b: Capture) => Date.parse(b.timestamp) - Date.parse(a.timestamp);

/** `known` and `page` (both newest first) as one list, newest first, each request once. */
function merge(known: Capture[], page: Capture[], ids: Set<string>): Capture[] {
  const fresh = page.filter((c) => !ids.has(c.request_id));
  if (fresh.length === 0) return known;
  // A stable sort: requests of equal timestamps keep the order they were captured in.
  return [...known, ...fresh].sort(byNewest);
}

function reduce(state: State, action: Action): State {
  switch (action.type) {
    case 'page': {
      const seen = new Set(state.ids);
      const shown = merge(state.shown, action.requests, state.ids);
      for (const c of action.requests) seen.add(c.request_id);
      const known = shown.length + state.held.length;
      return {
        ...state,
        shown,
        ids: seen,
        total: Math.max(action.total, known),
        hasOlder: action.older ? action.requests.length === PAGE_SIZE && known < action.total : action.total > action.requests.length,
        loaded: true,
      };
    }
    case 'live': {
      if (state.ids.has(action.capture.request_id)) return state;
      const ids = new Set(state.ids).add(action.capture.request_id);
      const total = state.total + 1;
      if (state.paused) return { ...state, ids, total, held: [action.capture, ...state.held] };
      return { ...state, ids, total, shown: [action.capture, ...state.shown] };
    }
    case 'pause':
      if (action.paused) return { ...state, paused: true };
      return { ...state, paused: false, shown: [...state.held, ...state.shown], held: [] };
    case 'cleared':
      return { ...state, shown: [], held: [], total: 0, hasOlder: false };
  }
}

const INITIAL: State = { shown: [], held: [], ids: new Set(), paused: false, total: 0, hasOlder: false, loaded: false };

/** Why a bin's page can no longer show it: `bin_deleted`, `bin_expired`, `not_found` or `unauthorized`. */
export type GoneReason = string;

/** The reason a failed call means the bin is out of reach for good, else null (worth retrying). */
export function goneReasonOf(err: unknown): GoneReason | null {
  if (!(err instanceof ApiError)) return null;
  if (err.status === 404) return 'not_found';
  if (err.status === 401 || err.status === 403) return 'unauthorized';
  return null;
}

export interface BinCaptures {
  /** Newest first, without the held ones. */
  captures: Capture[];
  held: number;
  paused: boolean;
  setPaused(paused: boolean): void;
  status: LiveStatus;
  total: number;
  loaded: boolean;
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder(): void;
  /** Forget the listed requests after the API has cleared them. */
  cleared(): void;
  /** Stop listening (before this page deletes the bin itself). */
  stop(): void;
  /** Another read found the bin out of reach: shown as {@link gone}, after the stream had a moment to say why. */
  reportGone(reason: GoneReason): void;
  gone: GoneReason | null;
  /** A failure to load a page that is worth showing (the stream retries on its own). */
  error: string | null;
}

/**
 * The requests of `binId`, kept up to date by its live stream. The stream is opened before the
 * first page is read, so a request captured in between is in one or the other (or both: each
 * request is listed once); after a drop the stream resumes from the newest request known.
 *
 * @example
 *   const { captures, status } = useBinCaptures(api, 'bin_x');
 */
export function useBinCaptures(api: ApiClient, binId: string): BinCaptures {
  const [state, dispatch] = useReducer(reduce, INITIAL);
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [gone, setGone] = useState<GoneReason | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const stream = useRef<LiveStream | null>(null);
  const streamOpen = useRef(false);
  /** Set while a 404 waits for the stream's `end` event: no more pages are read meanwhile. */
  const givingUp = useRef<ReturnType<typeof setTimeout> | null>(null);
  const known = useRef(0);
  known.current = state.shown.length + state.held.length;

  /** The bin is out of reach; the first reason given stands, the stream's own when its `end` event comes in time. */
  const reportGone = (reason: GoneReason) => {
    const giveUp = () => {
      stream.current?.close();
      setGone((given) => given ?? reason);
    };
    if (reason !== 'not_found' || !streamOpen.current) giveUp();
    else givingUp.current ??= setTimeout(giveUp, END_EVENT_WAIT_MS);
  };

  const readPage = async (offset: number) => {
    if (givingUp.current !== null) return;
    try {
      const page = await api.get('/v1/bins/{bin_id}/requests', { path: { bin_id: binId }, query: { limit: PAGE_SIZE, offset } });
      dispatch({ type: 'page', requests: page.requests, total: page.total, older: offset > 0 });
      setError(null);
      const newest = page.requests[0];
      if (offset === 0 && newest !== undefined) stream.current?.resumeFrom(newest.request_id);
    } catch (err) {
      const reason = goneReasonOf(err);
      if (reason === null) setError(err instanceof ApiError ? err.detail : String(err));
      else reportGone(reason);
    }
  };

  useEffect(() => {
    let firstPage = false;
    const readFirstPage = () => {
      if (firstPage) return;
      firstPage = true;
      void readPage(0);
    };
    const live = openLiveStream({
      open: (headers, signal) => api.fetch(`/v1/bins/${encodeURIComponent(binId)}/stream`, { headers, signal, cache: 'no-store' }),
      onEvent(event) {
        if (event.type === 'request') dispatch({ type: 'live', capture: JSON.parse(event.data) as Capture });
        // The server could not resume from our id: what was missed is in the newest page.
        else if (event.type === 'reset') void readPage(0);
      },
      onStatus(next) {
        setStatus(next);
        streamOpen.current = next === 'live';
        // The first page waits for the stream to be open (or to have failed once), so nothing falls in between.
        if (next === 'live' || next === 'reconnecting') readFirstPage();
      },
      onClosed: (reason) => setGone((given) => given ?? reason),
      isFinal: goneReasonOf,
    });
    stream.current = live;
    return () => {
      live.close();
      if (givingUp.current !== null) clearTimeout(givingUp.current);
      givingUp.current = null;
    };
  }, [api, binId]);

  return {
    captures: state.shown,
    held: state.held.length,
    paused: state.paused,
    setPaused: (paused) => dispatch({ type: 'pause', paused }),
    status,
    total: state.total,
    loaded: state.loaded,
    hasOlder: state.hasOlder,
    loadingOlder,
    loadOlder() {
      if (loadingOlder || givingUp.current !== null) return;
      setLoadingOlder(true);
      void readPage(known.current).finally(() => setLoadingOlder(false));
    },
    cleared: () => dispatch({ type: 'cleared' }),
    stop: () => stream.current?.close(),
    reportGone,
    gone,
    error,
  };
}
