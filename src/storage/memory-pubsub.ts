import { EventEmitter } from 'node:events';
import type { PubSub } from './types.js';

/**
 * In-process publish/subscribe: enough when one process serves everything (the SQLite store).
 * Delivery is synchronous, so subscribers see messages in publish order.
 */
export function createMemoryPubSub(): PubSub {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(channel, message) {
      emitter.emit(channel, message);
    },
    async subscribe(channel, onMessage) {
      emitter.on(channel, onMessage);
      return async () => {
        emitter.off(channel, onMessage);
      };
    },
    hasSubscribers: (channel) => emitter.listenerCount(channel) > 0,
  };
}
