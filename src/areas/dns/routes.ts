import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { errorResponses } from '../../http/schemas.js';
import type { DkimRecord } from './dkim.js';
import type { DmarcRecord } from './dmarc.js';
import { createDnsClient } from './dns-client.js';
import { lookupDns, type LookupInput, type LookupResult } from './lookup.js';
import type { LookupType } from './record-types.js';
import { LOOKUP_DESCRIPTION, lookupInputSchema, lookupResultSchema } from './schemas.js';
import type { SpfRecord } from './spf.js';
import { postTool, toolCaller } from '../../http/tool-route.js';
import { clientAddress } from '../../http/client-address.js';

/** Mail-check records → their wire fields; the other types are already in wire shape. */
const WIRE_RECORDS: Partial<Record<LookupType, (record: never) => object>> = {
  SPF: (r: SpfRecord) => ({ value: r.value, mechanisms: r.mechanisms, lookup_count: r.lookupCount, valid: r.valid, warnings: r.warnings }),
  DMARC: (r: DmarcRecord) => ({
    value: r.value,
    tags: r.tags,
    policy: r.policy,
    subdomain_policy: r.subdomainPolicy,
    valid: r.valid,
    warnings: r.warnings,
  }),
  DKIM: (r: DkimRecord) => ({
    selector: r.selector,
    value: r.value,
    tags: r.tags,
    key_type: r.keyType,
    key_bits: r.keyBits,
    valid: r.valid,
    warnings: r.warnings,
  }),
};

function toWire(result: LookupResult) {
  const map = WIRE_RECORDS[result.type] as ((record: object) => object) | undefined;
  return {
    domain: result.domain,
    type: result.type,
    records: map ? result.records.map(map) : result.records,
    elapsed_ms: result.elapsedMs,
  };
}

const schema = {
  tags: ['dns'],
  description: LOOKUP_DESCRIPTION,
  response: { 200: lookupResultSchema, ...errorResponses('upstream_error', 'upstream_timeout') },
};

/**
 * The dns area (CONTRACT §6), one cached client per app:
 *
 *   GET  /v1/lookup                 lookupDns   lookup.ts (query string)
 *   POST /v1/devtools/dns-lookup    lookupDns   lookup.ts (JSON body)
 */
export default async function dnsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const client = createDnsClient({ servers: ctx.config.dnsServers, now: ctx.now });
  app.addHook('onClose', async () => client.close());

  app.get<{ Querystring: LookupInput }>(
    '/v1/lookup',
    {
      config: { area: 'dns' },
      schema: {
        ...schema,
        operationId: 'lookupDns',
        summary: 'DNS lookup (A, AAAA, CNAME, MX, NS, TXT, SOA, SRV, CAA, PTR) and mail checks (SPF, DMARC, DKIM)',
        querystring: lookupInputSchema,
      },
    },
    async (request) =>
      toWire(
        await lookupDns(
          request.query,
          client,
          toolCaller(request.principal, () => clientAddress(request)),
        ),
      ),
  );

  postTool(
    app,
    '/v1/devtools/dns-lookup',
    {
      area: 'dns',
      schema: {
        ...schema,
        operationId: 'lookupDnsPost',
        summary: 'DNS lookup (same as GET /v1/lookup, JSON body)',
        body: lookupInputSchema,
      },
    },
    async (body: LookupInput, caller) => toWire(await lookupDns(body, client, caller)),
  );
}
