import type { FieldType, OptionSchema } from './field-type.js';
import { NUMBER_TYPES } from './types-number.js';
import { PERSON_TYPES } from './types-person.js';
import { PLACE_TYPES } from './types-place.js';
import { SPECIAL_TYPES } from './types-special.js';
import { TEXT_TYPES } from './types-text.js';

/** Options every field type accepts. */
export const COMMON_OPTIONS: Record<string, OptionSchema> = {
  nullable: { type: 'boolean', default: false, description: 'When true the value is null with probability null_ratio.' },
  null_ratio: {
    type: 'number',
    minimum: 0,
    maximum: 1,
    default: 0.1,
    description: 'Chance of null for a nullable field (0..1, default 0.1).',
  },
};

/** The one table of mock-data field types, by name. */
export const FIELD_TYPES: ReadonlyMap<string, FieldType> = new Map(
  [...PERSON_TYPES, ...PLACE_TYPES, ...NUMBER_TYPES, ...TEXT_TYPES, ...SPECIAL_TYPES].map((t) => [t.name, t]),
);

/** Field type names in table order. */
export const FIELD_TYPE_NAMES: readonly string[] = [...FIELD_TYPES.keys()];

/**
 * JSON Schema of a type's `options` object: its own options plus {@link COMMON_OPTIONS}.
 *
 * @example
 *   optionsSchema(FIELD_TYPES.get('price')!).properties.decimals.default // 2
 */
export function optionsSchema(type: FieldType) {
  return {
    type: 'object',
    properties: { ...(type.options ?? {}), ...COMMON_OPTIONS },
    ...(type.required ? { required: type.required } : {}),
    additionalProperties: false,
  };
}

/**
 * Public description of every type (for `GET /v1/mock-data/types`).
 *
 * @example
 *   listFieldTypes()[0] // { name: 'sequence', description: '...', options: { type: 'object', properties: {...} } }
 */
export function listFieldTypes() {
  return [...FIELD_TYPES.values()].map((t) => ({ name: t.name, description: t.description, options: optionsSchema(t) }));
}
