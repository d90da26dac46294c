import { Redis } from 'ioredis';
import { ConfigError } from '../../config.js';
import { DevutilError } from '../../errors.js';

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

/**
 * Connect with fail-fast settings: while Redis is unreachable, commands fail at once (no
 * offline queue, one retry) instead of hanging; the client keeps reconnecting in the background.
 */
export async function connectRedis(url: string): Promise<Redis> {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 3000,
    connectTimeout: 3000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });
  client.on('error', () => {
    // Connection errors surface through commands (503) and /readyz; the client reconnects by itself.
  });
  try {
    await client.connect();
  } catch (err) {
    client.disconnect();
    throw new ConfigError('REDIS_URL', `cannot be reached: no Redis answered at ${url} (${(err as Error).message})`);
  }
  return client;
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
