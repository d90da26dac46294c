import { FILE_HOST } from './json-schema-prepare.js';

/** One failure as the service reports it (CONTRACT §3.3). */
export interface SchemaFailure {
  error: string;
  path: Array<string | number>;
  schemaPath: string;
}

/** A failed keyword as the validator's BASIC output lists it. */
export interface OutputUnit {
  keyword: string;
  absoluteKeywordLocation: string;
  instanceLocation: string;
}

type Obj = Record<string, unknown>;
type Message = (value: unknown, schema: Obj | undefined, instance: unknown) => string;

const show = (v: unknown): string => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};
const plural = (n: unknown, word: string): string => `${String(n)} ${word}${n === 1 ? '' : 's'}`;
const notAllowed =
  (keyword: string): Message =>
  () =>
    `is not allowed by ${keyword}`;

/** Message of a failed keyword, one row per keyword; the value is the keyword's value in the schema. */
const MESSAGES: Record<string, Message> = {
  type: (v) => `must be ${Array.isArray(v) ? v.join(' or ') : String(v)}`,
  enum: (v) => `must be one of ${show(v)}`,
  const: (v) => `must be equal to ${show(v)}`,
  minimum: (v, s) => (s?.exclusiveMinimum === true ? `must be > ${String(v)}` : `must be >= ${String(v)}`),
  maximum: (v, s) => (s?.exclusiveMaximum === true ? `must be < ${String(v)}` : `must be <= ${String(v)}`),
  exclusiveMinimum: (v, s) => `must be > ${String(typeof v === 'number' ? v : s?.minimum)}`,
  exclusiveMaximum: (v, s) => `must be < ${String(typeof v === 'number' ? v : s?.maximum)}`,
  multipleOf: (v) => `must be a multiple of ${String(v)}`,
  minLength: (v) => `must have at least ${plural(v, 'character')}`,
  maxLength: (v) => `must have at most ${plural(v, 'character')}`,
  pattern: (v) => `must match the pattern ${show(v)}`,
  format: (v) => `must be a valid ${String(v)}`,
  minItems: (v) => `must have at least ${plural(v, 'item')}`,
  maxItems: (v) => `must have at most ${plural(v, 'item')}`,
  uniqueItems: () => 'must not contain duplicate items',
  contains: () => 'must contain an item matching "contains"',
  minContains: (v) => `must contain at least ${plural(v, 'item')} matching "contains"`,
  maxContains: (v) => `must contain at most ${plural(v, 'item')} matching "contains"`,
  minProperties: (v) => `must have at least ${plural(v, 'property')}`.replace('propertys', 'properties'),
  maxProperties: (v) => `must have at most ${plural(v, 'property')}`.replace('propertys', 'properties'),
  required: (v, _s, instance) => {
    const names = Array.isArray(v)
      ? v.filter((k) => typeof instance !== 'object' || instance === null || !Object.hasOwn(instance, String(k)))
      : [];
    return `must have required ${names.length === 1 ? 'property' : 'properties'} ${names.map((n) => show(n)).join(', ')}`;
  },
  dependentRequired: () => 'must have the properties that the present properties depend on (dependentRequired)',
  dependencies: () => 'must satisfy the dependencies of its present properties',
  propertyNames: () => 'has a property name not allowed by propertyNames',
  not: () => 'must not match the schema in "not"',
  anyOf: () => 'must match at least one schema in anyOf',
  oneOf: () => 'must match exactly one schema in oneOf',
  additionalProperties: notAllowed('additionalProperties (no such property is allowed)'),
  unevaluatedProperties: notAllowed('unevaluatedProperties (no such property is allowed)'),
  additionalItems: notAllowed('additionalItems'),
  unevaluatedItems: notAllowed('unevaluatedItems'),
  items: notAllowed('items'),
};

/** Keywords whose `false` value the validator reports as a failed boolean schema at the keyword. */
const FALSE_SCHEMA_KEYWORDS = new Set(['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems', 'items']);

function splitLocation(location: string): { base: string; pointer: string[] } {
  const hash = location.indexOf('#');
  const base = hash < 0 ? location : location.slice(0, hash);
  const fragment = hash < 0 ? '' : location.slice(hash + 1);
  const pointer = fragment
    .split('/')
    .slice(1)
    .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
  return { base, pointer };
}

function step(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
  return (value as Obj)[key];
}

/** `#/tags/1` against the data → `["tags", 1]`: an index wherever the container is an array. */
function toDataPath(instanceLocation: string, data: unknown): { path: Array<string | number>; value: unknown } {
  const path: Array<string | number> = [];
  let value = data;
  for (const segment of splitLocation(instanceLocation).pointer) {
    path.push(Array.isArray(value) && /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment);
    value = step(value, segment);
  }
  return { path, value };
}

/** `#/a~1b/type` with decoded segments, JSON-pointer escaped again (readable: no percent-encoding). */
function toPointer(segments: string[]): string {
  return '#' + segments.map((s) => '/' + s.replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/**
 * Turn validator output units into the service's failures: `path` into the data, `schema_path`
 * relative to the request schema (`#/properties/age/type`), or absolute for a keyword in another
 * document, and a message built from the keyword and its value.
 *
 * @example
 *   describeFailures([{ keyword: '…/type', absoluteKeywordLocation: 'https://devutil.invalid/schema.json#/properties/age/type',
 *     instanceLocation: '#/age' }], { data: { age: 'x' }, rootUris: new Set(['https://devutil.invalid/schema.json']), documents })
 *   // → [{ error: 'must be integer', path: ['age'], schemaPath: '#/properties/age/type' }]
 */
export function describeFailures(
  units: OutputUnit[],
  context: { data: unknown; rootUris: Set<string>; documents: Map<string, unknown> },
): SchemaFailure[] {
  return units.map((unit) => {
    const { base, pointer } = splitLocation(unit.absoluteKeywordLocation);
    const { path, value: instance } = toDataPath(unit.instanceLocation, context.data);
    const keyword = pointer.at(-1) ?? '';
    let parent: unknown = context.documents.get(base);
    for (const segment of pointer.slice(0, -1)) parent = step(parent, segment);
    const keywordValue = step(parent, keyword);
    const message = /\/validate$/.test(unit.keyword)
      ? FALSE_SCHEMA_KEYWORDS.has(keyword)
        ? MESSAGES[keyword]!(keywordValue, parent as Obj | undefined, instance)
        : 'is not allowed here (the schema is false)'
      : Object.hasOwn(MESSAGES, keyword)
        ? MESSAGES[keyword]!(keywordValue, parent as Obj | undefined, instance)
        : `fails the "${keyword}" keyword`;
    const schemaPath = context.rootUris.has(base) ? toPointer(pointer) : `${base.replace(FILE_HOST, 'file://')}${toPointer(pointer)}`;
    const name = path.length === 0 ? 'value' : `value at ${JSON.stringify(path)}`;
    return { error: `${name} ${message}`, path, schemaPath };
  });
}
