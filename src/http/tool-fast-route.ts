import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import fastJson from 'fast-json-stringify';
import type { Charge, Gate, Pass } from '../auth/gate.js';
import type { Area } from '../auth/plans.js';
import type { AppContext } from '../context.js';
import { isPromise, type MaybePromise } from '../maybe-promise.js';
import { toDevutilError, validationFailure } from './error-handler.js';
import type { FastRoute } from './fast-path.js';
import { contentCodingRefusal, emptyBodyFailure, emptyJsonBody, JSON_BODY_LIMIT, jsonBodyText, parseJsonBody } from './json-body.js';
import { writeHeadTrusted } from './prevalidated-head.js';
import { JSON_TYPE, sendRawError } from './raw-response.js';
import { whenAnswered } from './answered-response.js';
import { readBody } from './request-body.js';
import { writeThrough } from './write-batching.js';
import { lazyRequestLogger } from './request-logger.js';
import { requestRecorder } from './request-record.js';
import { toolCaller, type ToolRun } from './tool-route.js';
import type { BodyValidator } from './validation.js';

export interface ToolFastRouteOptions {
  /** The tool's Fastify route (`postTool`): its URL, area, body and 200 schemas and its function. */
  url: string;
  area: Area;
  bodySchema: object;
  responseSchema: object;
  run: ToolRun;
  /** The app's body validator compiler (the function Fastify validates this route's body with). */
  compileBody: (schema: object) => BodyValidator;
  gate: Gate;
  ctx: Pick<AppContext, 'metrics' | 'requestId' | 'logRequests'>;
  log: FastifyBaseLogger;
}


/**
 * The requests a tool fast route takes: the common shape of an API call; anything else goes to
 * Fastify (a browser's cross-origin call, with `Origin`, too: Fastify adds the CORS headers).
 */
function isPlainCall(headers: IncomingHttpHeaders): boolean {
  const type = headers['content-type']?.toLowerCase();
  return (
    // An empty key is no key (anonymous in a public area, rate-limited by the TRUST_PROXY-aware address).
    typeof headers['x-api-key'] === 'string' && headers['x-api-key'] !== '' &&
    headers.origin === undefined &&
    headers['x-marketplace-key'] === undefined &&
    headers['transfer-encoding'] === undefined &&
    headers['content-length'] !== undefined &&
    (type === 'application/json' || type === JSON_TYPE)
  );
}

/** `next(step())` now or once it resolves; `fail` when it throws or rejects. */
function then<T>(step: () => MaybePromise<T>, next: (value: T) => void, fail: (err: unknown) => void): void {
  let value: MaybePromise<T>;
  try {
    value = step();
  } catch (err) {
    return fail(err);
  }
  if (isPromise(value)) value.then(next, fail);
  else next(value);
}

/**
 * A pre-router fast route for one tool (see `postTool`): the request's whole lifecycle of the
 * Fastify route in one function, with the same parts: the gate (key, plan, rate limit, credits),
 * the body reader and JSON parser, the route's body validator, the tool, fast-json-stringify on
 * the route's 200 schema, the error catalogue, X-Request-Id, metrics and the request log line.
 * Fastify's hooks, request/reply objects and promise wrapping are what it saves.
 *
 * {@link toolFastRoutes} hands it only `POST` requests to its exact URL (no query string); it takes
 * those with `X-API-Key`, a Content-Length and `Content-Type: application/json`, and Fastify serves
 * the rest (marketplace keys, anonymous public areas, chunked bodies, other media types, `inject()`).
 */
