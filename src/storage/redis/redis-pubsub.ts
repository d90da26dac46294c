import type { Redis } from 'ioredis';
import type { PubSub } from '../types.js';
import { guard } from './connection.js';

/**
 * Publish/subscribe across every process sharing the Redis: one subscriber connection per
 * process, one Redis channel per logical channel, handlers multiplexed locally.
 */
export function createRedisPubSub(client: Redis, subscriber: Redis, prefix: string): PubSub {
  const handlers = new Map<string, Set<(message: string) => void>>();
  subscriber.on('message', (channel: string, message: string) => {
    for (const handler of handlers.get(channel) ?? []) handler(message);
  });
  return {
    async publish(channel, message) {
      await guard(client.publish(`${prefix}:pubsub:${channel}`, message));
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
