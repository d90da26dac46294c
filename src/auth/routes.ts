import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { DevutilError, invalidField } from '../errors.js';
import { deletedSchema, errorResponses, timestampSchema } from '../http/schemas.js';
import { issueKey, keyToWire, MARKETPLACE_HOST_PATTERN, rotateKey } from './keys.js';
import { creditPeriodAt } from './credit-period.js';
import { findPlan } from './plans.js';

const keySchema = {
  type: 'object',
  required: ['key_id', 'name', 'plan', 'hint', 'marketplace_host', 'created_at', 'revoked_at'],
  properties: {
    key_id: { type: 'string', examples: ['key_4fQ9xT2mZk8Lr0aBcDeFgH'] },
    name: { type: 'string' },
    plan: { type: 'string', examples: ['free'] },
    hint: {
      type: 'string',
      description:
        'The first 12 hex digits of the SHA-256 digest of the secret (no part of a key is stored): `printf %s "$KEY" | sha256sum | cut -c1-12` tells which key is which.',
      examples: ['sha256:3f8a09c2d1e7…'],
    },
    marketplace_host: { type: ['string', 'null'] },
    created_at: timestampSchema,
    revoked_at: { type: ['string', 'null'], format: 'date-time' },
  },
} as const;

const keyWithSecretSchema = {
  type: 'object',
  required: ['key', 'api_key'],
  properties: {
    key: keySchema,
    api_key: { type: 'string', description: 'The secret. Shown only in this response.', examples: ['dk_0123456789abcdefghijABCDEFGHIJKL'] },
  },
} as const;

/** How a revocation or rotation reaches the other instances (the key cache, src/auth/key-cache.ts). */
const KEY_CHANGE_REACH =
  'Each instance remembers a key it has looked up for up to 2 s; the change is announced to ' +
  'every instance through the store (Redis pub/sub) before this response is sent, and each drops the key on receipt. ' +
  'Only an instance that misses the announcement (its Redis subscription lost at that moment) may accept the old ' +
  'secret, for at most those 2 s. A change made with the CLI on the embedded SQLite store reaches running ' +
  'processes within 2 s.';

const keyIdParams = {
  type: 'object',
  required: ['key_id'],
  properties: { key_id: { type: 'string', maxLength: 64 } },
} as const;

