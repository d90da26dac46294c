import { Socket } from 'node:net';
import { Redis } from 'ioredis';

/** The Redis the tests use: REDIS_URL, else the local default. */
export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

function answers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(Number(port || 6379), hostname, () => {
      socket.write('PING\r\n');
      socket.once('data', (d) => done(String(d).startsWith('+PONG')));
    });
  });
}

/**
 * Why Redis tests cannot run here (undefined when they can). With REQUIRE_REDIS=1 (as in CI) a
 * missing Redis is an error, not a skip.
 */
export async function redisSkipReason(): Promise<string | undefined> {
  if (await answers(TEST_REDIS_URL)) return undefined;
  if (process.env.REQUIRE_REDIS === '1') throw new Error(`REQUIRE_REDIS=1 but no Redis answers at ${TEST_REDIS_URL}`);
  return `no Redis answers at ${TEST_REDIS_URL} (set REDIS_URL or start redis-server; REQUIRE_REDIS=1 makes this an error)`;
}

/** A prefix no other test uses, and a function deleting every key under it. */
export function isolatedPrefix(name: string): { prefix: string; cleanup: () => Promise<void> } {
  const prefix = `devutil-test-${name}-${process.pid}-${Date.now().toString(36)}`;
  return {
    prefix,
    async cleanup() {
      const client = new Redis(TEST_REDIS_URL, { lazyConnect: true });
      await client.connect();
      let cursor = '0';
      do {
        const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        if (keys.length) await client.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      await client.quit();
    },
  };
}
