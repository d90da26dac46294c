// "Copy as cURL": a bash command that sends a captured request again, byte for byte, to the same
// catch URL. No imports, so the Node tests run it exactly as the browser does.

/** The fields of a captured request (CONTRACT §2.3) the command is made from. */
export interface CurlSource {
  method: string;
  path: string;
  query_string: string;
  headers: Record<string, string>;
  body: string;
  body_encoding: string;
}

/** Never copied: connection-specific headers and those curl computes (as a replay does, src/areas/webhook/replay-headers.ts). */
const SKIPPED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authenticate',
  'proxy-authorization',
  'host',
  'content-length',
]);

/** How a stored header value marks bytes that are not UTF-8 (CONTRACT §2.3). */
const HEADER_BYTES_PREFIX = 'base64:';

/**
 * Above this many bytes of arguments a body goes through a pipe: Linux refuses a single argument
 * over 128 KiB (MAX_ARG_STRLEN), while `printf` is a shell builtin with no such limit.
 */
const ARGUMENT_LIMIT = 64 * 1024;

/** Older curl versions add `Expect: 100-continue` to a body over 1024 bytes unless told not to. */
const EXPECT_THRESHOLD = 1024;

const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f]/;

const hex = (code: number) => '\\x' + code.toString(16).padStart(2, '0');

/**
 * `text` as one bash word: in single quotes (`'` written `'\''`), or in ANSI-C quotes `$'…'` when
 * it holds a tab, CR or other control character, which a terminal could change on paste.
 *
 * @example
 *   quote("it's") // 'it'\''s'
 *   quote('a\tb') // $'a\x09b'
 */
export function quote(text: string): string {
  if (PLAIN_WORD.test(text)) return text;
  if (!CONTROL.test(text)) return `'${text.replaceAll("'", "'\\''")}'`;
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '\\' || char === "'") out += '\\' + char;
    else if (char === '\n') out += '\\n';
    else if (code < 0x20 || code === 0x7f) out += hex(code);
    else out += char;
  }
  return `$'${out}'`;
}

/** Bytes (one character per byte) as one ANSI-C quoted bash word: printable ASCII as is, the rest `\xHH`. */
function quoteBytes(bytes: string): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const code = bytes.charCodeAt(i);
    if (bytes[i] === '\\' || bytes[i] === "'") out += '\\' + bytes[i];
    else if (code < 0x20 || code >= 0x7f) out += hex(code);
    else out += bytes[i];
  }
  return `$'${out}'`;
}

/** The UTF-8 bytes of `text` in base64. */
function utf8Base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The `-H` arguments of one stored header: one per Set-Cookie line (stored joined with line feeds). */
function headerArguments(name: string, stored: string): string[] {
  const raw = stored.startsWith(HEADER_BYTES_PREFIX);
  const value = raw ? atob(stored.slice(HEADER_BYTES_PREFIX.length)) : stored;
  const lines = name === 'set-cookie' ? value.split('\n') : [value];
  // `-H 'name:'` would remove the header; `-H 'name;'` is curl's way to send it empty.
  return lines.map((line) => `-H ${line === '' ? quote(`${name};`) : raw ? quoteBytes(`${name}: ${line}`) : quote(`${name}: ${line}`)}`);
}

/** The byte length of `text` in UTF-8. */
const byteLength = (text: string) => new TextEncoder().encode(text).length;

/**
 * A bash command that sends `request` again to `origin` + its path and query: the same method,
 * every captured header except hop-by-hop ones, `host` and `content-length` (curl's own defaults
 * removed where the capture had none), and the body's exact bytes.
 *
 * A text body goes in `--data-binary '…'`. A binary body (or text holding a NUL, which no shell
 * argument can carry) is piped as base64 through `base64 -d` into `--data-binary @-`: unlike
 * `@<(…)` this works in any POSIX shell, and `base64 -d` is in GNU coreutils and macOS alike.
 * Text too long for one argument is piped the same way, by `printf` alone.
 *
 * @example
 *   buildCurlCommand({ method: 'PUT', path: '/v1/catch/bin_x', query_string: 'a=1', body: "it's", body_encoding: 'utf8',
 *     headers: { 'content-type': 'text/plain', 'user-agent': 'x', accept: 'text/plain' } }, 'http://localhost:8080')
 *   // curl -X PUT 'http://localhost:8080/v1/catch/bin_x?a=1' \
 *   //   -H 'content-type: text/plain' \
 *   //   -H 'user-agent: x' \
 *   //   -H 'accept: text/plain' \
 *   //   --data-binary 'it'\''s'
 */
export function buildCurlCommand(request: CurlSource, origin: string): string {
  const { method, path, query_string: query, headers, body } = request;
  const encoded = request.body_encoding === 'base64';
  const binary = encoded || body.includes('\0');
  const size = encoded ? atob(body).length : byteLength(body);
  const url = origin + path + (query === '' ? '' : `?${query}`);

  const first = ['curl'];
  if (method === 'HEAD' && size === 0) first.push('--head');
  else if (method !== (size > 0 ? 'POST' : 'GET')) first.push(`-X ${quote(method)}`);
  // curl reads [] and {} in a URL as ranges, and folds /./ and /../ segments, unless told not to.
  if (/[[\]{}]/.test(url)) first.push('--globoff');
  if (/(^|\/)\.\.?(\/|$)/.test(path)) first.push('--path-as-is');
  first.push(quote(url));

  const args = [first.join(' ')];
  const named = new Set((headers.connection ?? '').split(',').map((s) => s.trim().toLowerCase()));
  for (const [name, value] of Object.entries(headers)) {
    if (!SKIPPED.has(name) && !named.has(name)) args.push(...headerArguments(name, value));
  }
  const has = (name: string) => Object.hasOwn(headers, name);
  if (!has('user-agent')) args.push("-H 'User-Agent:'");
  if (!has('accept')) args.push("-H 'Accept:'");
  if (size > 0 && !has('content-type')) args.push("-H 'Content-Type:'");
  if (size > EXPECT_THRESHOLD && !has('expect')) args.push("-H 'Expect:'");

  let input = '';
  if (binary) {
    input = `printf %s ${quote(encoded ? body : utf8Base64(body))} | base64 -d | `;
    args.push('--data-binary @-');
  } else if (size > 0) {
    const word = quote(body);
    if (byteLength(word) > ARGUMENT_LIMIT) {
      input = `printf %s ${word} | `;
      args.push('--data-binary @-');
    } else {
      // --data-binary would read a file named by a leading @; --data-raw sends the same bytes without that rule.
      args.push(`${body.startsWith('@') ? '--data-raw' : '--data-binary'} ${word}`);
    }
  }
  return input + args.join(' \\\n  ');
}