/** `GET /v1/account` for any key, and the admin key API when ADMIN_TOKEN is set. */
export default async function keyRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { config, store, now } = ctx;

  app.get(
    '/v1/account',
    {
      config: { area: 'account' },
      schema: {
        operationId: 'getAccount',
        summary: 'The calling key: its plan, areas, credits and rate limit',
        description: 'Free of credits. `credits.limit` and `rate_limit_per_minute` are null on unlimited plans.',
        response: {
          200: {
            type: 'object',
            required: ['key_id', 'name', 'plan', 'areas', 'credits', 'rate_limit_per_minute'],
            properties: {
              key_id: { type: ['string', 'null'] },
              name: { type: 'string' },
              plan: { type: 'string' },
              areas: { type: 'array', items: { type: 'string' } },
              credits: {
                type: 'object',
                required: ['limit', 'used', 'remaining', 'resets_at'],
                properties: {
                  limit: { type: ['integer', 'null'] },
                  used: { type: 'integer' },
                  remaining: { type: ['integer', 'null'] },
                  resets_at: timestampSchema,
                },
              },
              rate_limit_per_minute: { type: ['integer', 'null'] },
            },
            examples: [
              {
                key_id: 'key_4fQ9xT2mZk8Lr0aBcDeFgH',
                name: 'laptop',
                plan: 'free',
                areas: ['webhook', 'devtools'],
                credits: { limit: 1000, used: 12, remaining: 988, resets_at: '2026-12-01T00:00:00.000Z' },
                rate_limit_per_minute: 60,
              },
            ],
          },
        },
      },
    },
    async (request) => {
      const { key, plan } = request.principal!;
      const period = creditPeriodAt(now());
      const used = key ? await store.usage.creditsUsed(key.id, period.id) : 0;
      return {
        key_id: key?.id ?? null,
        name: key?.name ?? '',
        plan: plan.name,
        areas: plan.areas,
        credits: {
          limit: plan.monthlyCredits,
          used,
          remaining: plan.monthlyCredits === null ? null : Math.max(0, plan.monthlyCredits - used),
          resets_at: period.endIso,
        },
        rate_limit_per_minute: plan.rateLimitPerMinute,
      };
    },
  );

  if (!config.adminToken) return;

  app.post(
    '/v1/admin/keys',
    {
      config: { area: 'admin' },
      schema: {
        operationId: 'createKey',
        summary: 'Create an API key (the secret is shown once)',
        body: {
          type: 'object',
          properties: {
            name: { type: 'string', maxLength: 128, default: '' },
            plan: { type: 'string', maxLength: 64, description: 'Defaults to the default plan.' },
            marketplace_host: {
              type: 'string',
              minLength: 1,
              maxLength: 253,
              pattern: MARKETPLACE_HOST_PATTERN,
              description:
                'Bind the key to a marketplace proxy host: a host name, with `:port` if the proxy sends one; matched case-insensitively against `X-Marketplace-Host`.',
            },
          },
          additionalProperties: false,
          examples: [{ name: 'ci', plan: 'pro' }],
        },
        response: { 201: keyWithSecretSchema },
      },
    },
    async (request, reply) => {
      const body = request.body as { name: string; plan?: string; marketplace_host?: string };
      const plan = body.plan ?? config.plans.defaultPlan;
      if (!findPlan(config.plans, plan)) throw invalidField('plan', `must be one of ${Object.keys(config.plans.plans).join(', ')}`);
      const { record, secret } = await issueKey(store.keys, { name: body.name, plan, marketplaceHost: body.marketplace_host }, now());
      // The secret is shown once: no cache along the way may keep it.
      return reply
        .status(201)
        .header('cache-control', 'no-store')
        .send({ key: keyToWire(record), api_key: secret });
    },
  );

  app.get(
    '/v1/admin/keys',
    {
      config: { area: 'admin' },
      schema: {
        operationId: 'listKeys',
        summary: 'List API keys (never their secrets)',
        response: { 200: { type: 'object', required: ['keys'], properties: { keys: { type: 'array', items: keySchema } } } },
      },
    },
    async () => ({ keys: (await store.keys.listKeys()).map(keyToWire) }),
  );

  app.delete(
    '/v1/admin/keys/:key_id',
    {
      config: { area: 'admin' },
      schema: {
        operationId: 'revokeKey',
        summary: 'Revoke an API key',
        description: `The key answers 401 from then on, on every instance sharing the store. ${KEY_CHANGE_REACH}`,
        params: keyIdParams,
        response: { 200: deletedSchema('key_id'), ...errorResponses('not_found') },
      },
    },
    async (request) => {
      const { key_id } = request.params as { key_id: string };
      if (!(await store.keys.revokeKey(key_id, now()))) throw new DevutilError('not_found', `No active key ${key_id}.`);
      return { message: 'key revoked', key_id };
    },
  );

  app.post(
    '/v1/admin/keys/:key_id/rotate',
    {
      config: { area: 'admin' },
      schema: {
        operationId: 'rotateKey',
        summary: 'Give a key a new secret; the old secret stops working at once',
        description: `The old secret answers 401 from then on, on every instance sharing the store. ${KEY_CHANGE_REACH}`,
        params: keyIdParams,
        response: { 200: keyWithSecretSchema, ...errorResponses('not_found') },
      },
    },
    async (request, reply) => {
      const { key_id } = request.params as { key_id: string };
      const rotated = await rotateKey(store.keys, key_id);
      if (!rotated) throw new DevutilError('not_found', `No active key ${key_id}.`);
      reply.header('cache-control', 'no-store');
      return { key: keyToWire(rotated.record), api_key: rotated.secret };
    },
  );
}
