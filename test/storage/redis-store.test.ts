import { after } from 'node:test';
import { createRedisStore } from '../../src/storage/redis/redis-store.js';
import { isolatedPrefix, redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { runStoreSuite } from './store-suite.js';

const skip = await redisSkipReason();
const { prefix, cleanup } = isolatedPrefix('suite');
after(async () => {
  if (!skip) await cleanup();
});

// The peer is a second store on the same prefix: another service instance, as far as Redis can tell.
const open = () => createRedisStore({ url: TEST_REDIS_URL, prefix });
runStoreSuite('redis', open, { skip, makePeer: open });
