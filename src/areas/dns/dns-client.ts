import { promises as dns } from 'node:dns';
import { performance } from 'node:perf_hooks';
import { DevutilError, invalidField } from '../../errors.js';
import { createTtlCache } from '../../lib/ttl-cache.js';
import { createQueryTurns, type Ticket } from './query-turns.js';

type Resolver = InstanceType<typeof dns.Resolver>;

/** The DNS record types the client queries (the mail checks are TXT queries). */
export type QueryType = 'A' | 'AAAA' | 'CNAME' | 'MX' | 'NS' | 'TXT' | 'SOA' | 'SRV' | 'CAA' | 'PTR';

/** How each type is asked of node's resolver; `ttl` reads the TTL where node exposes one. */
const QUERIES: Record<QueryType, { run: (r: Resolver, name: string) => Promise<unknown[]>; ttl?: (answers: unknown[]) => number }> = {
  A: { run: (r, n) => r.resolve4(n, { ttl: true }), ttl: minTtl },
  AAAA: { run: (r, n) => r.resolve6(n, { ttl: true }), ttl: minTtl },
  CNAME: { run: (r, n) => r.resolveCname(n) },
  MX: { run: (r, n) => r.resolveMx(n) },
  NS: { run: (r, n) => r.resolveNs(n) },
  TXT: { run: (r, n) => r.resolveTxt(n) },
  SOA: { run: async (r, n) => [await r.resolveSoa(n)] },
  SRV: { run: (r, n) => r.resolveSrv(n) },
  CAA: { run: (r, n) => r.resolveCaa(n) },
  PTR: { run: (r, n) => r.resolvePtr(n) },
};

/** node:dns error codes meaning "no such name" (NXDOMAIN) or "no record of that type" (NODATA). */
const EMPTY_ANSWER_CODES = new Set(['ENOTFOUND', 'ENODATA']);

/** Cache bounds: answers without a TTL from node (all but A/AAAA) are kept DEFAULT_TTL seconds. */
const CACHE = { maxEntries: 10_000, minTtlSeconds: 1, maxTtlSeconds: 3600, defaultTtlSeconds: 60, negativeTtlSeconds: 15 };

/**
 * Each query gets resolvers of its own with one try of the whole 5 s budget. A shared c-ares channel
 * (1.34) shortens its tries to about a second once it has seen fast answers, and drops an answer that
 * arrives after its own retry: an upstream answering in 2 s was a 504 after 3 s (CONTRACT §6: 5 s).
 * A fresh channel costs about 14 µs, and answers are cached.
 */
const RESOLVER_OPTIONS = { timeout: 5000, tries: 1 };
/** A query's whole time, its wait for a turn included: past it, 504 `upstream_timeout` (CONTRACT §6). */
const QUERY_BUDGET_MS = RESOLVER_OPTIONS.timeout;
/** Without an answer by then the query goes out again (a lost UDP datagram), first to the next server; the first outcome wins. */
export const RESEND_AFTER_MS = 1500;
/**
 * Most resolvers working at once, each holding a UDP socket: a query holds two at most (its first and
 * its resend), so MAX_RESOLVERS / 2 queries run at once and the others wait their turn. A silent
 * upstream under a flood of distinct names then cannot use up the process's file descriptors, and a
 * resend never waits for a turn (it would never get one while every turn waits on a silent server).
 */
export const MAX_RESOLVERS = 256;
/**
 * Queries one caller may have running at once: a quarter of the turns, so a caller's flood of slow
 * names leaves the others turns to spare (a DKIM lookup without a selector asks 22 names at once).
 */
export const MAX_QUERIES_PER_CALLER = MAX_RESOLVERS / 8;
/** A waiting query with less of its budget left than this is not started (it could not be answered in time). */
const MIN_START_BUDGET_MS = 50;

/** node:dns error codes meaning a server did answer, if only with a failure (not so: ETIMEOUT, ECONNREFUSED for a closed port, ECANCELLED). */
const ANSWERED_CODES = new Set(['ENOTFOUND', 'ENODATA', 'ESERVFAIL', 'EREFUSED', 'ENOTIMP', 'EFORMERR', 'EBADRESP']);

export interface DnsClientOptions {
  /** `ip` or `ip:port` entries (`[v6]:port`); empty means the system's resolvers. */
  servers: readonly string[];
  now: () => number;
}

/** Cached, coalescing DNS queries. */
export interface DnsClient {
  /**
   * Answers of one type at one name; `[]` for NXDOMAIN/NODATA; DevutilError on upstream failure.
   * `caller` (a key id or a client address) shares the upstream turns fairly; the answer never depends on it.
   * `deadlineAt` (a `performance.now()` reading) ends the query sooner than its own 5 s (the asking lookup's end).
   */
  query(type: QueryType, name: string, caller?: string, deadlineAt?: number): Promise<unknown[]>;
  /** The cached answers, if fresh, without querying. */
  peek(type: QueryType, name: string): unknown[] | undefined;
  /** Cancel queries still running or waiting (at shutdown). */
  close(): void;
}

