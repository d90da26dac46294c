/** The `$schema` of every inferred schema: draft 4, whose keywords later drafts all keep. */
export const DRAFT_04_URI = 'http://json-schema.org/draft-04/schema#';

type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

/** What the samples seen at one place in the data had in common. */
interface Shape {
  types: Set<JsonType>;
  /** Objects seen here, and for each key the shape of its values and how many objects had it. */
  objects: number;
  properties: Map<string, { shape: Shape; count: number }>;
  /** Shape of the elements of every array seen here (undefined until a non-empty array). */
  items?: Shape;
}

/** Order of types in a type array: the most specific first, `null` last (`["string","null"]`). */
const TYPE_ORDER: JsonType[] = ['object', 'array', 'string', 'integer', 'number', 'boolean', 'null'];

function emptyShape(): Shape {
  return { types: new Set(), objects: 0, properties: new Map() };
}

function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as 'boolean' | 'string' | 'object';
}

/** Fold one sample into a shape (recursively for objects and arrays). */
function addSample(shape: Shape, value: unknown): void {
  const type = typeOf(value);
  shape.types.add(type);
  if (type === 'object') {
    shape.objects++;
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      let entry = shape.properties.get(key);
      if (!entry) shape.properties.set(key, (entry = { shape: emptyShape(), count: 0 }));
      entry.count++;
      addSample(entry.shape, child);
    }
  } else if (type === 'array') {
    for (const item of value as unknown[]) addSample((shape.items ??= emptyShape()), item);
  }
}

function renderType(types: Set<JsonType>): JsonType | JsonType[] {
  // an integer sample and a fractional one together make a number
  const list = TYPE_ORDER.filter((t) => types.has(t) && !(t === 'integer' && types.has('number')));
  return list.length === 1 ? list[0]! : list;
}

function renderShape(shape: Shape): Record<string, unknown> {
  if (shape.types.size === 0) return {};
  const schema: Record<string, unknown> = { type: renderType(shape.types) };
  if (shape.types.has('object')) {
    // Object.fromEntries defines keys, so `__proto__` stays an ordinary property name
    schema.properties = Object.fromEntries([...shape.properties].map(([key, entry]) => [key, renderShape(entry.shape)]));
    const required = [...shape.properties].filter(([, entry]) => entry.count === shape.objects).map(([key]) => key);
    if (required.length > 0) schema.required = required; // draft 4 forbids an empty `required`
  }
  if (shape.types.has('array') && shape.items) schema.items = renderShape(shape.items);
  return schema;
}

/**
 * Infer a draft-4-compatible JSON Schema (`type`, `properties`, `required`, `items`) from sample
 * data. A top-level non-empty array whose elements are all objects is a list of samples of one
 * object: they merge, `required` keeping the keys every sample has. Integers and fractions are
 * told apart (`integer` vs `number`, `number` once both are seen); a value that is sometimes null
 * gets a type array such as `["string","null"]`. Array elements merge the same way into `items`.
 *
 * @example
 *   inferSchema([{ id: 1, tag: 'a' }, { id: 2, tag: null, extra: true }])
 *   // → { $schema: DRAFT_04_URI, type: 'object', properties: { id: { type: 'integer' },
 *   //     tag: { type: ['string', 'null'] }, extra: { type: 'boolean' } }, required: ['id', 'tag'] }
 */
export function inferSchema(data: unknown): Record<string, unknown> {
  const shape = emptyShape();
  const samples = Array.isArray(data) && data.length > 0 && data.every((d) => typeOf(d) === 'object') ? data : [data];
  for (const sample of samples) addSample(shape, sample);
  return { $schema: DRAFT_04_URI, ...renderShape(shape) };
}
