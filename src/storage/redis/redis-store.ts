import type { Store } from '../types.js';

export interface RedisStoreOptions {
  url: string;
}

export async function createRedisStore(options: RedisStoreOptions): Promise<Store> {
  throw new Error(`STORE=redis (${options.url}) is not available in this build yet`);
}
