import type { PubSub } from '../types.js';
import type { Subscriber } from './cluster-subscriber.js';
import { guard } from './connection.js';
import type { RedisContext } from './redis-context.js';

/**
 * The Redis channel of a logical channel: the name scripts that publish themselves (captures, key
 * changes) must use.
 *
 * @example
 *   redisChannel('devutil', 'bin:bin_abc') // 'devutil:pubsub:bin:bin_abc'
 */
export function redisChannel(prefix: string, channel: string): string {
  return `${prefix}:pubsub:${channel}`;
}

/**
 * Publish/subscribe across every process sharing the Redis: one subscriber connection per
 * process (on a cluster, to any one node: classic pub/sub is cluster-wide), one Redis channel per
 * logical channel, handlers multiplexed locally. `publish` goes through the node owning the slot of
 * the hash tag `{<channel>}`: for a bin's channel (`bin:<id>`) that is the bin's own tag, the node
 * whose capture script announces the bin's captures, so a bin's messages all leave from one node.
 */
export function createRedisPubSub({ prefix, run }: RedisContext, subscriber: Subscriber): PubSub {
  const handlers = new Map<string, Set<(message: string) => void>>();
  subscriber.on('message', (channel: string, message: string) => {
    for (const handler of handlers.get(channel) ?? []) handler(message);
  });
  return {
    async publish(channel, message) {
      await run('publishInOrder', [`${prefix}:{${channel}}`], [redisChannel(prefix, channel), message]);
    },
    async subscribe(channel, onMessage) {
      const full = redisChannel(prefix, channel);
      let set = handlers.get(full);
      if (!set) {
        set = new Set();
        handlers.set(full, set);
        try {
          await guard(subscriber.subscribe(full));
        } catch (err) {
          handlers.delete(full);
          throw err;
        }
      }
      set.add(onMessage);
      return async () => {
        const current = handlers.get(full);
        if (!current?.delete(onMessage) || current.size > 0) return;
        handlers.delete(full);
        await subscriber.unsubscribe(full).catch(() => undefined);
      };
    },
  };
}
