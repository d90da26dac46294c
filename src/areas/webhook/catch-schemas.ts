import { errorResponses } from '../../http/schemas.js';

/** Schemas of the catch path (CONTRACT §2.2), at the base path of a bin and at its sub-paths. */

const captureResponse = {
  type: 'object',
  required: ['ok', 'bin_id', 'request_id'],
  properties: { ok: { type: 'boolean', const: true }, bin_id: { type: 'string' }, request_id: { type: 'string' } },
  examples: [{ ok: true, bin_id: 'bin_4fQ9xT2mZk8Lr0aBcDeFgH', request_id: 'req_00000CQK7hJ2kLm9Np0Qr3StUvWx' }],
} as const;

const DESCRIPTION = `No key needed: the bin id is the capability. Every method is captured (HEAD, OPTIONS and extension
methods such as PURGE or PROPFIND included), at the base path and any sub-path. Stored: method, full path, raw query
string, headers (lower-cased names, repeated ones joined with ", ", Cookie with "; ", Set-Cookie with a line feed; a value
is its UTF-8 text, or \`base64:\` and the bytes in base64 when they are not valid UTF-8), the body's exact bytes whatever its content type
(a body sent with GET is kept too), and the source IP (the first X-Forwarded-For hop only when TRUST_PROXY is set, without
a port a proxy may append; a hop that is not an IP address gives the socket address).
The 200 is sent only once the capture is durably stored. Bodies above MAX_BODY_BYTES (default 1 MiB) get 413 and
nothing is stored. A bin keeps its newest BIN_MAX_REQUESTS (default 1000) requests. Responses carry
Access-Control-Allow-Origin: *, X-Content-Type-Options: nosniff and Content-Security-Policy: sandbox; a CORS preflight
(OPTIONS with Access-Control-Request-Method) is captured and answered with permissive Allow-Methods/Allow-Headers.
HEAD gets the same status and headers without a body. Sub-paths (/v1/catch/{bin_id}/any/path) and
every other method the HTTP parser accepts are captured the same way. Unknown, deleted and expired bins answer 404.
A query string or path holding raw (not percent-encoded) non-ASCII bytes, as \`curl "…?city=Zürich"\` sends it, is not
valid HTTP: the parser refuses it before capture with 400 \`bad_request\` saying to percent-encode it
(\`curl -G --data-urlencode 'city=Zürich' …\` sends \`city=Z%c3%bcrich\`, stored as it is).
A request id is \`req_\`, the request's number in its bin in 6 base62 digits (\`req_000001…\` is a bin's first
capture; a bin takes at most 4294967295 captures), 22 random base62 characters (131 bits) and 6 hex digits that tie them
to the bin (so a stream resuming after an id can tell another bin's from its own once neither is kept). Ids given
before they carried the tag end after the random characters; ids given by the Redis store before they carried the
number have the capture time there instead (epoch milliseconds, 8 base62 digits).`;

/** The methods OpenAPI can document, each with its own operation: the other methods are hidden copies of them. */
export type DocumentedMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** The catch's operationIds (CONTRACT §0): POST, the usual webhook delivery, has the plain name. */
export const catchOperationIds: Record<DocumentedMethod, string> = {
  POST: 'captureRequest',
  GET: 'captureRequestGet',
  HEAD: 'captureRequestHead',
  PUT: 'captureRequestPut',
  PATCH: 'captureRequestPatch',
  DELETE: 'captureRequestDelete',
  OPTIONS: 'captureRequestOptions',
};

/** The same at a sub-path of the bin. */
export const catchSubPathOperationIds: Record<DocumentedMethod, string> = {
  POST: 'captureRequestAtSubPath',
  GET: 'captureRequestGetAtSubPath',
  HEAD: 'captureRequestHeadAtSubPath',
  PUT: 'captureRequestPutAtSubPath',
  PATCH: 'captureRequestPatchAtSubPath',
  DELETE: 'captureRequestDeleteAtSubPath',
  OPTIONS: 'captureRequestOptionsAtSubPath',
};

export const catchSchema = {
  summary: 'Capture any request sent to a bin',
  description: DESCRIPTION,
  tags: ['webhook'],
  response: { 200: captureResponse, ...errorResponses('not_found', 'payload_too_large', 'storage_unavailable') },
};

export const catchSubPathSchema = {
  ...catchSchema,
  summary: 'Capture any request sent to a sub-path of a bin',
  description: `${DESCRIPTION}\nThe sub-path (\`*\`, any number of segments) is stored in \`path\` with the rest of the request path.`,
};
