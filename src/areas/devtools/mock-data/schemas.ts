import { MAX_REGEX_OUTPUT } from './regex-field.js';
import { FIELD_TYPE_NAMES } from './field-types.js';
import { MAX_OUTPUT_CHARS, REFERENCE_DATE } from './field-type.js';
import type { MockField } from './generate.js';
import { MOCK_LOCALES } from './locales.js';
import type { OutputFormat } from './render.js';
import { SQL_DIALECTS, type SqlDialect } from './render-sql.js';
import { INLINE_COST, MOCK_DATA_TIMEOUT_MS } from './mock-data-pool.js';

/** Route description: every decision CONTRACT §3.1 leaves open. */
const MOCK_DATA_DESCRIPTION = [
  `Generates 1..1000 rows of fake data with @faker-js/faker 10.6.0 (pinned). ${FIELD_TYPE_NAMES.length} field types; `,
  'GET /v1/mock-data/types lists each with its options (JSON Schema with defaults). Every type also takes ',
  '`nullable` (boolean) and `null_ratio` (0..1, default 0.1).\n\n',
  '**Fields**: 1..50 fields; `name` is 1..64 characters and unique (case-sensitive); any characters are allowed. ',
  'Unknown type, unknown or out-of-range option, `min` > `max`, `from` after `to` → 422.\n\n',
  `**Seed**: the same \`seed\` and request give byte-identical output across processes and restarts: a fresh Faker per call, `,
  `reference date fixed at ${REFERENCE_DATE} (used by \`ulid\`), all 53 bits of the seed used. Without a seed the output is random. `,
  'Date ranges default to 2016-01-01 .. 2026-01-01 (UTC) whatever the current date.\n\n',
  `**Locale**: \`ll_CC\` (or \`ll-CC\`), default en_US; supported: ${MOCK_LOCALES.join(', ')}. Values the locale lacks fall back to English; data a locale marks as not applicable (name prefixes in az_AZ, states in az_AZ, postcodes in en_HK) is a 422 on that field.\n\n`,
  '**Output**: `json` → `data` is an array of row objects (keys in field order). `csv`, `sql`, `xml` → `data` is text and ',
  '`output_format` is echoed. CSV: RFC 4180, header line, every line ends in CRLF, fields holding `"` `,` CR or LF are quoted ',
  'with quotes doubled, null is an empty field; a NUL character in a value or field name → 422 naming the field (many CSV readers ',
  'stop at it).\n\n',
  "**SQL** runs as it is in the dialect's own client (`sqlite3`, `psql`, `mysql`): a `CREATE TABLE` first (`create_table: false` ",
  'omits it), then one `INSERT INTO "table" ("col", ...) VALUES (...);` line per row. `table_name` (default mock_data, 1..128 ',
  'characters) is one identifier. `dialect`: `sqlite` (default), `postgres` or `mysql`. Column types follow the field types ',
  '(sqlite / postgres / mysql): whole numbers (sequence, integer, timestamp, port, http_status_code) INTEGER / BIGINT / BIGINT; ',
  'decimals (number, price, latitude, longitude) REAL / DOUBLE PRECISION / DOUBLE; boolean BOOLEAN; date TEXT / DATE / DATE; ',
  'datetime TEXT / TIMESTAMPTZ / DATETIME(3) (mysql gets the UTC instant as `YYYY-MM-DD HH:MM:SS.mmm`, which DATETIME reads); ',
  'time TEXT / TIME / TIME; enum and constant take the type all their values share (whole numbers, numbers, booleans), else ',
  "TEXT, where every value is written as text (`'1'`, `'true'`, objects and arrays as JSON); every other type TEXT. mysql ",
  'tables are `DEFAULT CHARSET=utf8mb4`. Identifiers in double quotes (mysql: backticks), ',
  'doubled inside; strings in single quotes, doubled inside (sqlite and postgres: standard SQL, backslashes are not escapes; ',
  'mysql: backslash, NUL, CR and Ctrl-Z escaped as mysqldump writes them, read by the default sql_mode); numbers bare, booleans ',
  'TRUE/FALSE, NULL. A name the dialect cannot take → 422 on it: a NUL, over 63 bytes (postgres cuts names there), over 64 ',
  'characters or ending in a space (mysql), two field names equal ignoring case (sqlite: ASCII letters; mysql). NUL and CR in ',
  'a value (the sqlite3 CLI ends a statement at a NUL and drops a CR before a line feed): sqlite writes them as char(0) and ',
  "char(13) concatenated (`'a' || char(0) || 'b'`), mysql as `\\0` and `\\r`; PostgreSQL text cannot hold NUL, so postgres ",
  'output with one → 422 naming the field and row.\n\n',
  '**XML**: ',
  '`<rows><row><name>value</name>…</row></rows>` with & < > " \' and CR escaped; a null value is `<name null="true"/>`; a field ',
  'name that is not a valid XML name (or starts with "xml") is written `<field name="the name">value</field>`; characters XML 1.0 ',
  'forbids (control characters, lone surrogates) become U+FFFD. Objects and arrays (from enum/constant) appear as JSON text.\n\n',
  `**regex**: repetition is capped (min + max_repeat, default 10), output limited to ${MAX_REGEX_OUTPUT} characters (so a{1000000} → 422), `,
  `lookarounds refused. Total generated text is limited to ${MAX_OUTPUT_CHARS} characters (422 beyond).\n\n`,
  `**Large requests**: a request worth more than ${INLINE_COST} ordinary values (rows × fields, a regex field counting more the more `,
  `steps its pattern may take per value) is drawn on a worker thread (two at most), so other requests are served meanwhile, and gives `,
  `the same output for the same seed. Drawing longer than ${MOCK_DATA_TIMEOUT_MS} ms is stopped: 422 on \`rows\`. More than 32 large `,
  'requests waiting → 429 with Retry-After.',
].join('');

