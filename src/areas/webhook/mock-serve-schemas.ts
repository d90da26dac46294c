import { errorResponses } from '../../http/schemas.js';
import type { DocumentedMethod } from './catch-schemas.js';

/** Schema of the mock serving path (spec §4.2, CONTRACT §2.5), at the base path of a mock and at its sub-paths. */

const DESCRIPTION = `No key needed: the mock id is the capability. Answers every method (unless the mock sets \`method\`:
others get 405 with \`Allow\`; a GET mock also answers HEAD) at the base path and every sub-path (unless the mock sets
\`path\`: other sub-paths get 404). Any request body and content type is accepted and ignored (up to MAX_BODY_BYTES).

The response has the configured status, headers, content type (\`content_type\`, which wins over a \`content-type\` header; without it, that header) and
body (\`body\`, else \`response_body\` JSON-encoded), plus \`X-Mock-Id\`, \`Access-Control-Allow-Origin: *\` (a custom
header may replace it) and, always, \`X-Content-Type-Options: nosniff\` and \`Content-Security-Policy: sandbox\`.
A browser's CORS preflight (OPTIONS with \`Origin\` and \`Access-Control-Request-Method\`) is answered for the mock, as
Mockoon does, unless its \`method\` is OPTIONS: 204 with \`Access-Control-Allow-Origin\` (the mock's own, else \`*\`),
\`-Allow-Methods\` (the mock's method, or the one asked), \`-Allow-Headers\` (those asked) and \`-Max-Age: 86400\` (a
mock's own \`access-control-*\` headers win); it is neither delayed nor counted as a hit.
HEAD, 204 and 304 carry no body; 205 (Reset Content) answers with \`Content-Length: 0\` and no body, as RFC 9110 requires.

Informational \`status_code\` 100-199: a 1xx cannot be a final answer (a client would wait forever for the real one),
so the mock first sends the informational response when it is one Node sends safely to an HTTP/1.1 client
(100 Continue, 102 Processing, 103 Early Hints when the mock has a \`Link\` header), then a final **200** with the configured headers and
body and \`X-Mock-Status\` set to the configured code. 101 (which would switch protocols) and the other 1xx codes get
only that final 200.

\`delay_ms\` is a timer: it blocks no other request, and when the client disconnects during the delay the timer is
cleared, nothing is sent and the request is not counted. \`hit_count\` is incremented just before each response is
sent, so it is exact as soon as the response arrives. On the embedded SQLite store the count is kept in memory and
written to disk within a second (and before any listing), so a crash of the process can forget at most the last second of
hits; on Redis each hit is an atomic increment. Unknown, deleted and expired mocks answer 404.`;

/** The serving path's operationIds (CONTRACT §0): GET, the usual call of a mock, has the plain name. */
export const serveMockOperationIds: Record<DocumentedMethod, string> = {
  GET: 'serveMock',
  HEAD: 'serveMockHead',
  POST: 'serveMockPost',
  PUT: 'serveMockPut',
  PATCH: 'serveMockPatch',
  DELETE: 'serveMockDelete',
  OPTIONS: 'serveMockOptions',
};

export const serveMockSchema = {
  summary: 'Serve a mock',
  description: DESCRIPTION,
  tags: ['webhook'],
  response: {
    200: {
      description: "The mock's configured status (a 1xx is answered with 200, see above), headers, content type and body.",
      type: 'string',
      examples: ['{"status":"paid"}'],
    },
    204: {
      description: "A browser's CORS preflight, answered for the mock (see above); also a mock configured with status 204.",
      type: 'null',
    },
    ...errorResponses('not_found', 'method_not_allowed', 'payload_too_large', 'storage_unavailable'),
  },
};
