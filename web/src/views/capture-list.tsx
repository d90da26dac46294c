import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { formatSize } from '../request/captured';
import { Link } from '../router';
import type { Capture } from './bin-captures';

/** Pixel height of one row: must equal `.capture-row`'s height in styles.css. */
export const ROW_HEIGHT = 56;
/** Rows rendered beyond each edge of the visible part, so a fast scroll shows no blank. */
const OVERSCAN = 8;
/** Start loading older requests when the visible part comes this close to the end. */
const LOAD_AHEAD = 20;

/** Methods with a colour of their own in styles.css; any other method gets the neutral one. */
const METHOD_CLASSES: Record<string, string> = {
  GET: 'method-get',
  POST: 'method-post',
  PUT: 'method-put',
  PATCH: 'method-patch',
  DELETE: 'method-delete',
};

const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const exact = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/**
 * The part of a captured path after the bin's catch path, with the query; `/` for the bare catch path.
 *
 * @example
 *   pathOf({ path: '/v1/catch/bin_x/stripe', query_string: 'a=1', bin_id: 'bin_x' }) // '/stripe?a=1'
 */
export function pathOf(capture: Pick<Capture, 'path' | 'query_string' | 'bin_id'>): string {
  const prefix = `/v1/catch/${capture.bin_id}`;
  let path = capture.path.startsWith(prefix) ? capture.path.slice(prefix.length) : capture.path;
  if (path === '') path = '/';
  return capture.query_string === '' ? path : `${path}?${capture.query_string}`;
}

/**
 * A blank block `height` pixels tall standing for rows that are not rendered: an SVG's height
 * attribute, as the CSP forbids inline style.
 */
function Spacer({ height }: { height: number }) {
  return <svg class="capture-spacer" aria-hidden="true" focusable="false" width="1" height={height} />;
}

function CaptureRow({
  capture,
  href,
  selected,
  index,
  count,
}: {
  capture: Capture;
  href: string;
  selected: boolean;
  index: number;
  count: number;
}) {
  const at = Date.parse(capture.timestamp);
  return (
    <li class="capture-row" aria-posinset={index + 1} aria-setsize={count}>
      <Link href={href} class={selected ? 'capture selected' : 'capture'} aria-current={selected ? 'true' : undefined}>
        <span class={`capture-method ${METHOD_CLASSES[capture.method] ?? 'method-other'}`}>{capture.method}</span>
        <span class="capture-path">{pathOf(capture)}</span>
        <span class="capture-meta">
          <time dateTime={capture.timestamp} title={exact.format(at)}>
            {clock.format(at)}
          </time>
          {' · '}
          {formatSize(capture.content_length)}
        </span>
      </Link>
    </li>
  );
}

export interface CaptureListProps {
  captures: Capture[];
  selectedId: string | undefined;
  hrefOf(capture: Capture): string;
  hasOlder: boolean;
  loadingOlder: boolean;
  /** Load older pages on scrolling near the end; off after a failure, so the button retries instead of a loop. */
  autoLoadOlder: boolean;
  onLoadOlder(): void;
}

/**
 * The captured requests, newest first, as a windowed list: only the rows in view (plus a margin)
 * are in the DOM, so a bin of a thousand requests scrolls as fast as one of ten.
 */
export function CaptureList({ captures, selectedId, hrefOf, hasOlder, loadingOlder, autoLoadOlder, onLoadOlder }: CaptureListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(800);
  // The request at the top of the view, so rows arriving above it do not push it away.
  const anchor = useRef<{ id: string; offset: number } | null>(null);

  useLayoutEffect(() => {
    const el = scroller.current!;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    setHeight(el.clientHeight);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    const el = scroller.current!;
    const kept = anchor.current;
    if (kept === null || el.scrollTop === 0) return;
    const index = captures.findIndex((c) => c.request_id === kept.id);
    if (index >= 0 && index * ROW_HEIGHT + kept.offset !== el.scrollTop) {
      el.scrollTop = index * ROW_HEIGHT + kept.offset;
      setScrollTop(el.scrollTop);
    }
  }, [captures]);

  // Bring the selected row into view once each time the selection moves (j/k, a deep link whose row loads later).
  const revealed = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (revealed.current === selectedId) return;
    const el = scroller.current!;
    const index = captures.findIndex((c) => c.request_id === selectedId);
    if (index < 0) return;
    revealed.current = selectedId;
    const top = index * ROW_HEIGHT;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW_HEIGHT - el.clientHeight;
  }, [selectedId, captures]);

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(captures.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);

  useEffect(() => {
    if (autoLoadOlder && hasOlder && !loadingOlder && last >= captures.length - LOAD_AHEAD) onLoadOlder();
  }, [autoLoadOlder, hasOlder, loadingOlder, last, captures.length]);

  const onScroll = () => {
    const el = scroller.current!;
    setScrollTop(el.scrollTop);
    const top = captures[Math.floor(el.scrollTop / ROW_HEIGHT)];
    anchor.current = top === undefined ? null : { id: top.request_id, offset: el.scrollTop % ROW_HEIGHT };
  };

  return (
    <div class="capture-scroller" ref={scroller} onScroll={onScroll}>
      <Spacer height={first * ROW_HEIGHT} />
      <ol class="capture-list" aria-label="Captured requests">
        {captures.slice(first, last).map((capture, i) => (
          <CaptureRow
            key={capture.request_id}
            capture={capture}
            href={hrefOf(capture)}
            selected={capture.request_id === selectedId}
            index={first + i}
            count={captures.length}
          />
        ))}
      </ol>
      <Spacer height={(captures.length - last) * ROW_HEIGHT} />
      {hasOlder && (
        <p class="capture-older">
          <button type="button" class="secondary" onClick={onLoadOlder} disabled={loadingOlder}>
            {loadingOlder ? 'Loading older requests…' : 'Load older requests'}
          </button>
        </p>
      )}
    </div>
  );
}
