import type { Redis } from 'ioredis';
import { guard } from './connection.js';
import { SCRIPTS, type ScriptName } from './scripts.js';

/** What each part of the Redis store shares: the client, the key prefix and the script runner. */
export interface RedisContext {
  client: Redis;
  prefix: string;
  run<T>(script: ScriptName, keys: string[], args: (string | number)[]): Promise<T>;
}

/** Register the Lua scripts (EVALSHA with automatic fallback) and build the context. */
export function createRedisContext(client: Redis, prefix: string): RedisContext {
  for (const [name, { numberOfKeys, lua }] of Object.entries(SCRIPTS)) {
    client.defineCommand(name, { numberOfKeys, lua });
  }
  return {
    client,
    prefix,
    run<T>(script: ScriptName, keys: string[], args: (string | number)[]) {
      const command = (client as unknown as Record<string, (...a: (string | number)[]) => Promise<T>>)[script];
      return guard(command.call(client, ...keys, ...args));
    },
  };
}
