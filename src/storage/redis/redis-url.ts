/** What `REDIS_URL` names: one Redis server, or the seed nodes of a Redis Cluster. */
export type RedisTarget =
  | { kind: 'node'; url: string }
  | { kind: 'cluster'; nodes: { host: string; port: number }[]; username?: string; password?: string; tls: boolean };

const CLUSTER_URL = /^(rediss?)\+cluster:\/\/(?:([^@/]*)@)?([^/?#@]+)\/?$/i;

function parseSeed(entry: string): { host: string; port: number } {
  const m = /^(?:\[([0-9a-f:.]+)\]|([^:[\]\s]+))(?::(\d{1,5}))?$/i.exec(entry.trim());
  const port = Number(m?.[3] ?? 6379);
  if (!m || port < 1 || port > 65535) throw new TypeError(`has an invalid cluster node "${entry}" (expected host:port)`);
  return { host: m[1] ?? m[2], port };
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new TypeError('has invalid percent-encoding in its user or password');
  }
}

/**
 * Parse a Redis URL: `redis://` or `rediss://` for one server, `redis+cluster://` or
 * `rediss+cluster://` (TLS) for a cluster, followed by comma-separated seed nodes. Throws a
 * TypeError whose message completes "REDIS_URL …".
 *
 * @example
 *   parseRedisTarget('redis+cluster://:secret@10.0.0.1:7000,10.0.0.2:7000')
 *   // → { kind: 'cluster', nodes: [{ host: '10.0.0.1', port: 7000 }, …], password: 'secret', tls: false }
 */
export function parseRedisTarget(raw: string): RedisTarget {
  if (/^rediss?\+cluster:/i.test(raw)) {
    const m = CLUSTER_URL.exec(raw);
    if (!m)
      throw new TypeError(
        `must be redis+cluster://[user:password@]host:port[,host:port…] (no path or query), got "${redactRedisUrl(raw)}"`,
      );
    const [, scheme, userinfo, hosts] = m;
    const nodes = hosts
      .split(',')
      .filter((h) => h.trim() !== '')
      .map(parseSeed);
    if (nodes.length === 0) throw new TypeError('must name at least one cluster node');
    // As in redis:// URLs read by ioredis: `user:password@`, `:password@`, or `user@`.
    const [user = '', ...rest] = (userinfo ?? '').split(':');
    const username = decode(user);
    const password = decode(rest.join(':'));
    return {
      kind: 'cluster',
      nodes,
      username: username || undefined,
      password: password || undefined,
      tls: scheme.toLowerCase() === 'rediss',
    };
  }
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new TypeError(`must be an absolute URL, got "${redactRedisUrl(raw)}"`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new TypeError(`must use redis:, rediss:, redis+cluster: or rediss+cluster:, got "${redactRedisUrl(raw)}"`);
  }
  return { kind: 'node', url: raw };
}

/** The URL with any password replaced by `***`, for messages and logs. */
export function redactRedisUrl(raw: string): string {
  return raw.replace(/^([a-z+]+:\/\/[^:@/]*:)[^@]*@/i, '$1***@');
}
