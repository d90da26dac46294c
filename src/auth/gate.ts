import { hash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { AppContext } from '../context.js';
import { DevutilError } from '../errors.js';
import type { ApiKeyRecord } from '../storage/types.js';
import { creditPeriodAt, type CreditPeriod } from './credit-period.js';
import type { CachedKeyStore } from './key-cache.js';
import { keyDigest, type DigestMemo } from './keys.js';
import { costOf, findPlan, type Area, type Plan } from './plans.js';

/**
 * Every route declares `config.area`: `public` (no key), `admin` (X-Admin-Token), `account`
 * (any valid key, free) or a product area.
 */
export type RouteArea = Area | 'public' | 'admin' | 'account';

export interface Principal {
  /** null for an anonymous caller of a `PUBLIC_AREAS` area. */
  key: ApiKeyRecord | null;
  plan: Plan;
}

/** Credits reserved for one call, kept or given back once its status is known. */
export interface Charge {
  keyId: string;
  area: Area;
  period: string;
  cost: number;
  limit: number | null;
  used: number;
}

/** What a request brings to the gate (the auth plugin reads it from Fastify's request). */
export interface GateRequest {
  headers: IncomingHttpHeaders;
  /** The connection: its memo of the last key digest (none for `inject()`). */
  socket: object | null | undefined;
  /** The client address (TRUST_PROXY aware), read only for anonymous callers of a public area. */
  ip: () => string;
}

/** A request let through: who it is, the credits it holds, and the rate-limit headers to answer with. */
export interface Pass {
  /** null on admin routes. */
  principal: Principal | null;
  charge: Charge | null;
  headers: Record<string, string> | null;
}

export interface Gate {
  /**
   * Authenticate, check the plan's areas, count the request against the rate limit and reserve
   * its credits. Refusals throw a DevutilError (401, 403, 429) whose headers include the
   * rate-limit headers when the limit was counted.
   */
  admit(request: GateRequest, area: Exclude<RouteArea, 'public'>, free: boolean): Promise<Pass>;
  /** Keep the credits of a call that delivered its result (a 2xx); the X-Credits-* headers to send. */
  keep(charge: Charge): Record<string, string> | null;
  /** Give back the credits of a call that failed, or of a HEAD that ran the work but sent no result; the X-Credits-* headers to send. */
  refund(charge: Charge): Promise<Record<string, string> | null>;
  /** Areas open to callers without a key (`PUBLIC_AREAS`). */
  readonly publicAreas: readonly Area[];
  /** Whether a call in `area` costs credits on any configured plan (plans are fixed at startup). */
  charges(area: Area): boolean;
}

const RATE_WINDOW_MS = 60_000;

/** The X-Credits-* headers of a charged call once `used` credits of the period are spent; none without a monthly limit. */
function creditHeaders(charge: Charge, used: number): Record<string, string> | null {
  return charge.limit === null
    ? null
    : { 'x-credits-limit': String(charge.limit), 'x-credits-remaining': String(Math.max(0, charge.limit - used)) };
}

function digest(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}

/** A request header's value; an empty one counts as absent (`X-API-Key:` with no value is a missing key). */
function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  const value = Array.isArray(v) ? v[0] : v;
  return value === '' ? undefined : value;
}

/** The key a request presents: its secret, sent directly or through a marketplace proxy (with the proxy's host). */
type PresentedKey = { secret: string; via: 'direct' } | { secret: string; via: 'marketplace'; host: string | undefined };

/** The key a request presents: `X-API-Key`, else a marketplace proxy's `X-Marketplace-Key`; null for none. */
function presentedKey(headers: IncomingHttpHeaders): PresentedKey | null {
  const apiKey = header(headers, 'x-api-key');
  if (apiKey !== undefined) return { secret: apiKey, via: 'direct' };
  const marketKey = header(headers, 'x-marketplace-key');
  if (marketKey !== undefined) return { secret: marketKey, via: 'marketplace', host: header(headers, 'x-marketplace-host')?.toLowerCase() };
  return null;
}

/**
 * The connection's memo of its last key and digest: it lives and dies with the socket, so a secret
 * is only ever remembered for the connection that sent it (no process-wide table of secrets).
 */
const digestMemos = new WeakMap<object, DigestMemo>();
function digestMemo(socket: GateRequest['socket']): DigestMemo | undefined {
  if (!socket) return undefined;
  let memo = digestMemos.get(socket);
  if (!memo) digestMemos.set(socket, (memo = { secret: null, digest: '' }));
  return memo;
}

/**
 * Authentication, plans, rate limits and credits, independent of the HTTP framework: the auth
 * plugin (src/auth/plugin.ts) runs it for every route that is not public.
 *
 * @example
 *   const gate = createGate(ctx, await withKeyCache(store.keys, Date.now, store.pubsub));
 *   const pass = await gate.admit({ headers: req.headers, socket: req.socket, ip: () => '' }, 'devtools', false);
 *   // ... answer ..., then
 *   if (pass.charge) gate.keep(pass.charge); // a 2xx → { 'x-credits-limit': '1000', 'x-credits-remaining': '999' } (else await gate.refund(pass.charge))
 */
