import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { DevutilError, onePerField, type FieldError } from '../../../errors.js';
import type { FieldOptions, FieldType } from './field-type.js';
import { FIELD_TYPE_NAMES, FIELD_TYPES, optionsSchema } from './field-types.js';

const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, useDefaults: true, coerceTypes: false, strict: false }));
const validators = new Map<string, ValidateFunction>();

/** ajv errors of `fields[i].options` → `errors[]` entries. */
function toFieldErrors(prefix: string, errors: ErrorObject[]): FieldError[] {
  return onePerField(
    errors
      .filter((e) => e.keyword !== 'anyOf' || errors.length === 1)
      .map((e) => {
        const key = e.instancePath.split('/').slice(1).join('.');
        if (e.keyword === 'required') return { path: `${prefix}.${String(e.params.missingProperty)}`, message: 'is required' };
        if (e.keyword === 'additionalProperties') {
          return { path: `${prefix}.${String(e.params.additionalProperty)}`, message: 'is not an option of this type' };
        }
        if (e.keyword === 'format') return { path: `${prefix}.${key}`, message: 'must be a date (YYYY-MM-DD) or an RFC 3339 date-time' };
        return { path: key ? `${prefix}.${key}` : prefix, message: e.message ?? 'is invalid' };
      }),
  );
}

/**
 * The field type named `name`, or a 422 listing every valid type.
 *
 * @example
 *   findFieldType('price', 'fields[0].type').name // 'price'
 */
export function findFieldType(name: string, path: string): FieldType {
  const type = FIELD_TYPES.get(name);
  if (type) return type;
  throw new DevutilError('validation_error', `Unknown field type "${name}". Valid types: ${FIELD_TYPE_NAMES.join(', ')}.`, {
    errors: [{ path, message: `must be one of ${FIELD_TYPE_NAMES.join(', ')}` }],
  });
}

/**
 * Validate a field's options against its type's schema and return a copy with defaults applied.
 * Throws 422 `validation_error` with one entry per bad option (`fields[2].options.min`).
 *
 * @example
 *   resolveOptions(FIELD_TYPES.get('price')!, { max: 10 }, 'fields[0].options') // { max: 10, min: 1, decimals: 2, ... }
 */
export function resolveOptions(type: FieldType, given: unknown, path: string): FieldOptions {
  let validate = validators.get(type.name);
  if (!validate) {
    validate = ajv.compile(optionsSchema(type));
    validators.set(type.name, validate);
  }
  if (given !== undefined && (given === null || typeof given !== 'object' || Array.isArray(given))) {
    throw new DevutilError('validation_error', `${path} must be an object.`, { errors: [{ path, message: 'must be an object' }] });
  }
  const options: FieldOptions = { ...(given as FieldOptions | undefined) };
  if (!validate(options)) {
    const errors = toFieldErrors(path, validate.errors ?? []);
    throw new DevutilError(
      'validation_error',
      `Invalid options for type "${type.name}": ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}.`,
      { errors },
    );
  }
  return options;
}
