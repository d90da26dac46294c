import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/** The verbs operation names start with (CONTRACT §0: verb first, named after what the operation does). */
const VERBS = new Set([
  'apply',
  'capture',
  'clear',
  'create',
  'decode',
  'decrypt',
  'delete',
  'encode',
  'encrypt',
  'estimate',
  'extract',
  'format',
  'generate',
  'get',
  'hash',
  'infer',
  'list',
  'lookup',
  'replay',
  'revoke',
  'rotate',
  'score',
  'serve',
  'sign',
  'stream',
  'transcode',
  'transform',
  'update',
  'validate',
  'verify',
]);

/** Every operation of the document (all areas, admin API on): the names clients call, stable across releases. */
const OPERATIONS: Record<string, string> = {
  getHealth: 'GET /healthz',
  getReadiness: 'GET /readyz',
  getMetrics: 'GET /metrics',
  getAccount: 'GET /v1/account',
  createKey: 'POST /v1/admin/keys',
  listKeys: 'GET /v1/admin/keys',
  revokeKey: 'DELETE /v1/admin/keys/{key_id}',
  rotateKey: 'POST /v1/admin/keys/{key_id}/rotate',
  createBin: 'POST /v1/bins',
  listBins: 'GET /v1/bins',
  getBin: 'GET /v1/bins/{bin_id}',
  deleteBin: 'DELETE /v1/bins/{bin_id}',
  listRequests: 'GET /v1/bins/{bin_id}/requests',
  clearRequests: 'DELETE /v1/bins/{bin_id}/requests',
  getRequest: 'GET /v1/bins/{bin_id}/requests/{request_id}',
  streamRequests: 'GET /v1/bins/{bin_id}/stream',
  replayRequest: 'POST /v1/bins/{bin_id}/requests/{request_id}/replay',
  captureRequest: 'POST /v1/catch/{bin_id}',
  captureRequestGet: 'GET /v1/catch/{bin_id}',
  captureRequestHead: 'HEAD /v1/catch/{bin_id}',
  captureRequestPut: 'PUT /v1/catch/{bin_id}',
  captureRequestPatch: 'PATCH /v1/catch/{bin_id}',
  captureRequestDelete: 'DELETE /v1/catch/{bin_id}',
  captureRequestOptions: 'OPTIONS /v1/catch/{bin_id}',
  captureRequestAtSubPath: 'POST /v1/catch/{bin_id}/{sub_path}',
  captureRequestGetAtSubPath: 'GET /v1/catch/{bin_id}/{sub_path}',
  captureRequestHeadAtSubPath: 'HEAD /v1/catch/{bin_id}/{sub_path}',
  captureRequestPutAtSubPath: 'PUT /v1/catch/{bin_id}/{sub_path}',
  captureRequestPatchAtSubPath: 'PATCH /v1/catch/{bin_id}/{sub_path}',
  captureRequestDeleteAtSubPath: 'DELETE /v1/catch/{bin_id}/{sub_path}',
  captureRequestOptionsAtSubPath: 'OPTIONS /v1/catch/{bin_id}/{sub_path}',
  createMock: 'POST /v1/mocks',
  listMocks: 'GET /v1/mocks',
  getMock: 'GET /v1/mocks/{mock_id}',
  updateMock: 'PATCH /v1/mocks/{mock_id}',
  deleteMock: 'DELETE /v1/mocks/{mock_id}',
  serveMock: 'GET /v1/mock/{mock_id}',
  serveMockHead: 'HEAD /v1/mock/{mock_id}',
  serveMockPost: 'POST /v1/mock/{mock_id}',
  serveMockPut: 'PUT /v1/mock/{mock_id}',
  serveMockPatch: 'PATCH /v1/mock/{mock_id}',
  serveMockDelete: 'DELETE /v1/mock/{mock_id}',
  serveMockOptions: 'OPTIONS /v1/mock/{mock_id}',
  transformJson: 'POST /v1/json-transform',
  validateJsonSchema: 'POST /v1/json-schema-validate',
  inferJsonSchema: 'POST /v1/json-to-schema',
  generateMockData: 'POST /v1/mock-data',
  listMockDataTypes: 'GET /v1/mock-data/types',
  applyArrayOperation: 'POST /v1/array-ops',
  extractRegex: 'POST /v1/regex-extract',
  formatNumber: 'POST /v1/number-format',
  formatDate: 'POST /v1/date-format',
  hashPassword: 'POST /v1/auth/hash-password',
  verifyPassword: 'POST /v1/auth/verify-password',
  estimatePasswordStrength: 'POST /v1/auth/password-strength',
  generatePassword: 'GET /v1/auth/generate-password',
  signJwt: 'POST /v1/auth/jwt-generate',
  verifyJwt: 'POST /v1/auth/jwt-verify',
  decodeJwt: 'POST /v1/auth/jwt-decode',
  generateKeyPair: 'POST /v1/auth/generate-keypair',
  generateTotpSecret: 'GET /v1/auth/totp-generate',
  verifyTotp: 'POST /v1/auth/totp-verify',
  generateRandomKey: 'GET /v1/auth/generate-key',
  encryptData: 'POST /v1/auth/encrypt',
  decryptData: 'POST /v1/auth/decrypt',
  hashData: 'POST /v1/auth/hash',
  signHmac: 'POST /v1/auth/hmac',
  verifyHmac: 'POST /v1/auth/hmac-verify',
  encodeBase64: 'POST /v1/auth/base64-encode',
  decodeBase64: 'POST /v1/auth/base64-decode',
  transcodeData: 'POST /v1/auth/encode',
  lookupDns: 'GET /v1/lookup',
  lookupDnsPost: 'POST /v1/devtools/dns-lookup',
  scoreFormSpam: 'POST /v1/email/form-spam-score',
  lookupGeoIp: 'GET /v1/geo/ip-lookup',
};

