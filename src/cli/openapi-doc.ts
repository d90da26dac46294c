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

/** An operation found by name, with the path parameters its name gave (`/v1/bins/bin_1/requests` gives `bin_id`). */
export interface FoundOperation {
  op: Operation;
  /** Path segments as written in the name, by parameter. */
  pathValues: Record<string, string>;
}

/** The path parameters `path` gives when it is an instance of `template` (`/v1/bins/{bin_id}`), or null. */
function matchTemplate(template: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const pattern = template.replace(/\{([^}]+)\}|[^{]+/g, (part, name: string | undefined) => {
    if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    names.push(name);
    return '([^/]+)';
  });
  const m = new RegExp(`^${pattern}$`).exec(path);
  return m ? Object.fromEntries(names.map((name, i) => [name, m[i + 1]!])) : null;
}

/**
 * The operation `name` names: an operationId (exact, else case-insensitive), or a path as the
 * document writes it (`/v1/json-transform`, `/v1/bins/{bin_id}`) or with its parameters filled in
 * (`/v1/bins/bin_1/requests`); `METHOD /path` picks one of several at a path.
 *
 * @example
 *   findOperation(doc, 'transformJson').op.path // '/v1/json-transform'
 *   findOperation(doc, 'GET /v1/bins/bin_1').pathValues // { bin_id: 'bin_1' }
 */
export function findOperation(doc: OpenApiDocument, name: string): FoundOperation {
  const all = listOperations(doc);
  const byId = all.find((op) => op.operationId === name) ?? all.find((op) => op.operationId.toLowerCase() === name.toLowerCase());
  if (byId) return { op: byId, pathValues: {} };
  const [method, path] = /^[A-Za-z]+ \//.test(name)
    ? [name.split(' ')[0]!.toUpperCase(), name.slice(name.indexOf(' ') + 1)]
    : [undefined, name];
  const withMethod = all.filter((op) => method === undefined || op.method === method);
  let found: FoundOperation[] = withMethod.filter((op) => op.path === path).map((op) => ({ op, pathValues: {} }));
  if (found.length === 0 && path.startsWith('/')) {
    const matches = withMethod.flatMap((op) => {
      const pathValues = matchTemplate(op.path, path);
      return pathValues ? [{ op, pathValues }] : [];
    });
    // A fixed segment wins over a parameter (`/v1/admin/keys` over `/v1/admin/{x}`): the fewest parameters.
    const fewest = Math.min(...matches.map((m) => Object.keys(m.pathValues).length));
    found = matches.filter((m) => Object.keys(m.pathValues).length === fewest);
  }
  if (found.length === 1) return found[0]!;
  if (found.length > 1) {
    const choices = found.map(({ op }) => `${op.operationId} (${op.method})`).join(', ');
    throw new UsageError(`${name} has several operations: ${choices}; name one, as in devutil call '${found[0]!.op.method} ${path}'`);
  }
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
