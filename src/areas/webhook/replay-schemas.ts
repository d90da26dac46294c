import { errorResponses } from '../../http/schemas.js';
import { httpMethodPattern } from '../../http/validation.js';
import { requestParams } from './request-schemas.js';
import { REPLAY_BODY_LIMIT, REPLAY_TIMEOUT_MS } from './replay-send.js';

/** Schemas of the replay endpoint (spec §4.1, CONTRACT §2.4). */

/** The body of a replay once validated. */
export interface ReplayBody {
  target_url: string;
  method?: string;
  headers?: Record<string, string>;
}

const replayBody = {
  type: 'object',
  required: ['target_url'],
  additionalProperties: false,
  properties: {
    target_url: { type: 'string', minLength: 1, maxLength: 2048, description: 'Absolute http:// or https:// URL.' },
    method: { type: 'string', ...httpMethodPattern(true), maxLength: 32, description: 'Overrides the captured method (upper-cased).' },
    headers: {
      type: 'object',
      maxProperties: 100,
      additionalProperties: { type: 'string', maxLength: 8192 },
      description: 'Merged over the captured headers (names case-insensitive).',
    },
  },
  examples: [{ target_url: 'https://example.com/webhooks/stripe', headers: { 'x-replayed-by': 'devutil' } }],
} as const;

const replayResult = {
  type: 'object',
  required: ['replayed_to', 'response_status', 'response_headers', 'response_body', 'response_truncated', 'elapsed_ms'],
  properties: {
    replayed_to: { type: 'string' },
    response_status: { type: 'integer' },
    response_headers: { type: 'object', additionalProperties: { type: 'string' } },
    response_body: { type: 'string', description: `First ${REPLAY_BODY_LIMIT} bytes of the answer as UTF-8 text.` },
    response_truncated: { type: 'boolean' },
    elapsed_ms: { type: 'number' },
  },
  examples: [
    {
      replayed_to: 'https://example.com/webhooks/stripe',
      response_status: 200,
      response_headers: { 'content-type': 'application/json' },
      response_body: '{"received":true}',
      response_truncated: false,
      elapsed_ms: 84.213,
    },
  ],
} as const;

const DESCRIPTION = `Sends a captured request again, to \`target_url\`: the captured method (or \`method\`), the captured
headers minus hop-by-hop headers, \`host\`, \`content-length\` and \`expect\` (\`headers\` merged over them; \`host\`
defaults to the target's and may be overridden), and the body's exact bytes, so signatures over the body still verify.
Header values go out as the bytes captured: stored text as UTF-8, a \`base64:\` value as its bytes; \`headers\` values
are read the same way (text sent as UTF-8, \`base64:…\` for other bytes).

SSRF guard: the target's host is resolved once and refused with 422 \`target_not_allowed\` when ANY of its addresses
is not public unicast (loopback, private, link-local incl. 169.254.169.254, CGNAT, multicast, unspecified, broadcast,
documentation, benchmark, reserved, and IPv4-mapped/compatible/NAT64/6to4 IPv6 forms of those, fc00::/7, fe80::/10);
\`localhost\` names are loopback. The connection goes to the address that was checked (no DNS rebinding).
Literal hosts are read as WHATWG URL does (\`127.1\`, \`2130706433\`, \`0x7f000001\` are 127.0.0.1).
\`REPLAY_ALLOW_PRIVATE=true\` lifts the guard; \`REPLAY_ALLOW_HOSTS\` (host or host:port) exempts listed targets.

Redirects are not followed: a 3xx is reported with its \`location\` header. The whole exchange has ${REPLAY_TIMEOUT_MS / 1000} s:
no status line by then → 504 \`upstream_timeout\`; a body still arriving then is cut (\`response_truncated: true\`).
Unresolvable host, refused connection, TLS or protocol failure → 502 \`upstream_error\`. At most ${REPLAY_BODY_LIMIT} bytes of
the answer are read, then the connection is closed. \`elapsed_ms\` includes name resolution.`;

export const replaySchema = {
  operationId: 'replayRequest',
  summary: 'Replay a captured request to a target URL',
  description: DESCRIPTION,
  params: requestParams,
  body: replayBody,
  response: { 200: replayResult, ...errorResponses('not_found', 'target_not_allowed', 'upstream_error', 'upstream_timeout') },
};
