// The mock data page's field table as data: rows (name, type, each option as the form holds it)
// read from and written to the request's `fields`, each option's input kind from its JSON Schema in
// GET /v1/mock-data/types, and the API's errors about `fields[i]...` placed on the row they name.
import type { Inputs, JsonSchema } from './types';

/** One field type of GET /v1/mock-data/types. */
export interface FieldTypeInfo {
  name: string;
  description: string;
  /** The JSON Schema of its `options`. */
  options: JsonSchema;
}

/** One row of the table: option values as text (a checkbox's as a boolean), by option name. */
export interface FieldRow {
  /** Stable across reordering, for the rendered list. */
  key: number;
  name: string;
  type: string;
  options: Record<string, string | boolean>;
}

/** How an option is edited: `json` for arrays and untyped values (enum values, a constant). */
export type OptionKind = 'integer' | 'number' | 'boolean' | 'select' | 'text' | 'json';

export function optionKind(schema: JsonSchema): OptionKind {
  if (schema.enum) return 'select';
  if (schema.type === 'integer' || schema.type === 'number' || schema.type === 'boolean') return schema.type;
  if (schema.type === 'string') return 'text';
  return 'json';
}

let nextKey = 1;

/** A new row. */
export function newRow(name: string, type: string, options: FieldRow['options'] = {}): FieldRow {
  return { key: nextKey++, name, type, options };
}

const optionSchemas = (types: Map<string, FieldTypeInfo>, type: string): Record<string, JsonSchema> =>
  types.get(type)?.options.properties ?? {};

/**
 * The rows of a `fields` JSON text (the form's value), options turned into the form's text; an
 * unreadable text gives no rows.
 *
 * @example
 *   rowsOfFields('[{"name":"id","type":"sequence","options":{"start":5}}]', types) // [{ key, name: 'id', type: 'sequence', options: { start: '5' } }]
 */
export function rowsOfFields(text: string | boolean | undefined, types: Map<string, FieldTypeInfo>): FieldRow[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof text === 'string' ? text : '');
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.map((item: { name?: unknown; type?: unknown; options?: Record<string, unknown> }) => {
    const type = typeof item.type === 'string' ? item.type : 'word';
    const schemas = optionSchemas(types, type);
    const options: FieldRow['options'] = {};
    for (const [name, value] of Object.entries(item.options ?? {})) {
      const kind = optionKind(schemas[name] ?? {});
      options[name] = kind === 'boolean' && typeof value === 'boolean' ? value : kind === 'json' ? JSON.stringify(value) : String(value);
    }
    return newRow(typeof item.name === 'string' ? item.name : '', type, options);
  });
}

/** Whether an option is asked for: `null_ratio` only matters for a nullable field. */
export function optionShown(row: FieldRow, option: string): boolean {
  return option !== 'null_ratio' || row.options.nullable === true;
}

/**
 * The request's `fields` from the rows, and the options the form cannot read (by `row.option`):
 * empty options are left out (the API's defaults apply), numbers sent as numbers, JSON parsed.
 *
 * @example
 *   fieldsOfRows([{ key: 1, name: 'price', type: 'price', options: { max: '50' } }], types)
 *   // { fields: [{ name: 'price', type: 'price', options: { max: 50 } }], invalid: {} }
 */
export function fieldsOfRows(rows: FieldRow[], types: Map<string, FieldTypeInfo>): { fields: unknown[]; invalid: Record<string, string> } {
  const invalid: Record<string, string> = {};
  const fields = rows.map((row, index) => {
    const options: Record<string, unknown> = {};
    for (const [name, schema] of Object.entries(optionSchemas(types, row.type))) {
      const raw = row.options[name];
      if (raw === undefined || raw === '' || !optionShown(row, name)) continue;
      const kind = optionKind(schema);
      if (kind === 'boolean') {
        if (raw !== (schema.default === true)) options[name] = raw;
      } else if (kind === 'integer' || kind === 'number') {
        const value = Number(raw);
        if (typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(value)) options[name] = value;
        else invalid[`${index}.${name}`] = 'must be a number';
      } else if (kind === 'json') {
        try {
          options[name] = JSON.parse(String(raw)) as unknown;
        } catch {
          invalid[`${index}.${name}`] = 'is not valid JSON (text goes in double quotes)';
        }
      } else options[name] = raw;
    }
    return Object.keys(options).length === 0 ? { name: row.name, type: row.type } : { name: row.name, type: row.type, options };
  });
  return { fields, invalid };
}

/** Where an error about `fields` belongs: a row and its `name`, `type` or one option, or the row as a whole. */
export interface PlacedError {
  row: number;
  /** `name`, `type`, `options.<option>` or '' for the row. */
  part: string;
  message: string;
}

/**
 * The parts of an error message that name `fields[i]...`, each placed on its row; what names no row
 * is `rest`.
 *
 * @example
 *   placeFieldErrors('fields[0].options.max must be greater than or equal to min (10).')
 *   // { placed: [{ row: 0, part: 'options.max', message: 'fields[0].options.max must be ...' }], rest: '' }
 */
export function placeFieldErrors(message: string): { placed: PlacedError[]; rest: string } {
  const pattern = /fields\[(\d+)\](?:\.(name|type|options)(?:\.(\w+))?)?/g;
  const found = [...message.matchAll(pattern)];
  if (found.length === 0) return { placed: [], rest: message };
  const placed = found.map((match, i) => {
    const end = i + 1 < found.length ? found[i + 1].index : message.length;
    const text = message.slice(match.index, end).replace(/[;\s]+$/, '');
    const part = match[2] === 'options' ? (match[3] ? `options.${match[3]}` : '') : (match[2] ?? '');
    return { row: Number(match[1]), part, message: text };
  });
  return { placed, rest: '' };
}

/**
 * The form's inputs of a request body (to ask for the same rows in another output format):
 * strings and booleans as they are, numbers as text, arrays and objects as JSON.
 *
 * @example
 *   inputsOfBody({ rows: 3, fields: [{ name: 'id', type: 'uuid' }] }) // { rows: '3', fields: '[{"name":"id","type":"uuid"}]' }
 */
export function inputsOfBody(body: Record<string, unknown>): Inputs {
  return Object.fromEntries(
    Object.entries(body).map(([name, value]) => [
      name,
      typeof value === 'string' || typeof value === 'boolean' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value),
    ]),
  );
}

/** A seed for a Generate with the seed field empty, so the downloads hold the rows shown. */
export function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}
