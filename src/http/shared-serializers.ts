import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type BuildSerializer = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']
>;
type Serializer = (doc: unknown) => string;

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
    return (route) => {
      const key = JSON.stringify(route.schema);
      let serializer = memo.get(key);
      if (serializer === undefined) memo.set(key, (serializer = compile(route)));
      return serializer;
    };
  };
}