/**
 * Create a DNS client over node's c-ares resolver (which retries over TCP when a UDP answer is
 * truncated). Answers are cached by (type, name) honouring TTLs within bounds; negative answers
 * are cached briefly; failures are not cached. Identical queries in flight share one request.
 * Queries start on the server that last answered a resend after the one before it in the list
 * stayed silent, so a dead first server costs one resend, not one per query. At most
 * {@link MAX_RESOLVERS} resolvers work at once, and one caller's queries take at most
 * {@link MAX_QUERIES_PER_CALLER} of the turns (src/areas/dns/query-turns.ts).
 *
 * @example
 *   const client = createDnsClient({ servers: ['127.0.0.1:5353'], now: Date.now });
 *   await client.query('MX', 'example.com'); // [{ exchange: 'mx.example.com', priority: 10 }]
 */
export function createDnsClient(options: DnsClientOptions): DnsClient {
  const cache = createTtlCache<unknown[]>({ ...CACHE, now: options.now });
  const inFlight = new Map<string, Flight>();
  const { servers } = options;
  /** Fails a query not yet settled, for close(). */
  const unsettled = new Set<(err: Error) => void>();
  const turns = createQueryTurns({ running: MAX_RESOLVERS / 2, perOwner: MAX_QUERIES_PER_CALLER, minBudgetMs: MIN_START_BUDGET_MS });
  /** Index in `servers` where a query's first resolver starts (the resend starts on the next one). */
  let preferred = 0;

  /** A resolver for the servers from the `first`-th on, then the others (c-ares moves on to the next after a failure). */
  function resolverFor(first: number): Resolver {
    const resolver = new dns.Resolver(RESOLVER_OPTIONS);
    if (servers.length > 0) {
      const at = first % servers.length;
      resolver.setServers([...servers.slice(at), ...servers.slice(0, at)]);
    }
    return resolver;
  }

  /** A query under way: its outcome, and how another caller asking the same joins its wait for a turn. */
  interface Flight {
    answer: Promise<unknown[]>;
    /** `deadlineAt` is the caller's own: the query lasts until the latest of its callers' (5 s from its start at most). */
    join(caller: string, deadlineAt: number): void;
  }

  /**
   * `run` on a fresh resolver once the query has a turn, and again on another starting on the next
   * server after {@link RESEND_AFTER_MS} without an outcome: the first outcome settles it, or
   * the latest deadline of the callers asking it (`performance.now()` readings, 5 s from its start at
   * most). Every caller asking the same query waits for a turn of its own, until its own deadline; the
   * first turn given runs it for all of them, and the others stop waiting.
   */
  function attempt(caller: string, callerDeadline: number, run: (r: Resolver) => Promise<unknown[]>): Flight {
    let join: Flight['join'] = () => undefined;
    const latest = performance.now() + QUERY_BUDGET_MS;
    const answer = new Promise<unknown[]>((resolve, reject) => {
      const mine: Resolver[] = [];
      let base = 0;
      /** The caller whose turn runs the query, once one was given. */
      let holder: string | null = null;
      /** The askers' tickets still waiting for a turn. */
      const waiting = new Map<Ticket, string>();
      let settled = false;
      let resend: NodeJS.Timeout | undefined;
      const stopWaiting = () => {
        for (const [ticket, asker] of waiting) turns.drop(asker, ticket);
        waiting.clear();
      };
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(resend);
        clearTimeout(deadline);
        unsettled.delete(fail);
        for (const r of mine) r.cancel();
        stopWaiting();
        if (holder !== null) turns.release(holder);
        outcome();
      };
      const fail = (err: Error) => settle(() => reject(err));
      let deadlineAt = -Infinity;
      let deadline: NodeJS.Timeout | undefined;
      /** The query lasts until `at` now, if that is later than before. */
      const lastUntil = (at: number) => {
        if (at <= deadlineAt) return;
        deadlineAt = at;
        clearTimeout(deadline);
        deadline = setTimeout(() => fail(timeoutError()), Math.max(0, deadlineAt - performance.now()));
      };
      const start = (index: number) => {
        const r = resolverFor(base + index);
        mine.push(r);
        let answers: Promise<unknown[]>;
        try {
          answers = run(r);
        } catch (err) {
          return fail(err as Error);
        }
        // An outcome from the resend means the server before it stayed silent: later queries start on the resend's.
        const answered = () => {
          if (!settled && index > 0 && servers.length > 1) preferred = (base + index) % servers.length;
        };
        answers.then(
          (found) => {
            answered();
            settle(() => resolve(found));
          },
          (err: NodeJS.ErrnoException) => {
            if (ANSWERED_CODES.has(err.code ?? '')) answered();
            fail(err);
          },
        );
      };
      const ticketFor = (asker: string, askerDeadline: number): Ticket => {
        const ticket: Ticket = {
          deadlineAt: askerDeadline,
          begin: () => {
            waiting.delete(ticket);
            holder = asker;
            stopWaiting();
            base = preferred;
            resend = setTimeout(() => start(1), RESEND_AFTER_MS);
            start(0);
          },
          expire: () => {
            waiting.delete(ticket);
            if (waiting.size === 0 && holder === null) fail(timeoutError());
          },
        };
        return ticket;
      };
      join = (asker, askerDeadline) => {
        if (settled) return;
        const until = Math.min(latest, askerDeadline);
        lastUntil(until);
        // A caller already waiting with as long a deadline needs no second ticket.
        if (holder !== null || [...waiting].some(([t, a]) => a === asker && t.deadlineAt >= until)) return;
        const ticket = ticketFor(asker, until);
        waiting.set(ticket, asker);
        turns.take(asker, ticket);
      };
      unsettled.add(fail);
    });
    join(caller, callerDeadline);
    return { answer, join };
  }

  /** A query as a flight whose answer is cached (negative answers too) and whose failures are DevutilErrors. */
  function ask(type: QueryType, name: string, key: string, caller: string, deadlineAt: number): Flight {
    const row = QUERIES[type];
    const flight = attempt(caller, deadlineAt, (r) => row.run(r, name));
    const answer = flight.answer.then(
      (answers) => {
        cache.set(key, answers, row.ttl?.(answers) ?? CACHE.defaultTtlSeconds);
        return answers;
      },
      (err: unknown) => {
        const code = (err as NodeJS.ErrnoException).code ?? '';
        if (EMPTY_ANSWER_CODES.has(code)) {
          cache.set(key, [], CACHE.negativeTtlSeconds);
          return [];
        }
        throw toUpstreamError(code, type, name, err);
      },
    );
    return { answer, join: flight.join };
  }

  let closed = false;
  return {
    query(type, name, caller = '', deadlineAt = Infinity) {
      const key = `${type}:${name}`;
      const cached = cache.get(key);
      if (cached) return Promise.resolve(cached);
      if (closed) return Promise.reject(toUpstreamError('ECANCELLED', type, name, new Error('The DNS client was closed.')));
      const flight = inFlight.get(key);
      if (flight) {
        flight.join(caller, deadlineAt);
        return flight.answer;
      }
      // The query's budget: 5 s, and for each caller never past its lookup (SPF includes come late in one).
      const started = ask(type, name, key, caller, deadlineAt);
      const answer = started.answer.finally(() => inFlight.delete(key));
      inFlight.set(key, { answer, join: started.join });
      return answer;
    },
    peek(type, name) {
      return cache.get(`${type}:${name}`);
    },
    close() {
      closed = true;
      // First: a running query cancelled below must not hand its turn to a waiting one.
      turns.close();
      for (const fail of [...unsettled]) fail(Object.assign(new Error('The DNS client was closed.'), { code: 'ECANCELLED' }));
    },
  };
}