describe('operationIds (CONTRACT §0)', () => {
  let t: TestApp;
  let operations: Array<{ id: string | undefined; route: string }>;
  before(async () => {
    t = await buildTestApp();
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ id: op.operationId, route: `${method.toUpperCase()} ${path}` })),
    );
  });
  after(() => t.close());

  it('every operation has a camelCase id that starts with a verb', () => {
    for (const { id, route } of operations) {
      assert.match(id ?? '', /^[a-z]+(?:[A-Z][a-z0-9]*)+$/, `${route}: ${id}`);
      assert.ok(VERBS.has(/^[a-z]+/.exec(id!)![0]), `${route}: ${id} does not start with a verb`);
    }
  });

  it('no two operations share an id', () => {
    const ids = operations.map(({ id }) => id);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('the examples of CONTRACT §0 name the operations they describe', () => {
    const routeOf = new Map(operations.map(({ id, route }) => [id, route]));
    assert.equal(routeOf.get('createBin'), 'POST /v1/bins');
    assert.equal(routeOf.get('listRequests'), 'GET /v1/bins/{bin_id}/requests');
    assert.equal(routeOf.get('replayRequest'), 'POST /v1/bins/{bin_id}/requests/{request_id}/replay');
    assert.equal(routeOf.get('serveMock'), 'GET /v1/mock/{mock_id}');
    assert.equal(routeOf.get('transformJson'), 'POST /v1/json-transform');
    assert.equal(routeOf.get('verifyJwt'), 'POST /v1/auth/jwt-verify');
    assert.equal(routeOf.get('lookupDns'), 'GET /v1/lookup');
  });

  it('every operation keeps its published name', () => {
    assert.deepEqual(Object.fromEntries(operations.map(({ id, route }) => [id, route])), OPERATIONS);
  });

  it('a documented route without an operationId stops the app from starting', async () => {
    await assert.rejects(
      buildTestApp({ extraRoutes: (app) => app.get('/v1/unnamed', { config: { area: 'public' } }, async () => ({})) }),
      /route GET \/v1\/unnamed declares no schema.operationId/,
    );
  });

  it('two routes sharing an operationId stop the app from starting', async () => {
    await assert.rejects(
      buildTestApp({
        extraRoutes: (app) =>
          app.get('/v1/bins-again', { config: { area: 'public' }, schema: { operationId: 'createBin' } }, async () => ({})),
      }),
      /routes POST \/v1\/bins and GET \/v1\/bins-again share the operationId createBin/,
    );
  });

  it('one documented route for several methods stops the app from starting (they would share its operationId)', async () => {
    await assert.rejects(
      buildTestApp({
        extraRoutes: (app) =>
          app.route({
            method: ['PUT', 'PATCH'],
            url: '/v1/either',
            config: { area: 'public' },
            schema: { operationId: 'putEither' },
            handler: async () => ({}),
          }),
      }),
      /route PUT,PATCH \/v1\/either is documented for several methods/,
    );
  });

  it('hidden routes need no operationId', async () => {
    const hidden = await buildTestApp({
      extraRoutes: (app) => app.get('/v1/internal', { config: { area: 'public' }, schema: { hide: true } }, async () => ({ ok: true })),
    });
    const res = await hidden.app.inject({ method: 'GET', url: '/v1/internal' });
    assert.deepEqual(res.json(), { ok: true });
    await hidden.close();
  });
});