/** Request body of `POST /v1/mock-data`. */
export interface MockDataBody {
  fields: MockField[];
  rows: number;
  output_format: OutputFormat;
  locale: string;
  seed?: number;
  table_name: string;
  dialect: SqlDialect;
  create_table: boolean;
}

const mockDataBody = {
  type: 'object',
  required: ['fields'],
  additionalProperties: false,
  properties: {
    fields: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      items: {
        type: 'object',
        required: ['name', 'type'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 64 },
          type: { type: 'string', enum: FIELD_TYPE_NAMES },
          options: { type: 'object', description: 'Options of the type (see GET /v1/mock-data/types).' },
        },
      },
    },
    rows: { type: 'integer', minimum: 1, maximum: 1000, default: 10, description: '1..1000, default 10.' },
    output_format: { type: 'string', enum: ['json', 'csv', 'sql', 'xml'], default: 'json' },
    locale: { type: 'string', default: 'en_US', maxLength: 16, description: 'll_CC locale, default en_US.' },
    seed: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991, description: 'Same seed, same output.' },
    table_name: { type: 'string', minLength: 1, maxLength: 128, default: 'mock_data', description: 'SQL table name.' },
    dialect: { type: 'string', enum: SQL_DIALECTS, default: 'sqlite', description: 'SQL dialect: sqlite (default), postgres or mysql.' },
    create_table: { type: 'boolean', default: true, description: 'SQL output starts with CREATE TABLE (default true).' },
  },
  examples: [
    {
      fields: [
        { name: 'id', type: 'sequence' },
        { name: 'name', type: 'name' },
        { name: 'price', type: 'price', options: { min: 5, max: 50 } },
        { name: 'sku', type: 'regex', options: { pattern: '[A-Z]{3}-\\d{4}' } },
        { name: 'email', type: 'email', options: { nullable: true, null_ratio: 0.2 } },
      ],
      rows: 3,
      output_format: 'json',
      locale: 'en_US',
      seed: 42,
    },
  ],
} as const;

const mockDataResponse = {
  type: 'object',
  required: ['data', 'rows', 'fields'],
  properties: {
    data: { description: 'Array of row objects (json), or the rendered text (csv, sql, xml).' },
    rows: { type: 'integer' },
    fields: { type: 'integer', description: 'Number of fields.' },
    output_format: { type: 'string', enum: ['csv', 'sql', 'xml'], description: 'Present for csv, sql and xml.' },
  },
  examples: [
    { data: [{ id: 1, name: 'Ada Lovelace', price: 12.5, sku: 'QKD-0381', email: null }], rows: 1, fields: 5 },
    { data: 'id,name\r\n1,Ada Lovelace\r\n', rows: 1, fields: 2, output_format: 'csv' },
  ],
} as const;

const mockTypesResponse = {
  type: 'object',
  required: ['count', 'types', 'locales'],
  properties: {
    count: { type: 'integer' },
    types: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'description', 'options'],
        properties: {
          name: { type: 'string' },
          description: { type: 'string' },
          options: { type: 'object', additionalProperties: true, description: 'JSON Schema of `options`.' },
        },
      },
    },
    locales: { type: 'array', items: { type: 'string' } },
  },
  examples: [
    { count: 1, types: [{ name: 'uuid', description: 'Random UUID version 4.', options: { type: 'object' } }], locales: ['en_US'] },
  ],
} as const;

/** `POST /v1/mock-data`. */
export const mockDataSchema = {
  operationId: 'generateMockData',
  summary: 'Generate mock data rows',
  description: MOCK_DATA_DESCRIPTION,
  body: mockDataBody,
  response: { 200: mockDataResponse },
};

/** `GET /v1/mock-data/types`. */
export const mockTypesSchema = {
  operationId: 'listMockDataTypes',
  summary: 'List mock-data field types, their options and the locales',
  response: { 200: mockTypesResponse },
};
