import { DEFAULT_OUTPUT_FORMAT } from './date-format.js';

const zoneSchema = { type: 'string', minLength: 1, maxLength: 64 } as const;

/** Request body of `POST /v1/date-format`. */
export const dateFormatBody = {
  type: 'object',
  required: ['date'],
  additionalProperties: false,
  properties: {
    date: { type: ['string', 'number'], maxLength: 256, description: 'ISO 8601, RFC 2822, Unix timestamp, or plain English.' },
    output_format: { type: 'string', maxLength: 1024, default: DEFAULT_OUTPUT_FORMAT, description: 'strftime directives.' },
    input_format: { type: 'string', minLength: 1, maxLength: 256, description: 'strftime format the date must match; auto-detection when absent.' },
    from_timezone: { ...zoneSchema, default: 'UTC', description: 'IANA zone a naive input is read in.' },
    to_timezone: { ...zoneSchema, description: 'IANA zone of the output; default from_timezone.' },
  },
  examples: [{ date: '2026-03-08 01:30:00', from_timezone: 'America/New_York', to_timezone: 'Europe/Berlin', output_format: '%A %d %B %Y %H:%M %Z' }],
} as const;

/** 200 answer of `POST /v1/date-format`. */
export const dateFormatResponse = {
  type: 'object',
  required: ['formatted', 'iso8601', 'timestamp', 'timezone'],
  properties: {
    formatted: { type: 'string' },
    iso8601: { type: 'string' },
    timestamp: { type: 'integer', description: 'Whole seconds since the epoch.' },
    timezone: { type: 'string' },
  },
  examples: [{ formatted: 'Sunday 08 March 2026 07:30 CET', iso8601: '2026-03-08T07:30:00+01:00', timestamp: 1772951400, timezone: 'Europe/Berlin' }],
} as const;
