// CONTRACT §0: a validation failure lists one `errors[]` entry per bad field, whichever validator
// found it (request schemas with anyOf alternatives, several keywords failing on one field, a
// tool's own option schema).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('validation errors: one entry per field', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: t.auth, payload });

  it('a field allowed in several forms (anyOf) gets one entry naming the forms it failed', async () => {
    let res = await post('/v1/auth/totp-verify', { secret: 'GEZDGNBVGY3TQOJQ', code: 'abcdef' });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json(), {
      detail: 'Invalid body: code must be up to 10 digits, with at most one space inside (123 456) or must be integer.',
      code: 'validation_error',
      errors: [{ path: 'code', message: 'must be up to 10 digits, with at most one space inside (123 456) or must be integer' }],
    });
    res = await post('/v1/email/form-spam-score', { message: 'Hello', ip: 'not-ip' });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().errors, [{ path: 'ip', message: 'must match format "ipv4" or must match format "ipv6" or must be empty' }]);
  });

  it('several keywords failing on one field are one entry; other fields keep their own', async () => {
    const res = await post('/v1/json-schema-validate', { data: 1, schema: {}, draft: 7, extra: true });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().errors, [
      { path: 'extra', message: 'is not a known field' },
      { path: 'draft', message: 'must be string; must be one of "4", "6", "7", "2019-09", "2020-12"' },
    ]);
  });

  it('a mock-data option failing twice is reported once', async () => {
    const res = await post('/v1/mock-data', { fields: [{ name: 'd', type: 'date', options: { from: '2020-02-30' } }], rows: 1 });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().errors, [
      { path: 'fields[0].options.from', message: 'must be a date (YYYY-MM-DD) or an RFC 3339 date-time' },
    ]);
    assert.equal(
      res.json().detail,
      'Invalid options for type "date": fields[0].options.from must be a date (YYYY-MM-DD) or an RFC 3339 date-time.',
    );
  });
});

describe('json-schema-validate: failures inside a draft meta-schema', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it("are described from the meta-schema's keyword values", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/json-schema-validate',
      headers: t.auth,
      payload: { data: { type: 'strin' }, schema: { $ref: 'http://json-schema.org/draft-07/schema#' } },
    });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.valid, false);
    assert.deepEqual(
      body.errors.map((e: { error: string; schema_path: string }) => [e.error, e.schema_path]),
      [
        ['value at ["type"] must match at least one schema in anyOf', 'http://json-schema.org/draft-07/schema#/properties/type/anyOf'],
        [
          'value at ["type"] must be one of ["array","boolean","integer","null","number","object","string"]',
          'http://json-schema.org/draft-07/schema#/definitions/simpleTypes/enum',
        ],
        ['value at ["type"] must be array', 'http://json-schema.org/draft-07/schema#/properties/type/anyOf/1/type'],
      ],
    );
  });
});
