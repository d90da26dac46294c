import { promises as dns } from 'node:dns';
import { DevutilError, invalidField } from '../../errors.js';
import { createTtlCache } from '../../ttl-cache.js';

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
/** Without an answer by then the query goes out again (a lost UDP datagram), first to the next server; the first outcome wins. */
export const RESEND_AFTER_MS = 1500;

export interface DnsClientOptions {
  /** `ip` or `ip:port` entries (`[v6]:port`); empty means the system's resolvers. */
  servers: readonly string[];
  now: () => number;
}

/** Cached, coalescing DNS queries. */
export interface DnsClient {
  /** Answers of one type at one name; `[]` for NXDOMAIN/NODATA; DevutilError on upstream failure. */
  query(type: QueryType, name: string): Promise<unknown[]>;
  /** The cached answers, if fresh, without querying. */
  peek(type: QueryType, name: string): unknown[] | undefined;
  /** Cancel queries still running (at shutdown). */
  close(): void;
}

/**
 * Create a DNS client over node's c-ares resolver (which retries over TCP when a UDP answer is
 * truncated). Answers are cached by (type, name) honouring TTLs within bounds; negative answers
 * are cached briefly; failures are not cached. Identical queries in flight share one request.
 *
 * @example
 *   const client = createDnsClient({ servers: ['127.0.0.1:5353'], now: Date.now });
 *   await client.query('MX', 'example.com'); // [{ exchange: 'mx.example.com', priority: 10 }]
 */
export function createDnsClient(options: DnsClientOptions): DnsClient {
  const cache = createTtlCache<unknown[]>({ ...CACHE, now: options.now });
  const inFlight = new Map<string, Promise<unknown[]>>();
  const working = new Set<Resolver>();

  /** A resolver for one attempt: the servers from the `attempt`-th on, then the others (c-ares moves on to the next after a failure). */
  function resolverFor(attempt: number): Resolver {
    const resolver = new dns.Resolver(RESOLVER_OPTIONS);
    const { servers } = options;
    if (servers.length > 0) {
      const first = attempt % servers.length;
      resolver.setServers([...servers.slice(first), ...servers.slice(0, first)]);
    }
    return resolver;
  }

  /** `run` on a fresh resolver, and again on another after {@link RESEND_AFTER_MS} without an outcome: the first outcome settles it. */
  function attempt(run: (r: Resolver) => Promise<unknown[]>): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      const mine: Resolver[] = [];
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(resend);
        for (const r of mine) {
          working.delete(r);
          r.cancel();
        }
        outcome();
      };
      const start = () => {
        const r = resolverFor(mine.length);
        mine.push(r);
        working.add(r);
        let running: Promise<unknown[]>;
        try {
          running = run(r);
        } catch (err) {
          return settle(() => reject(err));
        }
        running.then((answers) => settle(() => resolve(answers)), (err: unknown) => settle(() => reject(err)));
      };
      const resend = setTimeout(start, RESEND_AFTER_MS);
      start();
    });
  }

  async function ask(type: QueryType, name: string, key: string): Promise<unknown[]> {
    const row = QUERIES[type];
    try {
      const answers = await attempt((r) => row.run(r, name));
      cache.set(key, answers, row.ttl?.(answers) ?? CACHE.defaultTtlSeconds);
      return answers;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (EMPTY_ANSWER_CODES.has(code)) {
        cache.set(key, [], CACHE.negativeTtlSeconds);
        return [];
      }
      throw toUpstreamError(code, type, name, err);
    }
  }

  return {
    query(type, name) {
      const key = `${type}:${name}`;
      const cached = cache.get(key);
      if (cached) return Promise.resolve(cached);
      let pending = inFlight.get(key);
      if (!pending) {
        pending = ask(type, name, key).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return pending;
    },
    peek(type, name) {
      return cache.get(`${type}:${name}`);
    },
    close() {
      for (const r of working) r.cancel();
      working.clear();
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

function minTtl(answers: unknown[]): number {
  const ttls = (answers as { ttl: number }[]).map((a) => a.ttl);
  return ttls.length > 0 ? Math.min(...ttls) : CACHE.defaultTtlSeconds;
}

function toUpstreamError(code: string, type: QueryType, name: string, cause: unknown): DevutilError {
  if (code === 'ETIMEOUT') return new DevutilError('upstream_timeout', `The DNS servers did not answer the ${type} query for ${name} in time.`, { cause });
  if (code === 'EBADNAME') return invalidField('domain', `is not a name the resolver accepts: ${name}`);
  const reason = code === 'ESERVFAIL' ? 'answered SERVFAIL' : code === 'EREFUSED' ? 'refused the query' : `failed (${code || 'unknown error'})`;
  return new DevutilError('upstream_error', `The DNS server ${reason} for the ${type} query of ${name}.`, { cause });
}
