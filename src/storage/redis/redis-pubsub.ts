import type { PubSub } from '../types.js';
import type { Subscriber } from './cluster-subscriber.js';
import { guard } from './connection.js';
import type { RedisContext } from './redis-context.js';

/**
 * Publish/subscribe across every process sharing the Redis: one subscriber connection per
 * process (on a cluster, to any one node: classic pub/sub is cluster-wide), one Redis channel per
 * logical channel, handlers multiplexed locally.
 */
export function createRedisPubSub({ prefix, run }: RedisContext, subscriber: Subscriber): PubSub {
  const handlers = new Map<string, Set<(message: string) => void>>();
  subscriber.on('message', (channel: string, message: string) => {
    for (const handler of handlers.get(channel) ?? []) handler(message);
  });
  return {
    async publish(channel, message) {
      await run('publishInOrder', [`${prefix}:{pubsub:${channel}}`], [`${prefix}:pubsub:${channel}`, message]);
    },
    async subscribe(channel, onMessage) {
      const full = `${prefix}:pubsub:${channel}`;
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
