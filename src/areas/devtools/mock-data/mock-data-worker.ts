/**
 * Worker-thread entry of the mock-data pool: draws one large request per message, so a request
 * that takes seconds to draw holds this thread, never the event loop.
 */
import { toDevutilError } from '../../../http/error-handler.js';
import { serveJobs } from '../../../workers/serve-jobs.js';
import { generateMockData, type MockDataRequest } from './generate.js';

serveJobs({
  run: (request: MockDataRequest) => generateMockData(request),
  // An answer past V8's longest string is the same 422 as on the main thread; anything else a 500.
  unexpected: toDevutilError,
  // Faker's locale data and a first draw, so the first request's clock does not count them.
  warmUp: async () => generateMockData({ fields: [{ name: 'n', type: 'name' }], rows: 1, seed: 1 }),
});
