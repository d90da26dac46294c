import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

const DESCRIPTION = `devutil: webhook bins and mocks, developer utilities, cryptographic tools, DNS and geo IP.

Every error has the body \`{"detail", "code", "errors"?}\`; \`code\` is stable and listed per response.
Authenticate with \`X-API-Key: dk_...\` (or \`X-Marketplace-Key\` + \`X-Marketplace-Host\` through a
marketplace proxy). Devtools calls cost 1 credit when they succeed (2xx); other areas are free unless
the plan says otherwise. Metered responses carry \`X-Credits-Limit\` and \`X-Credits-Remaining\`; rate-limited
keys get \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (epoch seconds of the
window's end). A 429 carries \`Retry-After\` in seconds. JSON bodies are limited to 2 MiB and 1000 levels
of nesting. Timestamps are ISO 8601 UTC with milliseconds. Every response carries \`X-Request-Id\`: the
caller's own when it is 1-128 characters of \`[A-Za-z0-9._:-]\`, otherwise a new one (a random per-process
prefix and a counter, e.g. \`q3ZP0aBcDeFg-1a\`); logs carry the same id.

Decisions where the specification is silent are written in each operation's description.`;

/** OpenAPI 3.1 generated from the route schemas, at /openapi.json, and a browsable /docs. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'devutil', version: '1.0.0', description: DESCRIPTION },
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          marketplace: { type: 'apiKey', in: 'header', name: 'X-Marketplace-Key' },
          marketplaceHost: { type: 'apiKey', in: 'header', name: 'X-Marketplace-Host' },
          adminToken: { type: 'apiKey', in: 'header', name: 'X-Admin-Token' },
        },
      },
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    // Self-hosted over plain http (a LAN host, a container): upgrade-insecure-requests would send the
    // page's own scripts and styles to https, where nothing listens, and leave the page blank.
    transformStaticCSP: (header: string) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
  });
  app.get('/openapi.json', { config: { area: 'public' }, schema: { hide: true } }, async () => app.swagger());
}
