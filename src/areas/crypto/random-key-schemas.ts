import { wordedPattern } from '../../http/validation.js';
import { KEY_TYPES } from './random-key.js';

/** `GET /v1/auth/generate-key` (CONTRACT §4). */
export const generateKeySchema = {
  operationId: 'generateRandomKey',
  summary: 'Generate API keys, UUID v4s, nanoids, secret tokens or hex keys',
  description:
    'All randomness comes from the OS CSPRNG; alphabets are sampled by rejection (no modulo bias). ' +
    '`api_key`: prefix (default `dk_`) + base62 characters (default 32). `uuid`: RFC 9562 version 4. ' +
    '`nanoid`: URL-safe 64-character alphabet, default 21 characters. `secret`: base64url of `length` bytes (default 32). ' +
    '`hex`: `length` bytes (default 32) as lowercase hex. `count` 1..100.',
  querystring: {
    type: 'object',
    properties: {
      type: { type: 'string', enum: Object.keys(KEY_TYPES), default: 'api_key' },
      length: {
        type: 'integer',
        minimum: 8,
        maximum: 256,
        description: 'Characters (api_key, nanoid) or random bytes (secret, hex); ignored for uuid.',
      },
      prefix: {
        type: 'string',
        ...wordedPattern('^[A-Za-z0-9_.-]{0,32}$', 'must be at most 32 letters, digits, _, . or -'),
        description: 'Prepended to each key; default `dk_` for api_key, none otherwise.',
      },
      count: { type: 'integer', minimum: 1, maximum: 100, default: 1 },
    },
    additionalProperties: false,
    examples: [
      { type: 'api_key', count: 2 },
      { type: 'nanoid', length: 21 },
    ],
  },
  response: {
    200: {
      type: 'object',
      required: ['keys', 'key', 'type', 'length', 'entropy_bits'],
      properties: {
        keys: { type: 'array', items: { type: 'string' } },
        key: { type: 'string', description: 'The first of `keys`.' },
        type: { type: 'string' },
        length: { type: 'integer', description: 'Length used (characters or bytes, see `length` in the request).' },
        entropy_bits: { type: 'integer', description: 'Random bits per key (the prefix adds none).' },
      },
      examples: [
        {
          keys: ['dk_9Qf2LkR8ZmT0aXcVbN1sD4gH7jK3pW5y'],
          key: 'dk_9Qf2LkR8ZmT0aXcVbN1sD4gH7jK3pW5y',
          type: 'api_key',
          length: 32,
          entropy_bits: 190,
        },
      ],
    },
  },
} as const;
