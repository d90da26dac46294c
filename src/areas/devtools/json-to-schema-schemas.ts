/** `POST /v1/json-to-schema`: what the inferred schema holds. */
export const jsonToSchemaSchema = {
  operationId: 'inferJsonSchema',
  summary: 'Infer a JSON Schema from sample data',
  description: [
    'Infers a JSON Schema that uses only draft-4 keywords (`type`, `properties`, `required`, `items`) and so is valid',
    'under drafts 4 to 2020-12; it carries `$schema: "http://json-schema.org/draft-04/schema#"`.',
    '`data` is one sample, or a non-empty array whose elements are all objects: those are samples of one object and',
    'merge into one object schema whose `required` lists the keys present in every sample (any other array,',
    'e.g. `[1, 2]` or a mix of objects and scalars, is itself the sample and gets an array schema).',
    'Integers give `integer`, fractions `number` (both seen: `number`). Integers are told by value, as JSON Schema does from',
    'draft 6 on and as validators working on parsed JSON do for draft 4: `1.0` and `1e3` are the integers 1 and 1000 once',
    'parsed, so they give `integer` (a validator that follows draft 4 to the letter on the JSON text would call them numbers). A value that is null in some samples gets a',
    'type array such as `["string","null"]`; a value seen with several types lists them all. Array elements merge',
    'the same way into `items` (an empty array gets no `items`). Every sample validates against the inferred schema.',
  ].join(' '),
  tags: ['devtools'],
  body: {
    type: 'object',
    required: ['data'],
    additionalProperties: false,
    properties: { data: { description: 'A sample JSON value, or an array of sample objects.' } },
    examples: [
      {
        data: [
          { id: 1, name: 'Ada', email: null },
          { id: 2, name: 'Alan', email: 'alan@example.com', tags: ['x'] },
        ],
      },
    ],
  },
  response: {
    200: {
      type: 'object',
      required: ['schema'],
      properties: { schema: { type: 'object', additionalProperties: true, description: 'The inferred JSON Schema.' } },
      examples: [
        {
          schema: {
            $schema: 'http://json-schema.org/draft-04/schema#',
            type: 'object',
            properties: {
              id: { type: 'integer' },
              name: { type: 'string' },
              email: { type: ['string', 'null'] },
              tags: { type: 'array', items: { type: 'string' } },
            },
            required: ['id', 'name', 'email'],
          },
        },
      ],
    },
  },
};
