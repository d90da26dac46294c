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

/** Per-try timeout and tries of node's resolver (c-ares backs off: about 11 s in all), so the 5 s deadline of the caller decides. */
const RESOLVER_OPTIONS = { timeout: 1500, tries: 3 };

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
  const resolver = new dns.Resolver(RESOLVER_OPTIONS);
  if (options.servers.length > 0) resolver.setServers([...options.servers]);
  const cache = createTtlCache<unknown[]>({ ...CACHE, now: options.now });
  const inFlight = new Map<string, Promise<unknown[]>>();

  async function ask(type: QueryType, name: string, key: string): Promise<unknown[]> {
    const row = QUERIES[type];
    try {
      const answers = await row.run(resolver, name);
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
      resolver.cancel();
    },
  };
}

/**
 * Run `work` with an overall deadline: past `ms`, answer 504 `upstream_timeout` (the query keeps
 * running inside c-ares and may still fill the cache).
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
