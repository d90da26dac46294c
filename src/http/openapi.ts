import { STATUS_CODES } from 'node:http';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

const DESCRIPTION = `devutil: webhook bins and mocks, developer utilities, cryptographic tools, DNS and geo IP.

Every error has the body \`{"detail", "code", "errors"?}\`; \`code\` is stable and listed per response.
Authenticate with \`X-API-Key: dk_...\` (or \`X-Marketplace-Key\` + \`X-Marketplace-Host\` through a
marketplace proxy). Devtools calls cost 1 credit when they succeed (2xx); other areas are free unless
the plan says otherwise (a \`HEAD\` on a metered \`GET\` is checked but costs nothing). Metered responses carry \`X-Credits-Limit\` and \`X-Credits-Remaining\`; rate-limited
keys get \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (epoch seconds of the
window's end). A 429 carries \`Retry-After\` in seconds. JSON bodies are limited to 2 MiB and 1000 levels
of nesting. A body sent empty as \`application/json\` reads as \`{}\` (all defaults, e.g. creating a bin); where \`{}\`
would not do, it is a 400 \`invalid_json\` (an empty text is not JSON) naming the fields to send. JSON bodies are read as sent:
one with a \`Content-Encoding\` (gzip, br, ...) is a 415 (catch and mock URLs take any body, compressed ones included). Timestamps are ISO 8601 UTC with milliseconds. Every response carries \`X-Request-Id\`: the
caller's own when it is 1-128 characters of \`[A-Za-z0-9._:-]\`, otherwise a new one (a random per-process
prefix and a counter, e.g. \`q3ZP0aBcDeFg-1a\`); logs carry the same id.

Browsers on other origins may call the API: a request with \`Origin\` gets \`Access-Control-Allow-Origin: *\` and can read the
headers above (keys travel in headers, never in cookies), and a CORS preflight (OPTIONS with
\`Access-Control-Request-Method\`) on any API path is answered 204. The catch and mock paths answer OPTIONS themselves.

Every operation has an \`operationId\`, verb first and stable across releases (\`createBin\`, \`listRequests\`,
\`transformJson\`, \`verifyJwt\`), which \`devutil call\` and client generators use. A path answering several methods has
one operation per method: the usual method has the plain name (\`captureRequest\` is POST /v1/catch/{bin_id},
\`serveMock\` is GET /v1/mock/{mock_id}), each other method adds its name (\`captureRequestPut\`, \`serveMockHead\`),
and the catch's sub-path form adds \`AtSubPath\` (\`captureRequestAtSubPath\`, \`captureRequestPutAtSubPath\`); methods
OpenAPI cannot name (PURGE, PROPFIND, ...) are answered as their path's operations but not listed. Likewise
\`lookupDnsPost\` (POST /v1/devtools/dns-lookup) is the JSON-body form of \`lookupDns\` (GET /v1/lookup).

Decisions where the specification is silent are written in each operation's description.`;

/** Statuses of refusals made before a request counts against the rate limit. */
const UNCOUNTED_STATUSES = new Set(['401', '403', '408', '431']);

/** Response headers the service sets, documented once and referenced from each response. */
const RESPONSE_HEADERS = {
  'X-Request-Id': {
    description: "On every response: the caller's own X-Request-Id when it is 1-128 characters of [A-Za-z0-9._:-], otherwise a new one.",
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': { description: "Requests allowed per minute, when the key's plan has a rate limit.", schema: { type: 'integer' } },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current minute, when the plan has a rate limit.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: "Epoch seconds at which the current minute's window ends, when the plan has a rate limit.",
    schema: { type: 'integer' },
  },
  'X-Credits-Limit': {
    description:
      "Monthly credits of the key's plan, on metered calls (devtools; other areas when the plan gives them a cost) of plans with a credit limit.",
    schema: { type: 'integer' },
  },
  'X-Credits-Remaining': { description: 'Credits left this month, on the same calls as X-Credits-Limit.', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying (rate limit or credits spent).', schema: { type: 'integer' } },
} as const;

type Header = keyof typeof RESPONSE_HEADERS;
interface Operation {
  parameters?: Array<{ in?: string; name?: string; description?: string }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: { required?: string[] } }> };
  security?: Array<Record<string, unknown>>;
  responses?: Record<string, { description?: string; headers?: Record<string, unknown> }>;
}

