import { Cluster, Redis } from 'ioredis';
import { ConfigError } from '../../config.js';
import { DevutilError } from '../../errors.js';
import { ClusterSubscriber, type Subscriber } from './cluster-subscriber.js';
import { parseRedisTarget, redactRedisUrl, type RedisTarget } from './redis-url.js';

/** Errors Redis itself answers with that mean "not now" rather than "your command is wrong". */
const TRANSIENT_REPLY = /^(LOADING|BUSY|READONLY|CLUSTERDOWN|TRYAGAIN|MASTERDOWN|NOREPLICAS)/;

/**
 * Run a Redis operation; connection loss, timeouts and transient server states become
 * `storage_unavailable` (503). Nothing is ever reported as stored unless Redis confirmed it.
 */
export async function guard<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation;
  } catch (err) {
    const e = err as Error;
    if (e.name === 'ReplyError' && !TRANSIENT_REPLY.test(e.message)) throw err;
    throw new DevutilError('storage_unavailable', undefined, { cause: err });
  }
}

/** One Redis server or a Redis Cluster; the store only uses commands both answer the same way. */
export type RedisClient = Redis | Cluster;

/** How long a cluster may take to report `cluster_state:ok` at start before the start fails. */
const CLUSTER_START_TIMEOUT_MS = 10_000;
const FAIL_FAST = { maxRetriesPerRequest: 1, commandTimeout: 3000, connectTimeout: 3000 } as const;
const reconnectDelay = (attempt: number) => Math.min(attempt * 100, 1000);

type ClusterTarget = Extract<RedisTarget, { kind: 'cluster' }>;

const nodeOptions = (target: ClusterTarget) => ({
  ...FAIL_FAST,
  username: target.username,
  password: target.password,
  tls: target.tls ? {} : undefined,
});

function createClient(target: RedisTarget): RedisClient {
  if (target.kind === 'node') {
    return new Redis(target.url, { lazyConnect: true, enableOfflineQueue: false, retryStrategy: reconnectDelay, ...FAIL_FAST });
  }
  return new Cluster(target.nodes, {
    lazyConnect: true,
    enableOfflineQueue: false,
    clusterRetryStrategy: reconnectDelay,
    redisOptions: nodeOptions(target),
  });
}

function withDeadline<T>(operation: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms / 1000} s`)), ms);
  });
  return Promise.race([operation, deadline]).finally(() => clearTimeout(timer));
}

async function open(client: RedisClient, url: string): Promise<RedisClient> {
  let lastError: Error | undefined;
  client.on('error', (err: Error & { lastNodeError?: Error }) => {
    // Connection errors surface through commands (503) and /readyz; the client reconnects by itself.
    lastError = err.lastNodeError ?? err;
  });
  const isCluster = client instanceof Cluster;
  try {
    await (isCluster
      ? withDeadline(client.connect(), CLUSTER_START_TIMEOUT_MS, 'the cluster did not report cluster_state:ok')
      : client.connect());
  } catch (err) {
    client.disconnect();
    const message = (err as Error).message;
    const reason = lastError && lastError.message !== message ? `${message}: ${lastError.message}` : message;
    throw new ConfigError(
      'REDIS_URL',
      `cannot be reached: no Redis${isCluster ? ' Cluster' : ''} answered at ${redactRedisUrl(url)} (${reason})`,
    );
  }
  return client;
}

/**
 * Connect to the Redis or Redis Cluster `url` names, with fail-fast settings: while Redis is
 * unreachable, commands fail at once (no offline queue, one retry) instead of hanging; the client
 * keeps reconnecting in the background. Unreachable at start → ConfigError naming REDIS_URL.
 *
 * @example
 *   const client = await connectRedis('redis+cluster://127.0.0.1:7000,127.0.0.1:7001');
 */
export function connectRedis(url: string): Promise<RedisClient> {
  return open(createClient(parseRedisTarget(url)), url);
}

/** A second connection to the same Redis, or to one node of the same cluster, for subscriptions. */
export async function connectSubscriber(client: RedisClient, url: string): Promise<Subscriber> {
  if (!(client instanceof Cluster)) return (await open(client.duplicate(), url)) as Redis;
  const target = parseRedisTarget(url) as ClusterTarget;
  const subscriber = new ClusterSubscriber(client, target.nodes, nodeOptions(target));
  try {
    await subscriber.start();
  } catch (err) {
    throw new ConfigError(
      'REDIS_URL',
      `cannot be reached: no Redis Cluster node at ${redactRedisUrl(url)} accepted a subscriber (${(err as Error).message})`,
    );
  }
  return subscriber;
}

/** Hash fields ↔ values: each field holds the JSON of one property, so Lua can read numbers directly. */
export function toFields(record: object): string[] {
  return Object.entries(record).flatMap(([k, v]) => (v === undefined ? [] : [k, JSON.stringify(v)]));
}

export function fromFields<T>(fields: Record<string, string>): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = JSON.parse(v);
  return out as T;
}