/**
 * Run `work` with an overall deadline: past `ms`, answer 504 `upstream_timeout` (the query's own
 * resolvers give up at the same 5 s, so a later answer is not waited for).
 *
 * @example
 *   await withDeadline(client.query('A', 'example.com'), 5000);
 */
export async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DevutilError('upstream_timeout', `The DNS servers did not answer within ${ms / 1000} s.`)), ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** The error of a query whose budget ran out, as node:dns reports its own timeouts. */
function timeoutError(): Error {
  return Object.assign(new Error(`No answer within ${QUERY_BUDGET_MS} ms.`), { code: 'ETIMEOUT' });
}

/** A TTL with the top bit set means 0 (RFC 2181 §8); node gives the 32 bits as received. */
export const readTtl = (ttl: number): number => (ttl > 0x7fffffff ? 0 : ttl);

/** How long an answer is cached: its shortest TTL as RFC 2181 reads it (then bounded by CACHE). */
function minTtl(answers: unknown[]): number {
  const ttls = (answers as { ttl: number }[]).map((a) => readTtl(a.ttl));
  return ttls.length > 0 ? Math.min(...ttls) : CACHE.defaultTtlSeconds;
}

function toUpstreamError(code: string, type: QueryType, name: string, cause: unknown): DevutilError {
  if (code === 'ETIMEOUT')
    return new DevutilError('upstream_timeout', `The DNS servers did not answer the ${type} query for ${name} in time.`, { cause });
  if (code === 'EBADNAME') return invalidField('domain', `is not a name the resolver accepts: ${name}`);
  const reason =
    code === 'ESERVFAIL' ? 'answered SERVFAIL' : code === 'EREFUSED' ? 'refused the query' : `failed (${code || 'unknown error'})`;
  return new DevutilError('upstream_error', `The DNS server ${reason} for the ${type} query of ${name}.`, { cause });
}