/**
 * Mark a request body optional when none of its fields is required, and list the headers each
 * response carries: X-Request-Id always; on keyed operations the rate-limit headers, and the credit
 * headers on success; Retry-After on a 429. Operation ids are the routes' own (see
 * {@link requireOperationIds}); nothing here names an operation.
 */
function completeOperations(doc: { paths?: Record<string, Record<string, Operation>>; components?: Record<string, unknown> }) {
  doc.components = { ...doc.components, headers: RESPONSE_HEADERS };
  // A wildcard route (`/v1/catch/:bin_id/*`) comes out as `{*}`: named `sub_path` for readers and client generators.
  for (const path of Object.keys(doc.paths ?? {})) {
    if (!path.endsWith('/{*}')) continue;
    const item = doc.paths![path]!;
    delete doc.paths![path];
    for (const op of new Set(Object.values(item))) {
      for (const param of op.parameters ?? []) {
        if (param.in === 'path' && param.name === '*')
          Object.assign(param, { name: 'sub_path', description: 'The rest of the path: one or more segments, slashes included.' });
      }
    }
    doc.paths![`${path.slice(0, -4)}/{sub_path}`] = item;
  }
  const ref = (name: Header) => ({ $ref: `#/components/headers/${name}` });
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      // A body whose fields are all optional may be left out (the route reads a missing body as `{}`).
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      if (op.requestBody && bodySchema && !bodySchema.required?.length) op.requestBody.required = false;
      const keyed = op.security?.some((scheme) => Object.hasOwn(scheme, 'apiKey')) ?? false;
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const names: Header[] = ['X-Request-Id'];
        // Not on answers given before the request is counted: no key (401), area not in the plan (403), slow or huge headers (408, 431).
        if (keyed && !UNCOUNTED_STATUSES.has(status)) names.push('X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset');
        if (keyed && status.startsWith('2')) names.push('X-Credits-Limit', 'X-Credits-Remaining');
        if (status === '429') names.push('Retry-After');
        response.headers = { ...Object.fromEntries(names.map((name) => [name, ref(name)])), ...response.headers };
        // The generator's placeholder for a success without its own description: the status's name.
        if (response.description === 'Default Response') response.description = STATUS_CODES[Number(status)] ?? 'Success';
      }
    }
  }
  return doc;
}

/**
 * Stop the app from starting when a documented route has no `schema.operationId`, or one another
 * documented route has too (CONTRACT §0: the CLI's `call` and SDK generators name operations by it).
 * A documented route takes one method, since a route's methods would share its operationId.
 */
function requireOperationIds(app: FastifyInstance): void {
  const owners = new Map<string, string>();
  app.addHook('onRoute', (route) => {
    if (route.schema?.hide) return;
    // The generator documents a HEAD route only when asked to (not the copy Fastify makes of a GET).
    if (route.method === 'HEAD' && route.config?.swagger?.exposeHeadRoute !== true) return;
    const methods = [route.method].flat();
    const name = `${methods.join(',')} ${route.url}`;
    const id = route.schema?.operationId;
    if (!id) throw new Error(`route ${name} declares no schema.operationId`);
    if (methods.length > 1) throw new Error(`route ${name} is documented for several methods: give each its own route and operationId`);
    const owner = owners.get(id);
    if (owner) throw new Error(`routes ${owner} and ${name} share the operationId ${id}`);
    owners.set(id, name);
  });
}

/** OpenAPI 3.1 generated from the route schemas, at /openapi.json, and a browsable /docs. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  requireOperationIds(app);
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
    transformObject: (document) => completeOperations((document as { openapiObject: never }).openapiObject) as never,
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
