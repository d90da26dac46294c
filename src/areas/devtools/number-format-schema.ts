import { NUMBER_FORMAT_TYPES, type NumberFormatType } from './number-format.js';

/** Request body of `POST /v1/number-format`. */
export interface NumberFormatBody {
  number: number;
  format_type: NumberFormatType;
  locale: string;
  currency?: string;
  decimals?: number;
}

const numberFormatBody = {
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

const numberFormatResponse = {
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

/** `POST /v1/number-format`: locales, styles and fraction digits. */
export const numberFormatSchema = {
  operationId: 'formatNumber',
  summary: 'Format a number for a locale with CLDR data (decimal, currency, percent, scientific)',
  description: [
    '`locale` accepts `en_US` or `en-US` (default `en_US`); a locale the CLDR data does not have (no silent fallback to the language) → 422. The response echoes it as `ll_CC`.',
    "`percent` takes a ratio (0.85 → 85%). `scientific` uses the locale's notation (`1.235E3` in en_US). `currency` (ISO 4217, case-insensitive) is required for `currency` and validated whenever given.",
    "`decimals` (0..20) fixes the number of fraction digits; otherwise CLDR's default for the style applies (3 max for decimal and scientific, 0 for percent, the currency's minor unit).",
  ].join('\n\n'),
  body: numberFormatBody,
  response: { 200: numberFormatResponse },
};
