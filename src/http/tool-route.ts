import type { FastifyInstance, FastifySchema } from 'fastify';
import type { Principal } from '../auth/gate.js';
import type { Area } from '../auth/plans.js';
import { clientAddress } from './client-address.js';

/**
 * Who calls a tool: the key id, or `ip:ADDRESS` for an anonymous caller of a public area.
 *
 * @example
 *   toolCaller(request.principal, () => clientAddress(request)) // 'key_3f…' or 'ip:203.0.113.9'
 */
export function toolCaller(principal: Principal | null, ip: () => string): string {
  return principal?.key?.id ?? `ip:${ip()}`;
}

export interface ToolRouteOptions {
  area: Area;
  /** `operationId`, `body` and `response[200]` are required: they name, validate, serialize and document the tool. */
  schema: FastifySchema & { operationId: string; body: object; response: { 200: object } };
}

/**
 * Register `POST url` for a tool whose answer depends on its body alone (status 200 on success, or a
 * thrown DevutilError). `caller` (see {@link toolCaller}) only lets a tool share a scarce resource
 * fairly between callers (the regex threads); the answer never depends on it.
 *
 * @example
 *   const schema = { operationId: 'applyArrayOperation', body, response: { 200: out } };
 *   postTool(app, '/v1/array-ops', { area: 'devtools', schema }, (b: ArrayOpsBody) =>
 *     runArrayOps(b.operation, b.arrays, b.options ?? {}));
 */
export function postTool<B>(
  app: FastifyInstance,
  url: string,
  { area, schema }: ToolRouteOptions,
  run: (body: B, caller: string) => object | Promise<object>,
): void {
  // Not an async function: Fastify sends a tool's plain value at once and awaits only a promise.
  app.post(url, { config: { area }, schema }, (request) =>
    run(
      request.body as B,
      toolCaller(request.principal, () => clientAddress(request)),
    ),
  );
}
