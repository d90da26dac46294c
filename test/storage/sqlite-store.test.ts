import { createSqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import { runStoreSuite } from './store-suite.js';

runStoreSuite('sqlite (in memory)', async () => createSqliteStore({ dataDir: ':memory:' }));
