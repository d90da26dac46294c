import { guard, type RedisClient } from './connection.js';
import { SCRIPTS, type ScriptName } from './scripts.js';

/** What each part of the Redis store shares: the client, the key prefix and the script runner. */
export interface RedisContext {
  client: RedisClient;
  prefix: string;
  run<T>(script: ScriptName, keys: string[], args: (string | number)[]): Promise<T>;
}

/** Register the Lua scripts (EVALSHA with automatic fallback) and build the context. */
export function createRedisContext(client: RedisClient, prefix: string): RedisContext {
  for (const [name, { numberOfKeys, lua }] of Object.entries(SCRIPTS)) {
    client.defineCommand(name, { numberOfKeys, lua });
  }
  return {
    client,
    prefix,
    run<T>(script: ScriptName, keys: string[], args: (string | number)[]) {
      const command = (client as unknown as Record<string, (...a: (string | number)[]) => Promise<T>>)[script];
      const count = SCRIPTS[script].numberOfKeys === undefined ? [keys.length] : [];
      return guard(command.call(client, ...count, ...keys, ...args));
    },
  };
}
