import { errorResponses } from '../../http/schemas.js';
import { DRAFT_NAMES, type Draft } from './json-schema-drafts.js';
import { SCHEMA_LIMITS } from './json-schema.js';

const pathSchema = {
  type: 'array',
  items: { type: ['string', 'integer'] },
  description: 'Path to the failing value in `data`: object keys as strings, array indices as integers; [] is the root.',
};

const failureSchema = {
  type: 'object',
  required: ['error', 'path', 'schema_path'],
  properties: {
    error: { type: 'string' },
    path: pathSchema,
    schema_path: { type: 'string', description: 'JSON pointer into the schema, e.g. `#/properties/age/type`.' },
  },
};

/** Request body of `POST /v1/json-schema-validate`. */
export interface JsonSchemaValidateBody {
  data: unknown;
  schema: unknown;
  draft?: Draft;
  schemas?: Record<string, unknown>;
  assert_format: boolean;
}

/** `POST /v1/json-schema-validate`: drafts, references, formats, failures and limits. */
export const jsonSchemaValidateSchema = {
  operationId: 'validateJsonSchema',
  summary: 'Validate JSON against a JSON Schema',
  description: [
    'Validates `data` against `schema` (drafts 4, 6, 7, 2019-09 and 2020-12; every required case of the official',
    "JSON-Schema-Test-Suite passes). The draft is the schema's `$schema`; the request field `draft` overrides a",
    'standard `$schema` (a custom meta-schema is kept, and must then be supplied in `schemas`); default 2020-12.',
    'Nothing is ever fetched: `schemas` maps absolute URIs to the other documents a `$ref` may reach',
    '(e.g. `{"http://example.com/address.json": {...}}`); a `$ref` to anything else, a `$schema` naming an unknown',
    'meta-schema, or a schema that is not valid against its meta-schema answers 422 `validation_error`.',
    '`format` is asserted under drafts 4, 6 and 7 and is an annotation only under 2019-09 and 2020-12, as those',
    'specifications say; `assert_format: true` asserts it under every draft.',
    'A failed validation is a normal 200 answer with `valid: false`, the first failure as `error`, `path` and',
    '`schema_path` (relative to the request schema, or an absolute URI for a keyword inside a `schemas` document),',
    `and every failure in \`errors\` (at most ${SCHEMA_LIMITS.maxErrors}). \`valid: true\` comes with \`errors: []\`.`,
    `Limits: \`schema\` plus \`schemas\` at most ${SCHEMA_LIMITS.maxBytes} bytes of JSON, each document at most`,
    `${SCHEMA_LIMITS.maxDepth} levels deep, at most ${SCHEMA_LIMITS.maxDocuments} documents in \`schemas\` (422 beyond).`,
    `Compiled validators are cached (the last ${SCHEMA_LIMITS.cacheEntries} distinct requests' schemas, up to`,
    `${SCHEMA_LIMITS.cacheBytes / 1024 / 1024} MiB of schema text), so repeating a schema does not recompile it.`,
    'A schema with `pattern` or `patternProperties`, or data or schemas over 16 KiB of JSON, is validated on a worker',
    'thread; its evaluation is stopped after 1 s (422 `regex_timeout` when the schema has patterns, else 422',
    '`validation_error`), its compilation after 10 s,',
    'so neither a catastrophically backtracking pattern nor a huge validation can stall the service.',
    'Data that a recursive schema follows deeper than about 500 levels answers 422 (the validator recurses).',
  ].join(' '),
  tags: ['devtools'],
  body: {
    type: 'object',
    required: ['data', 'schema'],
    additionalProperties: false,
    properties: {
      data: { description: 'The JSON value to validate.' },
      schema: { type: ['object', 'boolean'], description: 'The JSON Schema.' },
      draft: { type: 'string', enum: DRAFT_NAMES, description: 'Draft to apply; overrides a standard `$schema`.' },
      schemas: {
        type: 'object',
        additionalProperties: { type: ['object', 'boolean'] },
        description: 'Documents `$ref` may point to, keyed by absolute URI.',
      },
      assert_format: {
        type: 'boolean',
        default: false,
        description:
          'Assert `format` under every draft, with every format the service knows (email, uri, date-time, date, time, duration, ipv4, ipv6, hostname, uuid, uri-reference, json-pointer, regex, ...), also those a draft does not define itself (draft 4 has no `uuid`).',
      },
    },
    examples: [
      {
        data: { name: 'Ada', age: 'thirty' },
        schema: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } }, required: ['name'] },
      },
    ],
  },
  response: {
    200: {
      type: 'object',
      required: ['valid', 'errors'],
      properties: {
        valid: { type: 'boolean' },
        error: { type: 'string', description: 'Message of the first failure (only when invalid).' },
        path: pathSchema,
        schema_path: { type: 'string', description: 'Schema location of the first failure (only when invalid).' },
        errors: { type: 'array', items: failureSchema, description: 'Every failure; [] when valid.' },
      },
      examples: [
        {
          valid: false,
          error: 'value at ["age"] must be integer',
          path: ['age'],
          schema_path: '#/properties/age/type',
          errors: [{ error: 'value at ["age"] must be integer', path: ['age'], schema_path: '#/properties/age/type' }],
        },
      ],
    },
    ...errorResponses('regex_timeout'),
  },
};
