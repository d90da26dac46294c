import { NUMBER_FORMAT_TYPES } from './number-format.js';

/** Request body of `POST /v1/number-format`. */
export const numberFormatBody = {
  type: 'object',
  required: ['number'],
  additionalProperties: false,
  properties: {
    number: { type: 'number', description: 'A JSON number (a string is refused).' },
    format_type: { type: 'string', enum: NUMBER_FORMAT_TYPES, default: 'decimal' },
    locale: { type: 'string', minLength: 2, maxLength: 64, default: 'en_US', description: 'CLDR locale, `ll_CC` or `ll-CC`.' },
    currency: { type: 'string', minLength: 3, maxLength: 3, description: 'ISO 4217 code; required for format_type currency.' },
    decimals: { type: 'integer', minimum: 0, maximum: 20, description: 'Fixed number of fraction digits.' },
  },
  examples: [{ number: 1234567.891, format_type: 'currency', locale: 'de_DE', currency: 'EUR' }],
} as const;

/** 200 answer of `POST /v1/number-format`. */
export const numberFormatResponse = {
  type: 'object',
  required: ['formatted', 'original', 'locale', 'format_type'],
  properties: {
    formatted: { type: 'string' },
    original: { type: 'number' },
    locale: { type: 'string' },
    format_type: { type: 'string', enum: NUMBER_FORMAT_TYPES },
  },
  examples: [{ formatted: '1.234.567,89 €', original: 1234567.891, locale: 'de_DE', format_type: 'currency' }],
} as const;