function toolFastRoute(options: ToolFastRouteOptions): FastRoute {
  const { url, area, bodySchema, responseSchema, run, compileBody, gate, ctx } = options;
  const record = requestRecorder(ctx.metrics, url, ctx.logRequests);
  // Compiled on first use: the validator is then the one Fastify compiled for the route.
  let validate: BodyValidator | undefined;
  let serialize: ((value: unknown) => string) | undefined;

  return (req, res) => {
    if (!isPlainCall(req.headers)) return false;
    // Answers go out batched, as Fastify's do (only mock and catch answers are written through).
    writeThrough(req.socket, false);
    const requestId = ctx.requestId(req);
    const log = lazyRequestLogger(options.log, { reqId: requestId });
    const started = performance.now();
    whenAnswered(res, () => record('POST', res.statusCode, performance.now() - started, log));
    const headers: Record<string, string> = { 'x-request-id': requestId };
    let charge: Charge | null = null;
    let pass: Pass | null = null;

    /** Settle the credits for `status`, then `send` with their headers (a failed refund is the answer then). */
    const settleThen = (status: number, send: (credits: Record<string, string> | null) => void) => {
      const held = charge;
      charge = null;
      if (held === null) return send(null);
      then(() => gate.settle(held, status), send, (err) => sendRawError(res, err, headers, log));
    };
    const fail = (err: unknown) => {
      const e = toDevutilError(err);
      settleThen(e.status, (credits) => sendRawError(res, e, credits ? Object.assign({}, headers, credits) : headers, log));
    };
    const succeed = (result: unknown) => {
      serialize ??= fastJson(responseSchema);
      let text: string;
      try {
        text = serialize(result);
      } catch (err) {
        return fail(err);
      }
      settleThen(200, (credits) => {
        // A flat list: in an object literal after a spread, V8 defines each property through its runtime
        // (0.7 µs a property, bench/object-spread.mjs).
        const list = ['x-request-id', requestId, 'content-type', JSON_TYPE, 'content-length', String(Buffer.byteLength(text))];
        if (pass !== null && pass.headers) for (const name in pass.headers) list.push(name, pass.headers[name]!);
        if (credits) for (const name in credits) list.push(name, credits[name]!);
        // Names are constants; values a request id, digits and the JSON type: nothing for node:http to check again.
        writeHeadTrusted(res, 200, list);
        res.end(text);
      });
    };
    // As Fastify does when a body cannot be read or parsed: the client may still be sending, so close.
    const unreadable = (err: unknown) => {
      headers.connection = 'close';
      fail(err);
    };
    const work = (raw: Buffer) => {
      let parsed: unknown;
      try {
        parsed = parseJsonBody(jsonBodyText(raw));
      } catch (err) {
        return unreadable(err);
      }
      // As the Fastify route (src/http/json-body.ts): an empty body is `{}`, so the schema names the missing
      // fields, and an empty one that fails is a 400 invalid_json; `null` is a body that is not an object (422).
      const body = parsed === undefined ? emptyJsonBody() : parsed;
      then(() => {
        validate ??= compileBody(bodySchema);
        if (!validate(body)) {
          const failure = validationFailure(validate.errors ?? [], 'body');
          throw emptyBodyFailure(body, failure) ?? failure;
        }
        return run(body as never, toolCaller(pass?.principal ?? null, () => req.socket.remoteAddress ?? ''));
      }, succeed, fail);
    };

    then(
      () => gate.admit({ headers: req.headers, socket: req.socket, ip: () => req.socket.remoteAddress ?? '' }, area, false),
      (admitted) => {
        pass = admitted;
        charge = admitted.charge;
        if (admitted.headers) Object.assign(headers, admitted.headers);
        const refusal = contentCodingRefusal(req.headers);
        if (refusal) return unreadable(refusal);
        readBody(req.headers, req, JSON_BODY_LIMIT, (err, raw) => (err ? unreadable(err) : work(raw!)));
      },
      fail,
    );
    return true;
  };
}

/**
 * The tool fast routes of an app: `add` one per `postTool` route, and `route`, the one fast route
 * that finds a tool's by exact URL in a single map lookup. Tools are all POST, so other requests
 * (mock hits) are declined before their URL is hashed.
 *
 * @example
 *   const tools = toolFastRoutes();
 *   fastRoutes.push(tools.route);
 *   tools.add({ url: '/v1/array-ops', area: 'devtools', bodySchema, responseSchema, run, compileBody, gate, ctx, log });
 */
export function toolFastRoutes(): { add: (options: ToolFastRouteOptions) => void; route: FastRoute } {
  const byUrl = new Map<string, FastRoute>();
  return {
    add: (options) => void byUrl.set(options.url, toolFastRoute(options)),
    route: (req, res) => req.method === 'POST' && (byUrl.get(req.url!)?.(req, res) ?? false),
  };
}
