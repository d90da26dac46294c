import { ERROR_CATALOGUE, type ErrorCode } from '../errors.js';

/** JSON Schema of the CONTRACT §0 error body, listing the codes a response may carry. */
export function errorSchema(codes: ErrorCode[]) {
  const unique = [...new Set(codes)];
  return {
    type: 'object',
    description: `Error. code: ${unique.join(' | ')}`,
    required: ['detail', 'code'],
    properties: {
      detail: { type: 'string', description: 'Human-readable sentence.' },
      code: { type: 'string', enum: unique },
      errors: {
        type: 'array',
        description: 'One entry per invalid field (validation failures only).',
        items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } },
      },
    },
    additionalProperties: true,
  };
}

/**
 * Response schemas for the given error codes, grouped by status, to spread into a route's
 * `schema.response`. Authentication, validation and storage errors are added for every route
 * automatically; list only the route's own (e.g. `not_found`).
 *
 * @example
 *   schema: { response: { 200: binResponse, ...errorResponses('not_found') } }
 */
export function errorResponses(...codes: ErrorCode[]): Record<string, ReturnType<typeof errorSchema>> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CATALOGUE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries([...byStatus].map(([status, list]) => [String(status), errorSchema(list)]));
}

/** Add error codes to an existing `schema.response` map, merging codes that share a status. */
export function mergeErrorResponses(response: Record<string, unknown>, codes: ErrorCode[]): void {
  for (const [status, schema] of Object.entries(errorResponses(...codes))) {
    const existing = response[status] as { properties?: { code?: { enum?: ErrorCode[] } } } | undefined;
    const known = existing?.properties?.code?.enum;
    if (existing && !known) continue; // a route's own non-error schema for that status
    const merged = errorSchema([...(known ?? []), ...(schema.properties.code.enum as ErrorCode[])]);
    // A route's own error schema may document more fields (json-transform's `error_type`): they stay.
    response[status] = existing
      ? { ...existing, description: merged.description, properties: { ...existing.properties, code: merged.properties.code } }
      : merged;
  }
}

/** `date-time` string in ISO 8601 UTC with milliseconds. */
export const timestampSchema = { type: 'string', format: 'date-time', examples: ['2026-11-21T10:15:30.123Z'] } as const;

/** `limit`/`offset` query parameters shared by every list endpoint. */
export const pageQuerySchema = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 200, default: 50, description: '1 to 200.' },
    // Capped at the largest exact integer: the store cannot page past it (a bigger one was a 500).
    offset: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0, description: '0 to 9007199254740991.' },
  },
  additionalProperties: false,
} as const;

/** `{ message }` answer of delete operations, plus the id of what was deleted. */
export function deletedSchema(idField: string) {
  return {
    type: 'object',
    required: ['message', idField],
    properties: { message: { type: 'string' }, [idField]: { type: 'string' } },
  };
}

/** Epoch milliseconds → the wire timestamp. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
