import { UsageError } from './failures.js';

/** The parts of a JSON Schema the command line reads. */
export interface Schema {
  type?: string | string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  default?: unknown;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  minimum?: number;
  maximum?: number;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: Schema;
}

export interface Operation {
  operationId: string;
  method: string;
  path: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>;
}

/** One `field=value` an operation takes: a path or query parameter, or a property of its JSON body. */
export interface Field {
  name: string;
  in: 'path' | 'query' | 'body';
  required: boolean;
  schema: Schema;
  description: string;
}

const METHODS = new Set(['get', 'put', 'post', 'patch', 'delete', 'head', 'options']);

/** Every operation of the document, in its order. */
export function listOperations(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, op]) => ({ ...op, method: method.toUpperCase(), path })),
  );
}

/**
 * The operation `name` names: an operationId (exact, else case-insensitive), or a path with one
 * operation (`/v1/json-transform`); `METHOD /path` picks one of several.
 *
 * @example
 *   findOperation(doc, 'transformJson').path // '/v1/json-transform'
 *   findOperation(doc, '/v1/json-transform').operationId // 'transformJson'
 */
export function findOperation(doc: OpenApiDocument, name: string): Operation {
  const all = listOperations(doc);
  const byId = all.find((op) => op.operationId === name) ?? all.find((op) => op.operationId.toLowerCase() === name.toLowerCase());
  if (byId) return byId;
  const [method, path] = /^[A-Za-z]+ \//.test(name)
    ? [name.split(' ')[0]!.toUpperCase(), name.slice(name.indexOf(' ') + 1)]
    : [undefined, name];
  const atPath = all.filter((op) => op.path === path && (method === undefined || op.method === method));
  if (atPath.length === 1) return atPath[0]!;
  if (atPath.length > 1)
    throw new UsageError(`${name} has several operations: ${atPath.map((op) => `${op.operationId} (${op.method})`).join(', ')}`);
  throw new UsageError(`no operation "${name}" (devutil call --list lists them)`);
}

/** The fields of an operation: its path and query parameters, then its JSON body's properties. */
export function operationFields(op: Operation): Field[] {
  const fields: Field[] = (op.parameters ?? [])
    .filter((p): p is Parameter & { in: 'path' | 'query' } => p.in === 'path' || p.in === 'query')
    .map((p) => ({
      name: p.name,
      in: p.in,
      required: p.in === 'path' || p.required === true,
      schema: p.schema ?? {},
      description: p.description ?? p.schema?.description ?? '',
    }));
  const body = bodySchema(op);
  for (const [name, schema] of Object.entries(body?.properties ?? {})) {
    fields.push({ name, in: 'body', required: body?.required?.includes(name) ?? false, schema, description: schema.description ?? '' });
  }
  return fields;
}

/** The JSON body's schema, when the operation takes one. */
export function bodySchema(op: Operation): Schema | undefined {
  return op.requestBody?.content?.['application/json']?.schema;
}

/** The JSON types a schema allows (its own `type`, or its alternatives'); empty when it says none. */
export function typesOf(schema: Schema): Set<string> {
  const types = new Set<string>();
  const own = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  for (const t of own) types.add(t);
  for (const alt of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) for (const t of typesOf(alt)) types.add(t);
  if (types.size === 0 && schema.enum) for (const v of schema.enum) types.add(v === null ? 'null' : typeof v);
  return types;
}

/** How a field's type reads in `--help`: `string`, `integer`, `string | object`, `any`. */
export function describeType(schema: Schema): string {
  const types = [...typesOf(schema)];
  const shown = types.length === 0 ? 'any' : types.join(' | ');
  return schema.enum ? `${shown}: ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}` : shown;
}

/**
 * A command-line value as the field's schema types it: numbers and booleans for those types, JSON
 * for objects and arrays (and for a field of any type, when it parses), else the text.
 *
 * @example
 *   coerceValue({ name: 'count', schema: { type: 'integer' } }, '3') // 3
 *   coerceValue({ name: 'data', schema: {} }, '{"a":1}') // { a: 1 }
 */
export function coerceValue(field: Pick<Field, 'name' | 'schema'>, raw: string): unknown {
  const types = typesOf(field.schema);
  const parsed = parseJson(raw);
  if (types.size === 0) {
    if (parsed.ok) return parsed.value;
    // Text that opens an object or array was meant as one: a typo there is not silently sent as a string.
    if (/^\s*[[{]/.test(raw))
      throw new UsageError(`${field.name} is not JSON (to send text that starts with [ or {, write it as a JSON string)`);
    return raw;
  }
  if (types.has('string') && !((types.has('object') || types.has('array')) && /^\s*[[{]/.test(raw))) return raw;
  if ((types.has('integer') || types.has('number')) && parsed.ok && typeof parsed.value === 'number') return parsed.value;
  if (types.has('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  if (types.has('null') && raw === 'null') return null;
  if ((types.has('object') || types.has('array')) && parsed.ok && typeof parsed.value === 'object') return parsed.value;
  throw new UsageError(
    `${field.name}=${raw}: expected ${describeType(field.schema)}${types.has('object') || types.has('array') ? ' (as JSON)' : ''}`,
  );
}

function parseJson(raw: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    return { ok: false };
  }
}
