import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forSerializing, sharedSerializers } from '../../src/http/shared-serializers.js';

const errorSchema = {
  type: 'object',
  properties: { code: { type: 'string' }, detail: { type: 'string' } },
  required: ['code', 'detail'],
};

describe('response serializers compiled once per distinct schema', () => {
  it('routes with the same schema share one serializer; another schema gets its own; each writes its own fields', () => {
    const compile = sharedSerializers()(undefined, undefined);
    const a = compile({ method: 'POST', url: '/v1/a', httpStatus: '422', schema: errorSchema });
    const b = compile({ method: 'GET', url: '/v1/b', httpStatus: '422', schema: structuredClone(errorSchema) });
    const other = compile({
      method: 'GET',
      url: '/v1/b',
      httpStatus: '200',
      schema: { type: 'object', properties: { n: { type: 'integer' } } },
    });
    assert.equal(a, b);
    assert.notEqual(a, other);
    // fast-json-stringify writes the declared properties only.
    assert.equal(a({ code: 'validation_error', detail: 'x', secret: 1 }), '{"code":"validation_error","detail":"x"}');
    assert.equal(other({ n: 3, code: 'x' }), '{"n":3}');
  });

  it('plugin contexts share serializers unless their shared schemas differ', () => {
    const factory = sharedSerializers();
    const route = { method: 'GET', url: '/', httpStatus: '200', schema: errorSchema };
    assert.equal(factory(undefined, undefined)(route), factory(undefined, undefined)(route));
    const shared = { thing: { $id: 'thing', type: 'object', properties: { id: { type: 'string' } } } };
    const other = { thing: { $id: 'thing', type: 'object', properties: { name: { type: 'string' } } } };
    const usesThing = { method: 'GET', url: '/', httpStatus: '200', schema: { $ref: 'thing#' } };
    const withShared = factory(shared, undefined)(usesThing);
    const withOther = factory(other, undefined)(usesThing);
    assert.notEqual(withShared, withOther);
    assert.equal(withShared({ id: 'a', name: 'b' }), '{"id":"a"}');
    assert.equal(withOther({ id: 'a', name: 'b' }), '{"name":"b"}');
  });

  it('a free-form object is written whole, as JSON.stringify writes it; declared members still shape the rest', () => {
    const compile = sharedSerializers()(undefined, undefined);
    const freeForm = { type: 'object', additionalProperties: true, description: 'Any claims.' };
    const schema = {
      type: 'object',
      required: ['valid'],
      properties: { valid: { type: 'boolean' }, payload: freeForm, list: { type: 'array', items: freeForm } },
      examples: [{ valid: true, payload: freeForm }],
    };
    const write = compile({ method: 'POST', url: '/v1/x', httpStatus: '200', schema });
    const payload = { sub: 'u"\u2028', n: [1, { a: null }], skip: undefined, nested: { deep: true } };
    assert.equal(
      write({ valid: true, payload, list: [payload], extra: 1 }),
      `{"valid":true,"payload":${JSON.stringify(payload)},"list":[${JSON.stringify(payload)}]}`,
    );
    // Only the serializer's copy changes: data keywords and objects with members are left as they are.
    assert.deepEqual(forSerializing(schema), {
      type: 'object',
      required: ['valid'],
      properties: { valid: { type: 'boolean' }, payload: {}, list: { type: 'array', items: {} } },
      examples: [{ valid: true, payload: freeForm }],
    });
    const withMembers = { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true };
    assert.deepEqual(forSerializing(withMembers), withMembers);
    assert.equal(schema.properties.payload, freeForm);
  });
});
