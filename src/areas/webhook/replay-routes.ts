import type { FastifyInstance } from 'fastify';
import { performance } from 'node:perf_hooks';
import type { AppContext } from '../../context.js';
import { DevutilError, invalidField } from '../../errors.js';
import { errorResponses } from '../../http/schemas.js';
import { httpMethodPattern } from '../../http/validation.js';
import { buildReplayHeaders } from './replay-headers.js';
import { elapsedSince, REPLAY_BODY_LIMIT, REPLAY_TIMEOUT_MS, sendReplay } from './replay-send.js';
import { checkTarget, parseTargetUrl } from './ssrf-guard.js';

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
  examples: [{
    replayed_to: 'https://example.com/webhooks/stripe',
    response_status: 200,
    response_headers: { 'content-type': 'application/json' },
    response_body: '{"received":true}',
    response_truncated: false,
    elapsed_ms: 84.213,
  }],
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

/** Run `work` with a deadline; past it, 504 `upstream_timeout`. */
function withDeadline<T>(work: Promise<T>, ms: number, host: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DevutilError('upstream_timeout', `${host} could not be resolved within ${ms / 1000} s.`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** `POST /v1/bins/:bin_id/requests/:request_id/replay` (spec §4.1, CONTRACT §2.4). */
export default async function replayRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post<{
    Params: { bin_id: string; request_id: string };
    Body: { target_url: string; method?: string; headers?: Record<string, string> };
  }>('/v1/bins/:bin_id/requests/:request_id/replay', {
    config: { area: 'webhook' },
    schema: {
      summary: 'Replay a captured request to a target URL',
      description: DESCRIPTION,
      params: {
        type: 'object',
        required: ['bin_id', 'request_id'],
        properties: { bin_id: { type: 'string' }, request_id: { type: 'string' } },
      },
      body: replayBody,
      response: { 200: replayResult, ...errorResponses('not_found', 'target_not_allowed', 'upstream_error', 'upstream_timeout') },
    },
  }, async (request) => {
    const { bin_id: binId, request_id: requestId } = request.params;
    const bin = await ctx.store.bins.getBin(binId, ctx.now());
    const ownerId = request.principal?.key?.id;
    if (!bin || ownerId === undefined || bin.ownerKeyId !== ownerId) throw new DevutilError('not_found', `No bin with id ${binId}.`);
    const captured = await ctx.store.bins.getRequest(binId, requestId);
    if (!captured) throw new DevutilError('not_found', `No request ${requestId} in bin ${binId}.`);

    const url = parseTargetUrl(request.body.target_url);
    const method = (request.body.method ?? captured.method).toUpperCase();
    if (method === 'CONNECT') throw invalidField('method', 'CONNECT cannot be replayed');
    const headers = buildReplayHeaders(captured.headers, request.body.headers, url.host);

    const started = performance.now();
    const target = await withDeadline(
      checkTarget(url, { allowPrivate: ctx.config.replayAllowPrivate, allowHosts: ctx.config.replayAllowHosts, resolve: ctx.resolveHost }),
      REPLAY_TIMEOUT_MS,
      url.hostname,
    );
    const answer = await sendReplay({ target, method, headers, body: captured.body, timeoutMs: REPLAY_TIMEOUT_MS - (performance.now() - started) });
    return {
      replayed_to: url.href,
      response_status: answer.status,
      response_headers: answer.headers,
      response_body: answer.body,
      response_truncated: answer.truncated,
      elapsed_ms: elapsedSince(started),
    };
  });
}
