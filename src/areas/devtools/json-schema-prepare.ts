import type { DraftRow } from './json-schema-drafts.js';

/** Stand-in host for `file:` URIs, which the validator refuses to register (mapped back in output). */
export const FILE_HOST = 'https://file.devutil.invalid';

type Obj = Record<string, unknown>;

/** Keywords whose value is one subschema (`items` also takes a list). */
const SINGLE = new Set([
  'additionalItems',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
  'items',
]);
/** Keywords whose value is a list of subschemas. */
const LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
/** Keywords whose value maps names to subschemas (`dependencies` values may also be name lists). */
const MAP = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas', 'dependencies']);
/** Keywords holding a URI. */
const URI_KEYWORDS = new Set(['$id', '$ref', '$dynamicRef', '$recursiveRef', '$schema']);

interface Scope {
  row: DraftRow;
  base: string;
  resource: unknown;
  resourceBase: string;
}

const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `file:///a/b.json` → `https://file.devutil.invalid/a/b.json`; other URIs unchanged. */
function rewriteFileUri(uri: string): string {
  return /^file:/i.test(uri) ? FILE_HOST + uri.replace(/^file:(\/\/)?/i, '') : uri;
}

function resolveUri(ref: string, base: string): string {
  try {
    return new URL(ref, base).href;
  } catch {
    return ref;
  }
}

function decodePointer(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * Drafts 4-7: a `#/…` pointer may walk into an embedded resource (a subschema with its own
 * id). The validator treats embedded resources as separate documents, so aim the reference at
 * that resource's URI with the rest of the pointer instead.
 */
function retargetPointer(ref: string, scope: Scope): string {
  let node: unknown = scope.resource;
  let base = scope.resourceBase;
  const segments = decodePointer(ref.slice(1));
  let rest: string[] = segments;
  let moved = false;
  for (let i = 0; i < segments.length; i++) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segments[i]!)) return ref;
    node = (node as Obj)[segments[i]!];
    const id = isObject(node) ? node[scope.row.idKeyword] : undefined;
    if (typeof id === 'string' && !id.startsWith('#') && !(scope.row.refHidesSiblings && typeof (node as Obj).$ref === 'string')) {
      base = resolveUri(rewriteFileUri(id), base).replace(/#$/, '');
      rest = segments.slice(i + 1);
      moved = true;
    }
  }
  if (!moved) return ref;
  const pointer = rest.map((s) => '/' + encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('');
  return pointer ? `${base}#${pointer}` : base;
}

function prepareList(value: unknown, scope: Scope): unknown {
  return Array.isArray(value) ? value.map((v) => prepareNode(v, scope)) : value;
}

function prepareMap(value: unknown, scope: Scope): unknown {
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, Array.isArray(v) ? v : prepareNode(v, scope)]));
}

function prepareNode(node: unknown, outer: Scope): unknown {
  if (!isObject(node)) return node;
  const { row } = outer;
  const hidesId = row.refHidesSiblings && typeof node.$ref === 'string';
  const id = node[row.idKeyword];
  let scope = outer;
  if (typeof id === 'string' && !id.startsWith('#') && !hidesId) {
    const base = resolveUri(rewriteFileUri(id), outer.base).replace(/#$/, '');
    scope = { row, base, resource: node, resourceBase: base };
  }
  const entries: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(node)) {
    if (hidesId && key === row.idKeyword) continue; // drafts 4-7 ignore every sibling of $ref
    let out = value;
    if ((URI_KEYWORDS.has(key) || key === row.idKeyword) && typeof value === 'string') out = rewriteFileUri(value);
    if (key === '$ref' && row.refHidesSiblings && typeof out === 'string' && out.startsWith('#/')) out = retargetPointer(out, scope);
    else if (LIST.has(key) && Array.isArray(value)) out = prepareList(value, scope);
    else if (SINGLE.has(key)) out = prepareNode(value, scope);
    else if (MAP.has(key)) out = prepareMap(value, scope);
    entries.push([key, out]);
  }
  return hidesId && Object.hasOwn(node, 'definitions') ? refBesideDefinitions(Object.fromEntries(entries)) : Object.fromEntries(entries);
}

/**
 * Drafts 4-7 ignore every keyword beside `$ref` when validating, yet `#/definitions/…` pointers
 * still reach into a `definitions` beside it: the usual shape of generated schemas
 * (`{"$ref": "#/definitions/Foo", "definitions": {…}}`). The validator hides that `definitions`
 * together with the other siblings, so keep it in a node that is not itself a reference and apply
 * the `$ref` through `allOf`; the other siblings are dropped, as those drafts ignore them.
 */
function refBesideDefinitions(node: Obj): Obj {
  const out: Obj = { allOf: [{ $ref: node.$ref }], definitions: node.definitions };
  if (Object.hasOwn(node, '$schema')) out.$schema = node.$schema;
  return out;
}

/**
 * A copy of a schema ready for the validator: `file:` URIs moved to a stand-in host (the
 * validator refuses to register them), and for drafts 4-7 the `$ref` rules of those drafts
 * applied (an `$id` beside `$ref` is ignored; pointers into embedded resources retargeted; a
 * `definitions` beside `$ref` stays reachable).
 * Never mutates its input; keys such as `__proto__` are copied as data.
 *
 * @example
 *   prepareSchema({ $id: 'file:///s.json', type: 'string' }, draftRow('7'), 'https://devutil.invalid/schema.json')
 *   // → { $id: 'https://file.devutil.invalid/s.json', type: 'string' }
 */
export function prepareSchema(schema: unknown, row: DraftRow, retrievalUri: string): unknown {
  return prepareNode(schema, { row, base: retrievalUri, resource: schema, resourceBase: retrievalUri });
}

/**
 * Nesting depth of a JSON value (iterative: safe on any depth).
 *
 * @example
 *   measureDepth({ a: [1] }) // → 2
 */
export function measureDepth(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    max = Math.max(max, depth + 1);
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return max;
}
