// The request schemas of the tool operations (shipped by the build from the OpenAPI document) turned
// into form fields, and a form's inputs turned back into the request the schema describes.
import generated from './operations.gen.json';
import type { FieldSpec, Inputs, JsonSchema, OperationSpec, PreparedRequest, ToolOperation } from './types';

const OPERATIONS = generated as unknown as Record<string, OperationSpec>;

/** The OpenAPI operation a tool operation calls; the build ships every tool operation, so a miss is a registry typo. */
export function specOf(operation: ToolOperation): OperationSpec {
  const spec = OPERATIONS[`${operation.method.toUpperCase()} ${operation.path}`];
  if (spec === undefined) throw new Error(`the OpenAPI document has no ${operation.method.toUpperCase()} ${operation.path}`);
  return spec;
}

/** Every operation the build shipped, e.g. `GET /v1/mock-data/types` for a renderer that needs it. */
export function operationSpecs(): OperationSpec[] {
  return Object.values(OPERATIONS);
}

/**
 * `format_type` → `Format type`, `memory_kib` → `Memory (KiB)`: a label from a wire name.
 *
 * @example
 *   labelOf('time_to_submit_ms') // 'Time to submit (ms)'
 */
export function labelOf(name: string): string {
  const words = name.split('_');
  const units: Record<string, string> = { ms: '(ms)', kib: '(KiB)', mb: '(MB)' };
  const text = words.map((word) => units[word] ?? word).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const typesOf = (schema: JsonSchema): string[] =>
  schema.anyOf ? schema.anyOf.flatMap(typesOf) : Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];

function kindOf(schema: JsonSchema, hint: FieldSpec['kind'] | undefined, choices: string[]): FieldSpec['kind'] {
  if (hint) return hint;
  if (choices.length > 0) return 'select';
  const types = typesOf(schema);
  if (types.includes('string')) return types.includes('object') || (schema.maxLength ?? Infinity) > 1024 ? 'textarea' : 'text';
  if (types.length === 1 && types[0] === 'boolean') return 'checkbox';
  if (types.length === 1 && types[0] === 'integer') return 'integer';
  if (types.length === 1 && types[0] === 'number') return 'number';
  return 'code';
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** The form's fields of an operation, in the schema's order, with the registry's hints applied. */
export function fieldsOf(operation: ToolOperation, spec: OperationSpec): FieldSpec[] {
  const { properties = {}, required = [] } = spec.request.schema;
  return Object.entries(properties).map(([name, schema]) => {
    const hint = operation.fields?.[name] ?? {};
    const choices = (hint.choices ?? schema.enum ?? []).map(String);
    const widget = hint.widget === 'input' ? 'text' : hint.widget;
    const kind = kindOf(schema, widget, choices);
    const defaultValue = schema.default === undefined ? undefined : kind === 'checkbox' ? schema.default === true : textOf(schema.default);
    return {
      name,
      label: hint.label ?? labelOf(name),
      kind,
      required: required.includes(name),
      choices,
      defaultValue,
      description: schema.description,
      secret: hint.secret === true,
      schema,
    };
  });
}

/** The inputs a page opens with: the operation's example from the OpenAPI document, else the schema's defaults. */
export function initialInputs(fields: FieldSpec[], spec: OperationSpec): Inputs {
  const example = spec.request.example ?? {};
  const inputs: Inputs = {};
  for (const field of fields) {
    const value = example[field.name];
    if (field.kind === 'checkbox') inputs[field.name] = typeof value === 'boolean' ? value : field.defaultValue === true;
    else inputs[field.name] = value === undefined ? ((field.defaultValue as string | undefined) ?? '') : textOf(value);
  }
  return inputs;
}

/** Inputs of a shared link or a renderer, kept only where they fit the fields (unknown names and wrong types dropped). */
export function fitInputs(fields: FieldSpec[], base: Inputs, given: Record<string, unknown>): Inputs {
  const inputs = { ...base };
  for (const field of fields) {
    const value = given[field.name];
    if (field.kind === 'checkbox' ? typeof value === 'boolean' : typeof value === 'string') inputs[field.name] = value as string | boolean;
  }
  return inputs;
}

/** A request, or why it cannot be sent yet: required fields left empty and fields the form cannot read. */
export type Preparation =
  | { request: PreparedRequest; missing: []; invalid: Record<string, string> }
  | { request: null; missing: string[]; invalid: Record<string, string> };

function valueOf(field: FieldSpec, raw: string): { value: unknown } | { error: string } {
  if (field.kind === 'number' || field.kind === 'integer') {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value)) return { error: `${field.label} must be a number.` };
    if (field.kind === 'integer' && !Number.isInteger(value)) return { error: `${field.label} must be a whole number.` };
    return { value };
  }
  if (field.kind === 'select') {
    const numeric = typesOf(field.schema).some((t) => t === 'integer' || t === 'number');
    return { value: numeric ? Number(raw) : raw };
  }
  if (field.kind === 'code') {
    try {
      return { value: JSON.parse(raw) as unknown };
    } catch (err) {
      return { error: `${field.label} is not valid JSON: ${(err as Error).message}` };
    }
  }
  return { value: raw };
}

/**
 * The request of `inputs`: empty optional fields and values equal to the schema's default are left
 * out (so the curl command stays short); a required text field is sent even when empty.
 *
 * @example
 *   prepareRequest(spec, fields, { number: '1234.5', format_type: 'decimal', locale: 'de_DE' })
 *   // { request: { method: 'post', path: '/v1/number-format', body: { number: 1234.5, locale: 'de_DE' }, query: null }, ... }
 */
export function prepareRequest(spec: OperationSpec, fields: FieldSpec[], inputs: Inputs): Preparation {
  const values: Record<string, unknown> = {};
  const missing: string[] = [];
  const invalid: Record<string, string> = {};
  for (const field of fields) {
    const raw = inputs[field.name] ?? (field.kind === 'checkbox' ? false : '');
    if (typeof raw === 'boolean') {
      if (raw !== (field.defaultValue ?? false)) values[field.name] = raw;
      continue;
    }
    const isText = field.kind === 'text' || field.kind === 'textarea';
    if (raw === '' && !(isText && field.required)) {
      if (field.required) missing.push(field.name);
      continue;
    }
    if (!field.required && raw === field.defaultValue) continue;
    const read = valueOf(field, raw);
    if ('error' in read) invalid[field.name] = read.error;
    else values[field.name] = read.value;
  }
  if (missing.length > 0 || Object.keys(invalid).length > 0) return { request: null, missing, invalid };
  const query = spec.request.in === 'query' ? Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)])) : null;
  const body = spec.request.in === 'body' ? values : null;
  return { request: { method: spec.method, path: spec.path, query, body }, missing: [], invalid };
}
