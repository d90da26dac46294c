import { hash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { AppContext } from '../context.js';
import { DevutilError, type ErrorCode } from '../errors.js';
import { mergeErrorResponses } from '../http/schemas.js';
import { prependHook } from '../http/route-hooks.js';
import type { ApiKeyRecord } from '../storage/types.js';
import { andThen, isPromise, type MaybePromise } from '../maybe-promise.js';
import { creditPeriodAt } from './credit-period.js';
import { findActiveKey, type DigestMemo } from './keys.js';
import { costOf, type Area, type Plan } from './plans.js';

/**
 * Every route declares `config.area`: `public` (no key), `admin` (X-Admin-Token), `account`
 * (any valid key, free) or a product area. A route without one stops the app from starting, so
 * an area plugin cannot forget authentication. `free: true` exempts a route from credits.
 */
export type RouteArea = Area | 'public' | 'admin' | 'account';

declare module 'fastify' {
  interface FastifyContextConfig {
    area?: RouteArea;
    free?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
    charge: Charge | null;
  }
  interface FastifyInstance {
    /** Every route with the area it declared (the route-table authentication test walks it). */
    routeTable: { method: string; url: string; area: RouteArea }[];
  }
}

export interface Principal {
  /** null for an anonymous caller of a `PUBLIC_AREAS` area. */
  key: ApiKeyRecord | null;
  plan: Plan;
}

interface Charge {
  keyId: string;
  area: Area;
  period: string;
  cost: number;
  limit: number | null;
  used: number;
}

const RATE_WINDOW_MS = 60_000;
/** Routes plugins register without our config (the docs UI) that are public by nature. */
const PUBLIC_PREFIXES = ['/docs'];

function digest(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

const DIGEST_MEMO = Symbol('devutil.digestMemo');

/**
 * The connection's memo of its last key and digest: it lives and dies with the socket, so a secret
 * is only ever remembered for the connection that sent it (no process-wide table of secrets).
 * Requests without a socket (inject) get none.
 */
function digestMemo(request: FastifyRequest): DigestMemo | undefined {
  const socket = request.raw.socket as (object & { [DIGEST_MEMO]?: DigestMemo }) | null | undefined;
  if (!socket) return undefined;
  return (socket[DIGEST_MEMO] ??= { secret: null, digest: '' });
}

/** Errors each kind of route can answer with before its handler runs (documented in OpenAPI). */
function standardErrors(route: RouteOptions, area: RouteArea): ErrorCode[] {
  const codes: ErrorCode[] = ['internal_error'];
  if (area === 'admin') codes.push('invalid_admin_token');
  if (area !== 'public' && area !== 'admin') {
    codes.push('missing_api_key', 'invalid_api_key', 'rate_limited', 'storage_unavailable');
    if (area !== 'account') codes.push('forbidden', 'credits_exhausted');
  }
  const schema = route.schema ?? {};
  if (schema.body) codes.push('bad_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'validation_error');
  if (schema.querystring || schema.params) codes.push('validation_error');
  return codes;
}

async function authPlugin(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { config, store, now, metrics } = ctx;
  const adminDigest = config.adminToken ? digest(config.adminToken) : null;

  app.decorateRequest('principal', null);
  app.decorateRequest('charge', null);
  app.decorate('routeTable', []);

  app.addHook('onRoute', (route) => {
    let area = route.config?.area;
    if (!area) {
      if (!PUBLIC_PREFIXES.some((p) => route.url.startsWith(p))) {
        throw new Error(`route ${String(route.method)} ${route.url} declares no config.area`);
      }
      area = 'public';
      route.config = { ...(route.config ?? {}), area };
    }
    for (const method of [route.method].flat()) app.routeTable.push({ method, url: route.url, area });
    if (area !== 'public') {
      route.schema = { ...(route.schema ?? {}) };
      route.schema.tags ??= [area === 'admin' || area === 'account' ? 'keys' : area];
      route.schema.security ??= area === 'admin' ? [{ adminToken: [] }] : [{ apiKey: [] }, { marketplace: [], marketplaceHost: [] }];
      const response = { ...((route.schema.response as Record<string, unknown>) ?? {}) };
      mergeErrorResponses(response, standardErrors(route, area));
      route.schema.response = response;
      // Hooks go on the route itself, with its area bound: public routes pay for none of them.
      const routeArea = area;
      const free = route.config?.free === true;
      // Callback-style hooks: when the store answers from memory the request passes without a promise.
      route.onRequest = prependHook(route.onRequest, (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) =>
        settle(() => authenticate(request, reply, routeArea, free), () => done(), done),
      );
      if (area !== 'admin' && area !== 'account' && !free) {
        route.onSend = prependHook(route.onSend, (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) =>
          settle(() => settleCharge(request, reply), () => done(null, payload), (err) => done(err)),
        );
      }
    }
  });

  function authenticate(request: FastifyRequest, reply: FastifyReply, area: Exclude<RouteArea, 'public'>, free: boolean): MaybePromise<void> {
    if (area === 'admin') {
      const given = header(request, 'x-admin-token');
      // Both sides hashed to 32 bytes: comparison time depends on neither value nor length.
      if (!adminDigest || given === undefined || !timingSafeEqual(digest(given), adminDigest)) {
        throw new DevutilError('invalid_admin_token');
      }
      return;
    }
    return andThen(identify(request, area), (principal) => {
      request.principal = principal;
      if (area !== 'account' && !principal.plan.areas.includes(area)) {
        throw new DevutilError('forbidden', `The "${principal.plan.name}" plan does not include the ${area} area.`);
      }
      return andThen(applyRateLimit(request, reply, principal), () => {
        if (area !== 'account' && !free && principal.key) return reserveCredits(request, principal, area);
      });
    });
  }

  function identify(request: FastifyRequest, area: RouteArea): MaybePromise<Principal> {
    const apiKey = header(request, 'x-api-key');
    const marketKey = header(request, 'x-marketplace-key');
    let found: MaybePromise<ApiKeyRecord | null>;
    if (apiKey !== undefined) {
      // A marketplace-bound key is only valid through its proxy (with its host).
      found = andThen(findActiveKey(store.keys, apiKey, digestMemo(request)), (key) => (key?.marketplaceHost ? null : key));
    } else if (marketKey !== undefined) {
      const host = header(request, 'x-marketplace-host')?.toLowerCase();
      found = andThen(findActiveKey(store.keys, marketKey, digestMemo(request)), (key) => (key?.marketplaceHost && key.marketplaceHost === host ? key : null));
    } else {
      if (area !== 'account' && area !== 'admin' && config.publicAreas.includes(area as Area)) {
        return { key: null, plan: config.plans.plans[config.plans.defaultPlan] };
      }
      throw new DevutilError('missing_api_key');
    }
    return andThen(found, (key) => {
      if (!key) throw new DevutilError('invalid_api_key');
      const plan = config.plans.plans[key.plan];
      if (!plan) throw new DevutilError('forbidden', `The key's plan "${key.plan}" is not configured on this server.`);
      return { key, plan };
    });
  }

  function applyRateLimit(request: FastifyRequest, reply: FastifyReply, principal: Principal): MaybePromise<void> {
    const limit = principal.plan.rateLimitPerMinute;
    if (limit === null) return;
    const t = now();
    const windowId = Math.floor(t / RATE_WINDOW_MS);
    const subject = principal.key ? principal.key.id : `ip:${request.ip}`;
    return andThen(store.usage.hitRateLimit(subject, windowId, RATE_WINDOW_MS), (count) => {
      const resetAt = (windowId + 1) * RATE_WINDOW_MS;
      reply.header('x-ratelimit-limit', String(limit));
      reply.header('x-ratelimit-remaining', String(Math.max(0, limit - count)));
      reply.header('x-ratelimit-reset', String(Math.ceil(resetAt / 1000)));
      if (count > limit) {
        throw new DevutilError('rate_limited', `Rate limit of ${limit} requests per minute reached.`, {
          headers: { 'retry-after': String(Math.max(1, Math.ceil((resetAt - t) / 1000))) },
        });
      }
    });
  }

  function reserveCredits(request: FastifyRequest, principal: Principal, area: Area): MaybePromise<void> {
    const cost = costOf(principal.plan, area);
    if (cost === 0) return;
    const t = now();
    const period = creditPeriodAt(t);
    const limit = principal.plan.monthlyCredits;
    const keyId = principal.key!.id;
    return andThen(store.usage.reserveCredits(keyId, period.id, cost, limit), ({ ok, used }) => {
      if (!ok) {
        throw new DevutilError('credits_exhausted', `No credits left this month; they reset at ${period.endIso}.`, {
          headers: {
            'retry-after': String(Math.ceil((period.end - t) / 1000)),
            'x-credits-limit': String(limit),
            'x-credits-remaining': String(Math.max(0, (limit ?? 0) - used)),
          },
        });
      }
      request.charge = { keyId, area, period: period.id, cost, limit, used };
    });
  }

  // A reserved credit is kept only when the call succeeded (2xx); anything else gives it back.
  function settleCharge(request: FastifyRequest, reply: FastifyReply): MaybePromise<void> {
    const charge = request.charge;
    if (!charge) return;
    request.charge = null;
    const ok = reply.statusCode >= 200 && reply.statusCode < 300;
    if (ok) metrics.spend(charge.area, charge.cost);
    return andThen(ok ? charge.used : store.usage.refundCredits(charge.keyId, charge.period, charge.cost), (used) => {
      if (charge.limit !== null) {
        reply.header('x-credits-limit', String(charge.limit));
        reply.header('x-credits-remaining', String(Math.max(0, charge.limit - used)));
      }
    });
  }
}

/** Run `step`; `onDone` when it finished (now or later), `onError` when it threw or rejected. */
function settle(step: () => MaybePromise<void>, onDone: () => void, onError: (err: Error) => void): void {
  let result: MaybePromise<void>;
  try {
    result = step();
  } catch (err) {
    onError(err as Error);
    return;
  }
  if (isPromise(result)) result.then(onDone, onError);
  else onDone();
}

/** Authentication, plans, credits and rate limits for every route of the app. */
export default fp(authPlugin, { name: 'devutil-auth' });
