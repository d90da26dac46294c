import { printable, say, type Paint } from './output.js';

/** A captured request as the API shows it (CONTRACT §2.3); headers and body only in the detail. */
export interface CaptureView {
  request_id: string;
  bin_id: string;
  method: string;
  path: string;
  query_string: string;
  content_type: string;
  content_length: number;
  source_ip: string;
  timestamp: string;
  headers?: Record<string, string>;
  body?: string;
  body_encoding?: 'utf8' | 'base64';
}

/**
 * The capture's path after its bin's catch path (`/` when none), with `?query` when it had one.
 *
 * @example
 *   subPathOf({ bin_id: 'bin_1', path: '/v1/catch/bin_1/a', query_string: 'x=1' }) // '/a?x=1'
 */
export function subPathOf(capture: Pick<CaptureView, 'bin_id' | 'path' | 'query_string'>): string {
  const prefix = `/v1/catch/${capture.bin_id}`;
  const sub = capture.path.startsWith(prefix) ? capture.path.slice(prefix.length) : capture.path;
  return (sub || '/') + (capture.query_string ? `?${capture.query_string}` : '');
}

/** One line for a capture: time, method, sub-path and query, size, content type, source address (sender's text {@link printable}). */
export function captureLine(capture: CaptureView, paint: Paint, clock: (d: Date) => string): string {
  const type = capture.content_type ? `  ${printable(capture.content_type)}` : '';
  return `${paint.dim(clock(new Date(capture.timestamp)))}  ${paint.bold(capture.method)} ${printable(subPathOf(capture))}  ${capture.content_length} B${type}  ${paint.dim(capture.source_ip)}`;
}

/** A capture in full: its line, then its headers, then its body (base64 bodies stay base64, marked so), all {@link printable}. */
export function printCaptureFull(capture: CaptureView, paint: Paint, clock: (d: Date) => string): void {
  say(captureLine(capture, paint, clock));
  say(paint.dim(`  ${capture.request_id}`));
  for (const [name, value] of Object.entries(capture.headers ?? {})) say(`  ${paint.bold(printable(name))}: ${printable(value)}`);
  if (capture.body) {
    say('');
    if (capture.body_encoding === 'base64') say(paint.dim(`  (${capture.content_length} bytes, not UTF-8: base64)`));
    say(printable(capture.body).replace(/^/gm, '  '));
  }
  say('');
}
