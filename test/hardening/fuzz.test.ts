// Schema-driven fuzzing of every operation in /openapi.json (issue 8, item 1).
// FUZZ_RUNS=N (default 30 per operation) and FUZZ_SEED=S (default fixed) for longer local runs;
// FUZZ_DEBUG_HEAP=1 prints each operation's time, heap and status counts. A failure message names
// the seed, the path and the shrunk request. DNS goes to a closed
// loopback port and replay targets are loopback literals (refused by the SSRF guard), so the
// run never leaves this machine. Expensive parameters are capped (COST_CAPS in schema-arbitrary.ts).
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../helpers/app.js';
import { createChecker } from './fuzz-invariants.js';
import { requestArbitrary, type FuzzRequest, type IdPool, type Operation } from './request-arbitrary.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const LOOPBACK_TARGETS = ['http://127.0.0.1:9/hook', 'http://[::1]:9/', 'https://127.0.0.2:1/x?y=1', 'http://0x7f000001/'];
/** The live event stream never ends under inject: only unknown bins are fuzzed here (see test/webhook/stream.test.ts). */
const NO_REAL_IDS = new Set(['GET /v1/bins/{bin_id}/stream']);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/** Replay bodies keep only loopback literal targets, whatever the fuzzer did to them. */
function loopbackOnly(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const target = (body as Record<string, unknown>).target_url;
  if (typeof target !== 'string' || !/^\s*https?:/i.test(target)) return body;
  return Object.defineProperty({ ...body }, 'target_url', {
    value: LOOPBACK_TARGETS[target.length % LOOPBACK_TARGETS.length],
    enumerable: true,
  });
}

function heapMiB(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

describe(`fuzzing every operation (${RUNS} runs each, seed ${SEED})`, () => {
  let t: TestApp;
  let operations: Operation[];
  let check: ReturnType<typeof createChecker>;
  const pool: IdPool = {};
  const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
  let baseline = 0;

  before(async () => {
    t = await buildTestApp({ env: { REPLAY_ALLOW_PRIVATE: 'false', DNS_SERVERS: `127.0.0.1:${await closedPort()}` } });
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    check = createChecker(doc);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document or schema of any shape
    operations = Object.entries<Record<string, any>>(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([m]) => METHODS.includes(m))
        .map(([method, op]) => ({ method, path, op })),
    );
    // DELETEs last, so the real ids stay alive for the other operations as long as possible.
    operations.sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));
    const bin = (await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} })).json().bin.bin_id;
    await t.app.inject({ method: 'POST', url: `/v1/catch/${bin}/p?q=1`, payload: 'hello', headers: { 'content-type': 'text/plain' } });
    const req = (await t.app.inject({ method: 'GET', url: `/v1/bins/${bin}/requests`, headers: t.auth })).json().requests[0].request_id;
    const mock = (
      await t.app.inject({ method: 'POST', url: '/v1/mocks', headers: t.auth, payload: { response_body: { ok: true } } })
    ).json().mock.mock_id;
    const victim = await t.newKey('free', 'fuzz-victim');
    Object.assign(pool, { bin_id: [bin], request_id: [req], mock_id: [mock], key_id: [victim.id] });
    // Warm-up: fast-check builds its Unicode tables (~80 MiB) on first use and the app loads
    // dictionaries and databases lazily; the baseline is taken after both, so growth means a leak.
    for (const operation of operations) {
      for (const req of fc.sample(requestArbitrary(operation, {}, t.auth, loopbackOnly), { numRuns: 2, seed: SEED })) {
        await t.app.inject({ method: req.method as 'GET', url: req.url, headers: req.headers, payload: req.payload });
      }
    }
    baseline = heapMiB();
  });

  after(async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    await t.close();
    assert.equal(res.statusCode, 200);
  });

  it('covers every operation of the document', () => {
    assert.ok(operations.length >= 60, `only ${operations.length} operations`);
  });

  // node:test collects tests synchronously, so the operations are fuzzed inside one test each
  // per method group; a failure names the operation, seed and shrunk request.
  for (const method of METHODS) {
    it(`${method.toUpperCase()} operations answer every generated request by their documented contract`, async () => {
      const problems: string[] = [];
      for (const [i, operation] of operations.entries()) {
        if (operation.method !== method) continue;
        const name = `${method.toUpperCase()} ${operation.path}`;
        const ids = NO_REAL_IDS.has(name) ? {} : pool;
        const safe = operation.path.endsWith('/replay') ? loopbackOnly : undefined;
        const arb = requestArbitrary(operation, ids, { ...t.auth, 'x-admin-token': ADMIN_TOKEN }, safe).map(printable);
        const started = Date.now();
        const statuses: Record<number, number> = {};
        const result = await fc.check(
          fc.asyncProperty(arb, async (req) => {
            const res = await t.app.inject({ method: req.method as 'GET', url: req.url, headers: req.headers, payload: req.payload });
            statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
            const problem = check(operation, { statusCode: res.statusCode, headers: res.headers, body: res.body });
            if (problem) throw new Error(problem);
          }),
          { numRuns: RUNS, seed: SEED + i },
        );
        if (process.env.FUZZ_DEBUG_HEAP)
          console.log(`${name}: ${Date.now() - started} ms, heap ${heapMiB().toFixed(1)} MiB, statuses ${JSON.stringify(statuses)}`);
        if (result.failed)
          problems.push(
            `${name}: ${String((result.errorInstance as Error)?.message ?? result.errorInstance)}\n${fc.defaultReportMessage(result)}`,
          );
      }
      assert.deepEqual(problems, []);
    });
  }

  it('leaves Object.prototype untouched and the app answering', async () => {
    assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), prototypeBefore);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(({} as Record<string, unknown>).isAdmin, undefined);
    const res = await t.app.inject({ method: 'GET', url: '/v1/account', headers: t.auth });
    assert.equal(res.statusCode, 200);
  });

  it('returns the heap near its baseline after a forced GC', () => {
    const now = heapMiB();
    assert.ok(now < baseline * 1.25 + 32, `heap ${now.toFixed(1)} MiB after the run, baseline ${baseline.toFixed(1)} MiB`);
  });
});

/** Requests print with long payloads cut, so a failure report stays readable. */
function printable(req: FuzzRequest): FuzzRequest {
  const show = (s: string) => (s.length > 300 ? `${s.slice(0, 150)}…${s.slice(-150)}…(${s.length} chars)` : s);
  return Object.defineProperty(req, fc.toStringMethod, {
    value: () =>
      `${req.method} ${show(req.url)} [${req.label}] headers=${JSON.stringify(req.headers)} payload=${show(String(req.payload ?? ''))}`,
  });
}
