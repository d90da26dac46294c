import { after } from 'node:test';
import { createRedisStore } from '../../src/storage/redis/redis-store.js';
import { isolatedPrefix, redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { runStoreSuite } from './store-suite.js';

const skip = await redisSkipReason();
const { prefix, cleanup } = isolatedPrefix('suite');
after(async () => {
  if (!skip) await cleanup();
});

runStoreSuite('redis', () => createRedisStore({ url: TEST_REDIS_URL, prefix }), { skip });