export function createGate(
  { config, store, now, metrics }: Pick<AppContext, 'config' | 'store' | 'now' | 'metrics'>,
  keys: CachedKeyStore,
): Gate {
  const adminDigest = config.adminToken ? digest(config.adminToken) : null;

  /** The caller's principal for the key it presents, once its record is known (null: unknown). */
  function principalOf(presented: PresentedKey, record: ApiKeyRecord | null): Principal {
    // A marketplace-bound key is valid only through its proxy (with its host), and a proxy may present only such a key.
    const valid =
      record !== null &&
      record.revokedAt === null &&
      (presented.via === 'direct' ? !record.marketplaceHost : !!record.marketplaceHost && record.marketplaceHost === presented.host);
    if (!valid) throw new DevutilError('invalid_api_key');
    const plan = findPlan(config.plans, record.plan);
    if (!plan) throw new DevutilError('forbidden', `The key's plan "${record.plan}" is not configured on this server.`);
    return { key: record, plan };
  }

  /** The principal of a caller that presents no key: anonymous in a public area, else refused. */
  function admitWithoutKey(area: RouteArea): Principal {
    if (area !== 'account' && area !== 'admin' && config.publicAreas.includes(area as Area)) {
      return { key: null, plan: findPlan(config.plans, config.plans.defaultPlan)! };
    }
    throw new DevutilError('missing_api_key');
  }

  async function countRequest(request: GateRequest, principal: Principal, limit: number): Promise<Record<string, string>> {
    const t = now();
    const windowId = Math.floor(t / RATE_WINDOW_MS);
    const subject = principal.key ? principal.key.id : `ip:${request.ip()}`;
    const count = await store.usage.hitRateLimit(subject, windowId, RATE_WINDOW_MS);
    const resetAt = (windowId + 1) * RATE_WINDOW_MS;
    const headers = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - count)),
      'x-ratelimit-reset': String(Math.ceil(resetAt / 1000)),
    };
    if (count > limit) {
      throw new DevutilError('rate_limited', `Rate limit of ${limit} requests per minute reached.`, {
        headers: { ...headers, 'retry-after': String(Math.max(1, Math.ceil((resetAt - t) / 1000))) },
      });
    }
    return headers;
  }

  /** The refusal (429 `credits_exhausted`) of a call whose `cost` does not fit in what is left of the period's `limit`; `rateHeaders` go out with it too. */
  function creditsExhausted(
    period: CreditPeriod,
    t: number,
    cost: number,
    limit: number,
    used: number,
    rateHeaders: Record<string, string> | null,
  ): DevutilError {
    const left = Math.max(0, limit - used);
    const why =
      left === 0
        ? 'No credits left this month'
        : `This call costs ${cost} credits and ${left} ${left === 1 ? 'is' : 'are'} left this month`;
    return new DevutilError('credits_exhausted', `${why}; they reset at ${period.endIso}.`, {
      headers: {
        ...rateHeaders,
        'retry-after': String(Math.ceil((period.end - t) / 1000)),
        'x-credits-limit': String(limit),
        'x-credits-remaining': String(left),
      },
    });
  }

  return {
    publicAreas: config.publicAreas,
    charges: (area) => Object.values(config.plans.plans).some((plan) => costOf(plan, area) > 0),
    async admit(request, area, free) {
      if (area === 'admin') {
        const given = header(request.headers, 'x-admin-token');
        // Both sides hashed to 32 bytes: comparison time depends on neither value nor length.
        if (!adminDigest || given === undefined || !timingSafeEqual(digest(given), adminDigest)) {
          throw new DevutilError('invalid_admin_token');
        }
        return { principal: null, charge: null, headers: null };
      }
      const presented = presentedKey(request.headers);
      let principal: Principal;
      if (presented === null) principal = admitWithoutKey(area);
      else {
        const digest = keyDigest(presented.secret, digestMemo(request.socket));
        if (digest === null) throw new DevutilError('invalid_api_key');
        // A cached key is read synchronously, so the common path has no await.
        principal = principalOf(presented, keys.cached(digest) ?? (await keys.findKeyByDigest(digest)));
      }
      if (area !== 'account' && !principal.plan.areas.includes(area)) {
        throw new DevutilError('forbidden', `The "${principal.plan.name}" plan does not include the ${area} area.`);
      }
      // A plan without a rate limit, or a call that costs nothing, has nothing to count or reserve.
      const rateLimit = principal.plan.rateLimitPerMinute;
      const headers = rateLimit === null ? null : await countRequest(request, principal, rateLimit);
      if (area === 'account' || free || !principal.key) return { principal, charge: null, headers };
      const cost = costOf(principal.plan, area);
      if (cost === 0) return { principal, charge: null, headers };
      // Awaited here rather than in a helper: every metered call passes this way, and one suspended
      // function costs less than two (bench/README.md, "Design figures").
      const t = now();
      const period = creditPeriodAt(t);
      const limit = principal.plan.monthlyCredits;
      const keyId = principal.key.id;
      const { ok, used } = await store.usage.reserveCredits(keyId, period.id, cost, limit);
      if (!ok) throw creditsExhausted(period, t, cost, limit ?? 0, used, headers);
      return { principal, charge: { keyId, area, period: period.id, cost, limit, used }, headers };
    },

    // Reserved credits are already counted: keeping them needs no store call.
    keep(charge) {
      metrics.spend(charge.area, charge.cost);
      return creditHeaders(charge, charge.used);
    },
    async refund(charge) {
      return creditHeaders(charge, await store.usage.refundCredits(charge.keyId, charge.period, charge.cost));
    },
  };
}
