import type { FieldError } from '../../../errors.js';
import { toText } from './field-type.js';
import { checkSqlNames, nulRefused, renderSql, type Column, type SqlOptions } from './render-sql.js';

/** Output formats of `/v1/mock-data`. */
export type OutputFormat = 'json' | 'csv' | 'sql' | 'xml';

type Renderer = (columns: Column[], table: unknown[][], sql: SqlOptions) => string;

/** RFC 4180 field: quoted (quotes doubled) when it holds a quote, comma, CR or LF. */
function quoteCsv(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = toText(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV text; a NUL in a value is refused (422), since many CSV readers stop at it or refuse the line. */
function renderCsv(columns: Column[], table: unknown[][]): string {
  const lines = [columns.map((c) => quoteCsv(c.name)).join(',')];
  table.forEach((row, r) => {
    row.forEach((value, i) => {
      if (typeof value === 'string' && value.includes('\u0000'))
        throw nulRefused(i, columns[i]!.name, r, 'CSV output does not carry', 'use output_format json, sql or xml');
    });
    lines.push(row.map(quoteCsv).join(','));
  });
  return lines.map((line) => `${line}\r\n`).join('');
}

// Characters XML 1.0 cannot carry at all, not even as references: replaced by U+FFFD.
const XML_FORBIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\r': '&#13;',
  '\n': '&#10;',
  '\t': '&#9;',
};
const XML_NAME = /^[\p{L}_][\p{L}\p{N}._-]*$/u;

function escapeXml(text: string): string {
  return text.replace(XML_FORBIDDEN, '\uFFFD').replace(/[&<>"'\r]/g, (c) => XML_ESCAPES[c]);
}

/** An attribute value: also line feeds and tabs as references, which a parser would otherwise read as spaces (XML 1.0 §3.3.3). */
function escapeXmlAttribute(text: string): string {
  return escapeXml(text).replace(/[\n\t]/g, (c) => XML_ESCAPES[c]);
}

/** `<name>v</name>`, or `<field name="...">` when the field name is not a usable XML name. */
function xmlElement(name: string, value: unknown): string {
  const usable = XML_NAME.test(name) && !/^xml/i.test(name);
  const open = usable ? name : `field name="${escapeXmlAttribute(name)}"`;
  const close = usable ? name : 'field';
  if (value === null || value === undefined) return `<${open} null="true"/>`;
  return `<${open}>${escapeXml(toText(value))}</${close}>`;
}

const RENDERERS: Record<Exclude<OutputFormat, 'json'>, Renderer> = {
  csv: renderCsv,
  sql: renderSql,
  xml: (columns, table) =>
    `<rows>${table.map((row) => `<row>${row.map((v, i) => xmlElement(columns[i]!.name, v)).join('')}</row>`).join('')}</rows>`,
};

/**
 * Field names (and for SQL `table_name`) the format cannot write as they are, one entry per bad
 * name: a NUL in a CSV header or an SQL name, and each SQL dialect's own rules (see {@link checkSqlNames}).
 *
 * @example
 *   checkOutputNames('csv', ['a\u0000b'], { tableName: 'mock_data', dialect: 'sqlite', createTable: true })
 *   // [{ path: 'fields[0].name', message: 'holds a NUL character, which CSV output does not carry' }]
 */
export function checkOutputNames(format: OutputFormat, names: string[], sql: SqlOptions): FieldError[] {
  if (format === 'sql') return checkSqlNames(sql.dialect, sql.tableName, names);
  if (format !== 'csv') return [];
  return names.flatMap((name, i) =>
    name.includes('\u0000') ? [{ path: `fields[${i}].name`, message: 'holds a NUL character, which CSV output does not carry' }] : [],
  );
}

/**
 * Render generated rows. JSON gives row objects (null-prototype, so a field named `__proto__`
 * is plain data); CSV (header, CRLF), SQL (`CREATE TABLE` and one INSERT per row, see
 * {@link renderSql}) and XML give text. A NUL in a value is a 422 for CSV and PostgreSQL.
 *
 * @example
 *   const columns = [{ name: 'id', kind: 'integer' }, { name: 'note', kind: 'text' }] as const;
 *   renderMockData('csv', [...columns], [[1, 'a,b']], { tableName: 'mock_data', dialect: 'sqlite', createTable: true })
 *   // 'id,note\r\n1,"a,b"\r\n'
 */
export function renderMockData(
  format: OutputFormat,
  columns: Column[],
  table: unknown[][],
  sql: SqlOptions,
): Record<string, unknown>[] | string {
  if (format !== 'json') return RENDERERS[format](columns, table, sql);
  return table.map((values) => {
    const row: Record<string, unknown> = Object.create(null);
    columns.forEach((column, i) => {
      row[column.name] = values[i];
    });
    return row;
  });
}
