import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type BuildSerializer = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']
>;
type Serializer = (doc: unknown) => string;
type RouteSchema = Parameters<ReturnType<BuildSerializer>>[0];

/** Keywords whose values are data, not schemas: never rewritten. */
const DATA_KEYWORDS = new Set(['examples', 'example', 'default', 'enum', 'const']);

/** A free-form object: `type: object` with `additionalProperties: true` and nothing else that shapes it. */
function isFreeFormObject(schema: Record<string, unknown>): boolean {
  if (schema.type !== 'object' || schema.additionalProperties !== true) return false;
  return Object.keys(schema).every((k) => k === 'type' || k === 'additionalProperties' || k === 'description' || k === 'title');
}

/**
 * The schema to compile a serializer from: every free-form object becomes `{}`, which
 * fast-json-stringify writes with one `JSON.stringify` call instead of member by member (the same
 * bytes for JSON data, several times faster). Validation and the OpenAPI document keep the original.
 *
 * @example
 *   forSerializing({ type: 'object', properties: { payload: { type: 'object', additionalProperties: true } } })
 *   // { type: 'object', properties: { payload: {} } }
 */
export function forSerializing(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forSerializing);
  if (schema === null || typeof schema !== 'object') return schema;
  const object = schema as Record<string, unknown>;
  if (isFreeFormObject(object)) return {};
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, DATA_KEYWORDS.has(k) ? v : forSerializing(v)]));
}

/**
 * Fastify's response serializer factory (fast-json-stringify), compiling each distinct schema once.
 * Every route declares the same error bodies for a dozen status codes: about 900 response schemas
 * are only some 70 different ones, and compiling each copy cost start-up time and memory.
 *
 * @example
 *   Fastify({ schemaController: { compilersFactory: { buildSerializer: sharedSerializers() } } });
 */
export function sharedSerializers(): BuildSerializer {
  const build = SerializerSelector();
  // Fastify asks once per plugin context; contexts with the same shared schemas and options share
  // their serializers, and one with other shared schemas (addSchema) gets its own.
  const byContext = new Map<string, Map<string, Serializer>>();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    const context = JSON.stringify([externalSchemas ?? null, options ?? null]);
    let compiled = byContext.get(context);
    if (compiled === undefined) byContext.set(context, (compiled = new Map()));
    const memo = compiled;
    return (route: RouteSchema) => {
      const key = JSON.stringify(route.schema);
      let serializer = memo.get(key);
      if (serializer === undefined)
        memo.set(key, (serializer = compile({ ...route, schema: forSerializing(route.schema) } as RouteSchema)));
      return serializer;
    };
  };
}
