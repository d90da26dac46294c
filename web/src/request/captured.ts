// A captured request as the API gives it (CONTRACT §2.3), and what the view derives from it: the
// body's bytes, a file name to save them under, sizes in words.
import type { ApiResult } from '../api';

export type CapturedRequest = ApiResult<'get', '/v1/bins/{bin_id}/requests/{request_id}'>['request'];

/** The exact bytes of a body: base64 decoded, or the UTF-8 of the text. */
export function bodyBytes({ body, body_encoding }: Pick<CapturedRequest, 'body' | 'body_encoding'>): Uint8Array {
  if (body_encoding !== 'base64') return new TextEncoder().encode(body);
  const binary = atob(body);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** The media type of a Content-Type value, lower-cased and without parameters. */
export function mediaTypeOf(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

/** File extensions by media type; a structured suffix (`+json`) or a text type gives the rest. */
const EXTENSIONS: Record<string, string> = {
  'application/json': 'json',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/csv': 'csv',
  'text/css': 'css',
  'text/javascript': 'js',
  'application/javascript': 'js',
  'application/yaml': 'yaml',
  'text/yaml': 'yaml',
  'application/x-www-form-urlencoded': 'txt',
  'multipart/form-data': 'txt',
  'application/pdf': 'pdf',
  'application/zip': 'zip',
  'application/gzip': 'gz',
  'application/octet-stream': 'bin',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
};

/**
 * The name to save a body under: the request id and an extension from its content type.
 *
 * @example
 *   downloadName({ request_id: 'req_1', content_type: 'application/json; charset=utf-8', body_encoding: 'utf8' }) // 'req_1.json'
 *   downloadName({ request_id: 'req_1', content_type: '', body_encoding: 'base64' }) // 'req_1.bin'
 */
export function downloadName({
  request_id,
  content_type,
  body_encoding,
}: Pick<CapturedRequest, 'request_id' | 'content_type' | 'body_encoding'>): string {
  const type = mediaTypeOf(content_type);
  const known = EXTENSIONS[type] ?? (type.endsWith('+json') ? 'json' : type.endsWith('+xml') ? 'xml' : undefined);
  const extension = known ?? (type.startsWith('text/') || (type === '' && body_encoding === 'utf8') ? 'txt' : 'bin');
  return `${request_id}.${extension}`;
}

/** Save `bytes` as a file named `name` through a temporary object URL. */
export function saveBytes(bytes: Uint8Array, name: string): void {
  // Always octet-stream: the browser saves the file and never renders a captured HTML or SVG body.
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

const count = new Intl.NumberFormat(undefined);
const decimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1, minimumFractionDigits: 1 });

/**
 * A byte count in words.
 *
 * @example
 *   formatSize(1) // '1 byte'
 *   formatSize(1536) // '1.5 KiB'
 */
export function formatSize(bytes: number): string {
  if (bytes === 1) return '1 byte';
  if (bytes < 1024) return `${count.format(bytes)} bytes`;
  if (bytes < 1024 * 1024) return `${decimal.format(bytes / 1024)} KiB`;
  return `${decimal.format(bytes / (1024 * 1024))} MiB`;
}
